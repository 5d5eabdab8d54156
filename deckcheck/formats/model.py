"""`Format` and `Banlist`: what a format file and a list file say, as plain values.

A format is data (a file under `banlists/`), never code: sizes, the copy limit, how its lists
govern (standard Forbidden/Limited/Semi-Limited, Traditional, whitelist, Genesys points,
Speed Duel groups), banned card frames, skill requirements, and the region whose release dates
decide whether a card exists yet. A format has a history of lists; `banlist_at(date)` picks the
one in force that day.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar, cast, dataclass_transform

from deckcheck import clock
from deckcheck.plain import Plain

ListMode = Literal["standard", "traditional", "whitelist", "points", "speed"]
Skills = Literal["forbidden", "optional", "required-one"]
Region = Literal["tcg", "ocg", "md"]

#: Each class below declares its fields once, with their defaults: its slots and keyword-only
#: constructor follow (`_value`), and so does the pydantic schema for files people write
#: (`formats.schema`). A new field is one line here plus its tests. (Not `dataclasses`: its
#: code generation cost ~2.5 ms at every start-up for these six classes; this, ~0.75 ms.)
_T = TypeVar("_T")
_NOTHING: Any = object()


class _Field:
    """A field's default made by calling `factory`, or a private slot (`init=False`)."""

    __slots__ = ("factory", "init")

    def __init__(self, factory: Callable[[], Any] | None, init: bool) -> None:
        self.factory = factory
        self.init = init


def field(*, default_factory: Callable[[], Any] | None = None, init: bool = True) -> Any:
    """A field whose default is built per instance (`default_factory`), or a private slot
    (`init=False`: a cache, None until used; not a field of `model_fields`)."""
    return _Field(default_factory, init)


def _private() -> Any:
    return field(init=False)


def _init_source(cls: type, names: list[str], glb: dict[str, Any]) -> str:
    """The keyword-only `__init__` of the fields `names` (defaults from `cls`)."""
    args: list[str] = []
    body: list[str] = []
    for n in names:
        d = cls.__dict__.get(n, _NOTHING)
        if isinstance(d, _Field) and not d.init:
            body.append(f"self.{n} = None")
            continue
        if isinstance(d, _Field):
            glb[f"_f_{n}"] = d.factory
            args.append(f"{n}=_NOTHING")
            body.append(f"self.{n} = _f_{n}() if {n} is _NOTHING else {n}")
            continue
        if d is _NOTHING:
            args.append(n)
        else:
            glb[f"_d_{n}"] = d
            args.append(f"{n}=_d_{n}")
        body.append(f"self.{n} = {n}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    return f"def __init__(self, *, {', '.join(args)}):\n    " + "\n    ".join(body)


@dataclass_transform(kw_only_default=True, field_specifiers=(field,))
def _value(cls: type[_T]) -> type[_T]:
    """`cls` remade with `__slots__` and a keyword-only `__init__` from its annotated fields
    (in order; a class attribute is the default, `field(...)` a factory or a private slot).
    `_defaults` keeps each field's default for the schema (`field` specs as they are)."""
    names = [n for n, a in cls.__dict__.get("__annotations__", {}).items()
             if not str(a).startswith("ClassVar")]
    glb: dict[str, Any] = {"_NOTHING": _NOTHING}
    exec(_init_source(cls, names, glb), glb)  # noqa: S102 - our own field names only
    ns = {k: v for k, v in cls.__dict__.items()
          if k not in names and k not in ("__dict__", "__weakref__")}
    ns.update(__slots__=tuple(names), __init__=glb["__init__"],
              _defaults={n: cls.__dict__[n] for n in names if n in cls.__dict__})
    meta: Any = type(cls)
    new = meta(cls.__name__, cls.__bases__, ns)
    new.__qualname__ = cls.__qualname__
    return cast("type[_T]", new)


@_value
class SizeRange(Plain):
    min: int = 0
    max: int

    def __hash__(self) -> int:
        return hash((self.min, self.max))


@_value
class LimitGroup(Plain):
    """Speed Duel "Limited 1/2/3" or Rush "Legend" style group: at most `max` cards in total
    (counting copies) from `passcodes` in one deck."""

    name: str
    max: int
    passcodes: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        self.passcodes = frozenset(self.passcodes)  # any iterable given

    def __hash__(self) -> int:
        return hash((self.name, self.max, self.passcodes))


@_value
class BanlistEntry(Plain):
    """One line of a list: a card (by passcode, with its name for people) and its status."""

    passcode: int
    name: str | None = None
    limit: int | None = None  # 0 forbidden, 1 limited, 2 semi-limited, 3 unlimited (whitelist)
    points: int | None = None  # Genesys points

    def __hash__(self) -> int:
        return hash((self.passcode, self.name, self.limit, self.points))


@_value
class Banlist(Plain):
    """One list, in force from `effective` until the format's next list."""

    _nested = {"entries": [BanlistEntry], "groups": [LimitGroup]}

    name: str  # e.g. "2026.05 TCG"
    format: str  # format id, e.g. "tcg"
    effective: dt.date
    source: str | None = None  # where the facts come from (URL or publication)
    whitelist: bool = False  # unlisted cards are forbidden
    entries: list[BanlistEntry] = field(default_factory=list)
    groups: list[LimitGroup] = field(default_factory=list)

    _limits_cache: dict[int, int] | None = _private()
    _points_cache: dict[int, int] | None = _private()

    def __post_init__(self) -> None:
        self.entries = list(self.entries)  # a copy of any iterable given
        self.groups = list(self.groups)

    def _limit_table(self) -> dict[int, int]:
        # Built on first use: a list's entries are not changed once it is in use.
        if self._limits_cache is None:
            self._limits_cache = self.limits()
        return self._limits_cache

    def limits(self) -> dict[int, int]:
        """passcode -> max copies for every listed card with a limit."""
        return {e.passcode: e.limit for e in self.entries if e.limit is not None}

    def points(self) -> dict[int, int]:
        return {e.passcode: e.points for e in self.entries if e.points}

    def limit_of(self, passcodes: Iterable[int]) -> int | None:
        """The limit of a card given all its passcodes (`Card.all_passcodes`: lists sometimes
        name an alternate artwork only); the strictest when several are listed; None when
        unlisted."""
        table = self._limit_table()
        found = [table[p] for p in passcodes if p in table]
        return min(found) if found else None

    def points_of(self, passcodes: Iterable[int]) -> int:
        """The points of a card given all its passcodes; 0 when unlisted."""
        if self._points_cache is None:
            self._points_cache = self.points()
        table = self._points_cache
        return max((table[p] for p in passcodes if p in table), default=0)

    def group_of(self, passcodes: Iterable[int]) -> LimitGroup | None:
        """The limit group (Speed Duel "Limited 1/2/3", Rush "Legend") a card belongs to."""
        codes = set(passcodes)
        return next((g for g in self.groups if g.passcodes & codes), None)


@_value
class FormatImports(Plain):
    """How lists published elsewhere are recognised as this format's (used by importers only).

    `names`: EDOPro list names without their date ("2026.05 TCG" -> "TCG"; case, spaces and
    punctuation do not matter) or whole undated names ("Edison"); the first is the label of
    lists imported from Konami ids. `dates`: fixed effective dates for EDOPro list names
    whose name carries no usable date. `konami`: the folder of Konami-id lists (YAML Yugi
    limit regulation) that are this format's; `derived_from`: a folder whose lists are this
    format's too under its own rules (Traditional: the TCG lists, Forbidden counted as
    Limited). `dates_from`: Konami-id folders whose official dates give the day of a
    "YYYY.MM" list. `ygoprodeck`: the `banlist_info` key. `lflist_groups`: `.lflist.conf`
    comment headers whose cards form a limit group (Speed Duel "#Limited 1" -> group
    "Limited 1" of at most 1 card); `lflist_kind_groups` the same, one group per card kind
    (Rush Duel "# Legends" -> "Legend Monster", "Legend Spell", "Legend Trap", at most 1
    each); `edopro = false`: EDOPro's lists are not imported (Master Duel: Konami's dated
    lists are complete, and EDOPro's are whitelists of a frozen card pool)."""

    names: list[str] = field(default_factory=list)
    dates: dict[str, dt.date] = field(default_factory=dict)
    konami: str | None = None
    derived_from: str | None = None
    dates_from: list[str] = field(default_factory=list)
    ygoprodeck: str | None = None
    lflist_groups: dict[str, int] = field(default_factory=dict)
    lflist_kind_groups: dict[str, int] = field(default_factory=dict)
    edopro: bool = True

    def __post_init__(self) -> None:
        self.names, self.dates_from = list(self.names), list(self.dates_from)
        self.dates = dict(self.dates)
        self.lflist_groups = dict(self.lflist_groups)
        self.lflist_kind_groups = dict(self.lflist_kind_groups)


@_value
class Format(Plain):
    """A format file: the rules of deck construction for one way of playing."""

    _nested = {"main": SizeRange, "extra": SizeRange, "side": SizeRange,
               "imports": FormatImports, "history": [Banlist]}

    id: str  # "tcg", "ocg", "traditional", "worlds", "master-duel", "genesys", "goat", …
    name: str
    main: SizeRange = field(default_factory=lambda: SizeRange(min=40, max=60))
    extra: SizeRange = field(default_factory=lambda: SizeRange(min=0, max=15))
    side: SizeRange = field(default_factory=lambda: SizeRange(min=0, max=15))
    copies: int = 3  # copies per rule name across main + extra + side
    list_mode: ListMode = "standard"
    #: Traditional: Forbidden cards count as Limited.
    forbidden_as_limited: bool = False
    points_cap: int | None = None  # Genesys default cap (overridable with --points-cap)
    #: Card frames that may not be used at all (Genesys: "link", and every "*_pendulum").
    banned_frames: list[str] = field(default_factory=list)
    skills: Skills = "forbidden"
    hand_size: int = 5  # cards in the opening hand (Speed Duel: 4)
    region: Region = "tcg"
    #: Cards marked with these scopes are not legal here (TCG: "ocg_only", "anime", "rush"…).
    excluded_scopes: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: How lists from EDOPro, Konami ids and YGOPRODeck map to this format (importers only).
    imports: FormatImports = field(default_factory=FormatImports)
    #: Lists given in code. Formats read from files (`load_format`) leave it empty and keep
    #: a catalog instead: each list is parsed only when asked for (`banlist_at`, `lists`).
    history: list[Banlist] = field(default_factory=list)
    #: Usual days between two lists; a date further past the newest list than this gets a
    #: notice that the list may be out of date (`deckcheck.formats.stale_notice`).
    cycle_days: int | None = None

    _catalog: list[tuple[dt.date, Callable[[], Banlist]]] | None = _private()

    def __post_init__(self) -> None:
        for name in ("banned_frames", "excluded_scopes", "sources", "notes", "history"):
            setattr(self, name, list(getattr(self, name)))  # a copy of any iterable given

    def set_catalog(self, catalog: Iterable[tuple[dt.date, Callable[[], Banlist]]]) -> None:
        """Lists by effective day, each parsed by its callable on first use (the loader)."""
        self._catalog = sorted(catalog, key=lambda t: t[0])

    def list_dates(self) -> list[dt.date]:
        """The effective day of every list, oldest first (no list is parsed)."""
        if self._catalog is not None:
            return [day for day, _ in self._catalog]
        return sorted(b.effective for b in self.history)

    def lists(self) -> list[Banlist]:
        """Every list, oldest first (parses them all: for tools, not for checking a deck)."""
        if self._catalog is not None:
            return [load() for _, load in self._catalog]
        return sorted(self.history, key=lambda b: b.effective)

    def _nth(self, index: int) -> Banlist:
        if self._catalog is not None:
            return self._catalog[index][1]()
        return sorted(self.history, key=lambda b: b.effective)[index]

    def first_list(self) -> Banlist | None:
        """The oldest list, or None when the format has none."""
        return self._nth(0) if self.list_dates() else None

    def newest_list(self) -> Banlist | None:
        """The most recent list, or None when the format has none."""
        return self._nth(-1) if self.list_dates() else None

    def banlist_at(self, date: dt.date | None = None) -> Banlist | None:
        """The list in force on `date` (today when None): the latest effective on or before
        it. Only that list is parsed."""
        day = date or clock.today()
        index = bisect.bisect_right(self.list_dates(), day) - 1
        return self._nth(index) if index >= 0 else None

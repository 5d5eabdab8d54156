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
from typing import Literal

from deckcheck import clock
from deckcheck.plain import Plain

ListMode = Literal["standard", "traditional", "whitelist", "points", "speed"]
Skills = Literal["forbidden", "optional", "required-one"]
Region = Literal["tcg", "ocg", "md"]


class SizeRange(Plain):
    __slots__ = ("min", "max")

    min: int
    max: int

    def __init__(self, *, min: int = 0, max: int) -> None:  # noqa: A002
        self.min = min
        self.max = max

    def __hash__(self) -> int:
        return hash((self.min, self.max))


class LimitGroup(Plain):
    """Speed Duel "Limited 1/2/3" or Rush "Legend" style group: at most `max` cards in total
    (counting copies) from `passcodes` in one deck."""

    __slots__ = ("name", "max", "passcodes")

    name: str
    max: int
    passcodes: frozenset[int]

    def __init__(self, *, name: str, max: int,  # noqa: A002
                 passcodes: Iterable[int] = frozenset()) -> None:
        self.name = name
        self.max = max
        self.passcodes = frozenset(passcodes)

    def __hash__(self) -> int:
        return hash((self.name, self.max, self.passcodes))


class BanlistEntry(Plain):
    """One line of a list: a card (by passcode, with its name for people) and its status."""

    __slots__ = ("passcode", "name", "limit", "points")

    passcode: int
    name: str | None
    limit: int | None  # 0 forbidden, 1 limited, 2 semi-limited, 3 unlimited (whitelist)
    points: int | None  # Genesys points

    def __init__(self, *, passcode: int, name: str | None = None, limit: int | None = None,
                 points: int | None = None) -> None:
        self.passcode = passcode
        self.name = name
        self.limit = limit
        self.points = points

    def __hash__(self) -> int:
        return hash((self.passcode, self.name, self.limit, self.points))


class Banlist(Plain):
    """One list, in force from `effective` until the format's next list."""

    __slots__ = ("name", "format", "effective", "source", "whitelist", "entries", "groups",
                 "_limits_cache", "_points_cache")
    _nested = {"entries": [BanlistEntry], "groups": [LimitGroup]}

    name: str  # e.g. "2026.05 TCG"
    format: str  # format id, e.g. "tcg"
    effective: dt.date
    source: str | None  # where the facts come from (URL or publication)
    whitelist: bool  # unlisted cards are forbidden
    entries: list[BanlistEntry]
    groups: list[LimitGroup]

    _limits_cache: dict[int, int] | None
    _points_cache: dict[int, int] | None

    def __init__(self, *, name: str, format: str, effective: dt.date,  # noqa: A002
                 source: str | None = None, whitelist: bool = False,
                 entries: list[BanlistEntry] | None = None,
                 groups: list[LimitGroup] | None = None) -> None:
        self.name = name
        self.format = format
        self.effective = effective
        self.source = source
        self.whitelist = whitelist
        self.entries = [] if entries is None else list(entries)
        self.groups = [] if groups is None else list(groups)
        self._limits_cache = None
        self._points_cache = None

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

    __slots__ = ("names", "dates", "konami", "derived_from", "dates_from", "ygoprodeck",
                 "lflist_groups", "lflist_kind_groups", "edopro")

    names: list[str]
    dates: dict[str, dt.date]
    konami: str | None
    derived_from: str | None
    dates_from: list[str]
    ygoprodeck: str | None
    lflist_groups: dict[str, int]
    lflist_kind_groups: dict[str, int]
    edopro: bool

    def __init__(self, *, names: list[str] | None = None,
                 dates: dict[str, dt.date] | None = None, konami: str | None = None,
                 derived_from: str | None = None, dates_from: list[str] | None = None,
                 ygoprodeck: str | None = None, lflist_groups: dict[str, int] | None = None,
                 lflist_kind_groups: dict[str, int] | None = None,
                 edopro: bool = True) -> None:
        self.names = [] if names is None else list(names)
        self.dates = {} if dates is None else dict(dates)
        self.konami = konami
        self.derived_from = derived_from
        self.dates_from = [] if dates_from is None else list(dates_from)
        self.ygoprodeck = ygoprodeck
        self.lflist_groups = {} if lflist_groups is None else dict(lflist_groups)
        self.lflist_kind_groups = {} if lflist_kind_groups is None else dict(lflist_kind_groups)
        self.edopro = edopro


class Format(Plain):
    """A format file: the rules of deck construction for one way of playing."""

    __slots__ = ("id", "name", "main", "extra", "side", "copies", "list_mode",
                 "forbidden_as_limited", "points_cap", "banned_frames", "skills", "hand_size",
                 "region", "excluded_scopes", "sources", "notes", "imports", "history",
                 "cycle_days", "_catalog")
    _nested = {"main": SizeRange, "extra": SizeRange, "side": SizeRange,
               "imports": FormatImports, "history": [Banlist]}

    id: str  # "tcg", "ocg", "traditional", "worlds", "master-duel", "genesys", "goat", …
    name: str
    main: SizeRange
    extra: SizeRange
    side: SizeRange
    copies: int  # copies per rule name across main + extra + side
    list_mode: ListMode
    #: Traditional: Forbidden cards count as Limited.
    forbidden_as_limited: bool
    points_cap: int | None  # Genesys default cap (overridable with --points-cap)
    #: Card frames that may not be used at all (Genesys: "link", and every "*_pendulum").
    banned_frames: list[str]
    skills: Skills
    hand_size: int  # cards in the opening hand (Speed Duel: 4)
    region: Region
    #: Cards marked with these scopes are not legal here (TCG: "ocg_only", "anime", "rush"…).
    excluded_scopes: list[str]
    sources: list[str]
    notes: list[str]
    #: How lists from EDOPro, Konami ids and YGOPRODeck map to this format (importers only).
    imports: FormatImports
    #: Lists given in code. Formats read from files (`load_format`) leave it empty and keep
    #: a catalog instead: each list is parsed only when asked for (`banlist_at`, `lists`).
    history: list[Banlist]
    #: Usual days between two lists; a date further past the newest list than this gets a
    #: notice that the list may be out of date (`deckcheck.formats.stale_notice`).
    cycle_days: int | None

    _catalog: list[tuple[dt.date, Callable[[], Banlist]]] | None

    def __init__(self, *, id: str, name: str,  # noqa: A002
                 main: SizeRange | None = None, extra: SizeRange | None = None,
                 side: SizeRange | None = None, copies: int = 3,
                 list_mode: ListMode = "standard", forbidden_as_limited: bool = False,
                 points_cap: int | None = None, banned_frames: list[str] | None = None,
                 skills: Skills = "forbidden", hand_size: int = 5, region: Region = "tcg",
                 excluded_scopes: list[str] | None = None, sources: list[str] | None = None,
                 notes: list[str] | None = None, imports: FormatImports | None = None,
                 history: list[Banlist] | None = None, cycle_days: int | None = None) -> None:
        self.id = id
        self.name = name
        self.main = SizeRange(min=40, max=60) if main is None else main
        self.extra = SizeRange(min=0, max=15) if extra is None else extra
        self.side = SizeRange(min=0, max=15) if side is None else side
        self.copies = copies
        self.list_mode = list_mode
        self.forbidden_as_limited = forbidden_as_limited
        self.points_cap = points_cap
        self.banned_frames = [] if banned_frames is None else list(banned_frames)
        self.skills = skills
        self.hand_size = hand_size
        self.region = region
        self.excluded_scopes = [] if excluded_scopes is None else list(excluded_scopes)
        self.sources = [] if sources is None else list(sources)
        self.notes = [] if notes is None else list(notes)
        self.imports = FormatImports() if imports is None else imports
        self.history = [] if history is None else list(history)
        self.cycle_days = cycle_days
        self._catalog = None

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

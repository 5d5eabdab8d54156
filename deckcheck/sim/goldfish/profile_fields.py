"""The fields of a goldfishing profile, declared once: the plain classes `profile` reads a
profile into, with each field's type, default and bounds. The plain check of a well-formed
profile (`plain_rules`) and the pydantic models that coerce odd input and word its errors
(`_profile_schema`) both follow from these classes; a new field is one line here."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, Literal, TypeVar, dataclass_transform

_T = TypeVar("_T")


class FieldInfo:
    """One declared field of a profile class: its name, its type as written, its default (or
    the factory making it), its bounds (a count: (lo, hi)), and whether it is internal (not a
    key of the file, left out of equality and repr)."""

    __slots__ = ("name", "type", "default", "factory", "range", "internal")

    def __init__(self, default: Any = None, factory: Callable[[], Any] | None = None,
                 range: tuple[int, int] | None = None,  # noqa: A002
                 internal: bool = False) -> None:
        self.name = ""
        self.type = ""
        self.default = default
        self.factory = factory
        self.range = range
        self.internal = internal


def declare(*, default: Any = None, default_factory: Callable[[], Any] | None = None,
            range: tuple[int, int] | None = None,  # noqa: A002
            internal: bool = False) -> Any:
    """A field's default with more said about it (its factory, bounds, internal)."""
    return FieldInfo(default, default_factory, range, internal)


def declared_fields(cls: type) -> tuple[FieldInfo, ...]:
    """The fields of a `declared` class, in order."""
    out: tuple[FieldInfo, ...] = cls.__dict__["_declared"]
    return out


@dataclass_transform(field_specifiers=(declare,))
def declared(*, frozen: bool = False) -> Callable[[type[_T]], type[_T]]:
    """A class of annotated fields with defaults, as a dataclass makes it (a constructor
    taking them positionally or by name, equality and repr over them; `frozen`: fields
    cannot be set again, and it hashes by them), built with one `exec` where `dataclass`
    makes several: less start-up for `odds`."""

    def make(cls: type[_T]) -> type[_T]:
        infos: list[FieldInfo] = []
        for name, tp in cls.__dict__.get("__annotations__", {}).items():
            if name not in cls.__dict__:
                raise TypeError(f"{cls.__name__}.{name}: every profile field has a default")
            value = cls.__dict__[name]
            info = value if isinstance(value, FieldInfo) else FieldInfo(default=value)
            info.name, info.type = name, tp
            infos.append(info)
            if isinstance(value, FieldInfo):
                delattr(cls, name)
        env: dict[str, Any] = {"_set": object.__setattr__, "_none": _NOTHING}
        params, body = [], []
        for i, f in enumerate(infos):
            if f.factory is not None:
                env[f"_f{i}"] = f.factory
                params.append(f"{f.name}=_none")
                body.append(f"    _set(self, {f.name!r}, _f{i}() if {f.name} is _none else "
                            f"{f.name})")
            else:
                env[f"_d{i}"] = f.default
                params.append(f"{f.name}=_d{i}")
                body.append(f"    _set(self, {f.name!r}, {f.name})")
        src = (f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"])
               + "\n")
        exec(src, env)  # noqa: S102 - our own field names, as dataclasses does
        init = env["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        compared = tuple(f.name for f in infos if not f.internal)
        c: Any = cls  # (its methods are set here)
        c.__init__ = init
        c._declared = tuple(infos)
        c._compared = compared
        c.__eq__ = _eq
        c.__repr__ = _repr
        c.__hash__ = _hash if frozen else None
        if frozen:
            c.__setattr__ = _frozen
            c.__delattr__ = _frozen
        return cls

    return make


#: The default of a field made by its factory (a fresh value per instance).
_NOTHING = object()


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, n) for n in self._compared)


def _eq(self: Any, other: object) -> Any:  # (bool, or NotImplemented)
    if type(other) is not type(self):
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._compared)
    return f"{type(self).__qualname__}({args})"


def _frozen(self: Any, name: str, *args: Any) -> None:
    raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is frozen")


def _at_most(n: int) -> Any:
    """A count field of a card entry: None (not given) or 0..`n`."""
    return declare(default=None, range=(0, n))


@declared()
class Options:
    """The profile's [options] table."""

    overlap: bool = False


@declared()
class RoleSpec:
    """A role as written: its cards and archetypes."""

    cards: list[str] = declare(default_factory=list)
    archetypes: list[str] = declare(default_factory=list)


@declared()
class CardEntry:
    """What one draw or search card does, as written: every field optional, so an entry can
    override only part of the built-in table (`cardrules`). Checked whole by `behaviour`."""

    #: False: the card is never played (its roles still count).
    play: bool | None = None
    search: str | None = None
    draw: int | None = _at_most(10)
    banish_top: int | None = _at_most(60)
    excavate: int | None = _at_most(20)
    excavate_rest: Literal["bottom", "shuffle"] | None = None
    then_banish: str | None = None
    discard_cost: str | None = None
    spent: bool | None = None
    once_per_turn: bool | None = None
    #: Cost: banish 3 or 6 random face-down cards from the Extra Deck (6 when it holds 6);
    #: with 3 the card draws / excavates half its number.
    extra_deck_cost: bool | None = None
    #: Cannot be activated in a turn a card effect has drawn a card.
    no_draw_before: bool | None = None
    #: After it resolves, no card effect draws for the rest of the turn.
    no_draw_after: bool | None = None
    #: Only at the start of Main Phase 1 (before anything else is played that turn).
    start_of_main1: bool | None = None
    #: Card Destruction: discard the rest of the hand, then draw that many cards.
    redraw_hand: bool | None = None
    #: Small World: reveal a monster in hand, banish a Deck monster sharing exactly one of
    #: Type, Attribute, Level, ATK, DEF with it, add a Deck monster sharing exactly one with
    #: that one; the revealed card is banished.
    small_world: bool | None = None
    #: The fields the entry sets (only those override the built-in table); not a key of the
    #: file.
    given: dict[str, Any] = declare(default_factory=dict, internal=True)

    @classmethod
    def of(cls, given: dict[str, Any]) -> CardEntry:
        return cls(**given, given=dict(given))


@declared(frozen=True)
class Behaviour:
    """What one draw or search card does (built-in table and profile entry merged)."""

    search: str | None = None
    draw: int = 0
    banish_top: int = 0
    excavate: int = 0
    excavate_rest: Literal["bottom", "shuffle"] = "bottom"
    then_banish: str | None = None
    discard_cost: str | None = None
    spent: bool | None = None
    once_per_turn: bool = True
    extra_deck_cost: bool = False
    no_draw_before: bool = False
    no_draw_after: bool = False
    start_of_main1: bool = False
    redraw_hand: bool = False
    small_world: bool = False

    @property
    def kind(self) -> str:
        return ("search" if self.search else "draw" if self.draw else
                "excavate" if self.excavate else "small world" if self.small_world else
                "redraw")

    @property
    def searches(self) -> bool:
        """A search (of a role, or Small World's bridge): tried, never played blindly."""
        return self.kind in ("search", "small world")

    @property
    def draws(self) -> bool:
        """Whether playing it draws cards by a card effect."""
        return bool(self.draw or self.redraw_hand)

    @property
    def is_spent(self) -> bool:
        return self.spent if self.spent is not None else not self.search


#: The fields that say what kind of card a behaviour is (exactly one is set).
BEHAVIOUR_KINDS = ("search", "draw", "excavate", "redraw_hand", "small_world")


def kind_problem(b: Any) -> str | None:
    """What is wrong with the combination of a behaviour's fields (None: nothing)."""
    kinds = [k for k in BEHAVIOUR_KINDS if getattr(b, k)]
    if len(kinds) != 1:
        return ("a card needs exactly one of search, draw, excavate, redraw_hand or "
                "small_world" + (f", not {' and '.join(kinds)}" if kinds else ""))
    if (b.banish_top or b.then_banish) and not b.draw:
        return "banish_top and then_banish only go with draw"
    if b.discard_cost and b.search:
        return "discard_cost only goes with draw or excavate"
    if b.extra_deck_cost and not (b.draw or b.excavate):
        return "extra_deck_cost only goes with draw or excavate"
    return None


@declared()
class ProfileFile:
    """A profile as written (conditions are parsed separately, with their key paths)."""

    success: Any = None
    #: The goal going first / second, when it differs from `success`.
    success_first: Any = None
    success_second: Any = None
    options: Options = declare(default_factory=Options)
    roles: dict[str, list[str] | RoleSpec] = declare(default_factory=dict)
    conditions: dict[str, Any] = declare(default_factory=dict)
    cards: dict[str, CardEntry] = declare(default_factory=dict)
    #: Derived rows: name -> {row = COND, given = COND} (a conditional probability) or
    #: {count = NAME} (the expected number of cards of NAME in the hand).
    rows: dict[str, dict[str, Any]] = declare(default_factory=dict)
    #: Side plan: seat ("first" / "second") -> {in = [cards], out = [cards]} (`side`).
    side: dict[str, Any] = declare(default_factory=dict)


def keys(cls: type) -> tuple[str, ...]:
    """The keys a profile may write for `cls` (its fields, less internal ones)."""
    return tuple(f.name for f in declared_fields(cls) if not f.internal)


@functools.cache
def plain_rules(cls: type) -> dict[str, tuple[tuple[Any, ...], bool]]:
    """For each key of a flat class (`CardEntry`, `Behaviour`, `Options`): what a plainly
    well-formed value is (`(bool,)`, `(str,)`, `(int,)`, `(int, lo, hi)` or the allowed
    strings) and whether None is allowed; pydantic would take such a value unchanged."""
    out: dict[str, tuple[tuple[Any, ...], bool]] = {}
    for f in declared_fields(cls):  # read as written (no evaluation of annotations)
        if f.internal:
            continue
        written = _written_rule(f.type)
        if written is None:
            raise TypeError(f"{cls.__name__}.{f.name}: write its annotation as bool, int, str "
                            "or Literal[...], with or without | None (the plain reader's "
                            "types).")
        kind, nullable = written
        out[f.name] = ((*kind, *(f.range or ())) if kind[0] is int else kind, nullable)
    return out


#: The plain types a flat field's annotation names, as written.
_WRITTEN = {"bool": bool, "int": int, "str": str}
#: One string of a `Literal[...]` as written: quoted, no quote, backslash or comma inside.
_LITERAL_ITEM = re.compile(r"""^(['"])([^'"\\,]*)\1$""")


def _written_rule(written: str) -> tuple[tuple[Any, ...], bool] | None:
    """`plain_rules`' rule of a field whose annotation is written `bool`, `int`, `str` or
    `Literal["a", "b"]`, with or without `| None`: (the rule, whether None is allowed); None
    for any other annotation."""
    parts = [p.strip() for p in written.split("|")]
    rest = [p for p in parts if p != "None"]
    if len(rest) != 1:
        return None
    nullable = len(parts) > 1
    if rest[0] in _WRITTEN:
        return (_WRITTEN[rest[0]],), nullable
    if rest[0].startswith("Literal[") and rest[0].endswith("]"):
        items = [_LITERAL_ITEM.match(x.strip()) for x in rest[0][8:-1].split(",")]
        if all(items):
            return tuple(m.group(2) for m in items if m), nullable
    return None


def plain_value(value: object, rule: tuple[Any, ...]) -> bool:
    """Whether `value` is plainly what `rule` (of `plain_rules`) asks for."""
    if rule[0] is bool or rule[0] is str:
        return type(value) is rule[0]
    if rule[0] is int:
        return type(value) is int and (len(rule) == 1 or rule[1] <= value <= rule[2])
    return type(value) is str and value in rule

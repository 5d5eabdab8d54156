"""Goldfishing profiles as written: the TOML file format, read and validated.

A profile tags cards with **roles**, states **conditions** on the hand, and may say what
**draw and search cards** do (a built-in table, `cardrules`, already knows the common draw
cards; a profile entry overrides it field by field). The format, with examples, is described
in the README ("Goldfishing profiles"); each example there is run by a test.

deckcheck finds a profile next to the deck (``deck.ydk`` -> ``deck.profile.toml`` or
``deck.toml``), or takes it from ``--profile``, or builds it from ``--role``/``--need``.

Modules: this one (the file), `conditions` (the condition tree and its normal form),
`compiled` (names resolved against one deck: classes of cards, terms to evaluate).
Validation: unknown keys and wrong types are errors, reported in one sentence with the TOML
key path (``cards."Pot of Desires".draw: …``). A plainly well-formed profile is checked here
(plain data, no pydantic on the `odds` path); anything else goes to the pydantic models of
`_profile_schema`, which coerce what they coerce and word the error.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from deckcheck.errors import ProfileError


# --------------------------------------------------------------------------------------
# The file format: plain data, checked here; pydantic (`_profile_schema`) only for a profile
# that is not plainly well-formed, to coerce what it coerces and to word the error
# --------------------------------------------------------------------------------------
@dataclass
class Options:
    overlap: bool = False


@dataclass
class RoleSpec:
    cards: list[str] = field(default_factory=list)
    archetypes: list[str] = field(default_factory=list)


@dataclass
class CardEntry:
    """What one draw or search card does, as written: every field optional, so an entry can
    override only part of the built-in table (`cardrules`). Checked whole by `behaviour`."""

    #: False: the card is never played (its roles still count).
    play: bool | None = None
    search: str | None = None
    draw: int | None = None
    banish_top: int | None = None
    excavate: int | None = None
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
    #: The fields the entry sets (only those override the built-in table).
    given: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, given: dict[str, Any]) -> CardEntry:
        return cls(**given, given=dict(given))


@dataclass(frozen=True)
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


def kind_problem(b: Any) -> str | None:
    """What is wrong with the combination of a behaviour's fields (None: nothing)."""
    kinds = [k for k, v in (("search", b.search), ("draw", b.draw),
                            ("excavate", b.excavate), ("redraw_hand", b.redraw_hand),
                            ("small_world", b.small_world)) if v]
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


@dataclass
class ProfileFile:
    """A profile as written (conditions are parsed separately, with their key paths)."""

    success: Any = None
    #: The goal going first / second, when it differs from `success`.
    success_first: Any = None
    success_second: Any = None
    options: Options = field(default_factory=Options)
    roles: dict[str, list[str] | RoleSpec] = field(default_factory=dict)
    conditions: dict[str, Any] = field(default_factory=dict)
    cards: dict[str, CardEntry] = field(default_factory=dict)
    #: Derived rows: name -> {row = COND, given = COND} (a conditional probability) or
    #: {count = NAME} (the expected number of cards of NAME in the hand).
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Side plan: seat ("first" / "second") -> {in = [cards], out = [cards]} (`side`).
    side: dict[str, Any] = field(default_factory=dict)


# What a plainly well-formed value of each field is: pydantic takes it as it is.
_BOOL, _STR = (bool,), (str,)
_ENTRY: dict[str, tuple[Any, ...]] = {
    "play": _BOOL, "search": _STR, "draw": (int, 0, 10), "banish_top": (int, 0, 60),
    "excavate": (int, 0, 20), "excavate_rest": ("bottom", "shuffle"), "then_banish": _STR,
    "discard_cost": _STR, "spent": _BOOL, "once_per_turn": _BOOL, "extra_deck_cost": _BOOL,
    "no_draw_before": _BOOL, "no_draw_after": _BOOL, "start_of_main1": _BOOL,
    "redraw_hand": _BOOL, "small_world": _BOOL,
}
_BEHAVIOUR: dict[str, tuple[Any, ...]] = {
    **{k: v[:1] for k, v in _ENTRY.items() if k != "play"},
    "excavate_rest": ("bottom", "shuffle"),
}
_NONE_OK = {"search", "then_banish", "discard_cost", "spent"}


def _plain(value: object, rule: tuple[Any, ...]) -> bool:
    if rule[0] is bool or rule[0] is str:
        return type(value) is rule[0]
    if rule[0] is int:
        return type(value) is int and (len(rule) == 1 or rule[1] <= value <= rule[2])
    return type(value) is str and value in rule


def _str_list(value: object) -> bool:
    return type(value) is list and all(type(x) is str for x in value)


def _str_dict(value: object) -> bool:
    return type(value) is dict and all(type(k) is str for k in value)


def _plain_profile(data: object) -> ProfileFile | None:
    """`data` as a ProfileFile when every part of it is what pydantic would take unchanged
    (None: let pydantic coerce or word the problem)."""
    if not _str_dict(data):
        return None
    assert isinstance(data, dict)
    if not set(data) <= {"success", "success_first", "success_second", "options", "roles",
                         "conditions", "cards", "rows", "side"}:
        return None
    options = Options()
    if "options" in data:
        o = data["options"]
        if not _str_dict(o) or not set(o) <= {"overlap"} or not all(
                type(v) is bool for v in o.values()):
            return None
        options = Options(**o)
    if "roles" in data and not _str_dict(data["roles"]):
        return None
    roles: dict[str, list[str] | RoleSpec] = {}
    for name, spec in data.get("roles", {}).items():
        if _str_list(spec):
            roles[name] = list(spec)
        elif _str_dict(spec) and set(spec) <= {"cards", "archetypes"} and all(
                _str_list(v) for v in spec.values()):
            roles[name] = RoleSpec(**{k: list(v) for k, v in spec.items()})
        else:
            return None
    if "conditions" in data and not _str_dict(data["conditions"]):
        return None
    cards: dict[str, CardEntry] = {}
    if "cards" in data:
        if not _str_dict(data["cards"]):
            return None
        for name, entry in data["cards"].items():
            if not _str_dict(entry) or not all(k in _ENTRY and _plain(v, _ENTRY[k])
                                               for k, v in entry.items()):
                return None
            cards[name] = CardEntry.of(entry)
    rows = data.get("rows", {})
    if not _str_dict(rows) or not all(_str_dict(v) for v in rows.values()):
        return None
    side = data.get("side", {})
    if not _str_dict(side):
        return None
    return ProfileFile(success=data.get("success"), success_first=data.get("success_first"),
                       success_second=data.get("success_second"), options=options,
                       roles=roles, conditions=dict(data.get("conditions", {})), cards=cards,
                       rows={k: dict(v) for k, v in rows.items()}, side=dict(side))


def _from_model(m: Any) -> ProfileFile:
    """A ProfileFile from the pydantic model of one (`_profile_schema`)."""
    return ProfileFile(
        success=m.success, success_first=m.success_first, success_second=m.success_second,
        options=Options(overlap=m.options.overlap),
        roles={k: list(v) if isinstance(v, list) else
               RoleSpec(cards=list(v.cards), archetypes=list(v.archetypes))
               for k, v in m.roles.items()},
        conditions=dict(m.conditions),
        cards={k: CardEntry.of(e.model_dump(exclude_unset=True)) for k, e in m.cards.items()},
        rows={k: dict(v) for k, v in m.rows.items()}, side=dict(m.side))


def behaviour(base: dict[str, Any] | None, entry: CardEntry | None,
              path: str, source: str) -> Behaviour | None:
    """The built-in behaviour `base` with the fields `entry` sets laid over it; None when the
    card is not played."""
    fields = dict(base or {})
    if entry is not None:
        given = dict(entry.given)
        if given.get("play") is False:
            return None
        given.pop("play", None)
        kinds = {"search", "draw", "excavate", "redraw_hand", "small_world"}
        if kinds & set(given):  # a new kind replaces the built-in one
            for k in kinds:
                fields.pop(k, None)
        fields.update(given)
    if all(k in _BEHAVIOUR and (_plain(v, _BEHAVIOUR[k]) or v is None and k in _NONE_OK)
           for k, v in fields.items()):
        b = Behaviour(**fields)
        if kind_problem(b) is None:
            return b
    from deckcheck.sim.goldfish._profile_schema import validate_behaviour

    return Behaviour(**validate_behaviour(fields, source, path).model_dump())


def load_profile_file(path: str | Path) -> ProfileFile:
    """Read and validate a profile TOML file."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProfileError(f"No profile file {p}; check the path.") from None
    except IsADirectoryError:
        raise ProfileError(f"{p} is a folder, not a profile file; give a .profile.toml file."
                           ) from None
    except UnicodeDecodeError:
        raise ProfileError(f"{p} is not a text file; give a profile TOML file saved as UTF-8."
                           ) from None
    except OSError as exc:
        raise ProfileError(f"{p}: cannot be read ({exc.strerror}); check the file.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{p}: not valid TOML ({exc}); fix the syntax.") from None
    return parse_profile(data, str(p))


def parse_profile(data: dict[str, Any], source: str = "profile") -> ProfileFile:
    """A profile's data (as TOML reads it) checked: unknown keys and wrong types are a
    ProfileError naming the key path."""
    plain = _plain_profile(data)
    if plain is not None:
        return plain
    from deckcheck.sim.goldfish._profile_schema import validate_profile

    return _from_model(validate_profile(data, source))


def find_profile(deck_path: str | Path) -> Path | None:
    """The profile next to a deck file: deck.profile.toml, then deck.toml."""
    p = Path(deck_path)
    try:
        candidates = (p.with_suffix(".profile.toml"), p.with_suffix(".toml"))
    except ValueError:  # "/", ".": no file name to put a suffix on
        return None
    for cand in candidates:
        if cand.is_file() and cand != p:
            return cand
    return None


def inline_roles(roles: list[str]) -> dict[str, list[str] | RoleSpec]:
    """Roles from `--role NAME="Card A,Card B"` options. A card name with a comma in it is
    written in double quotes inside the list (`--role 'x="Name, with comma",Other'`) or the
    list is separated by semicolons (`--role "x=Name, with comma;Other"`)."""
    role_map: dict[str, list[str] | RoleSpec] = {}
    for r in roles:
        name, sep, cards = r.partition("=")
        if not sep or not name.strip():
            raise ProfileError(f"--role {r!r} is not NAME=\"Card A,Card B\"; write it that way.")
        role_map[name.strip()] = split_cards(cards)
    return role_map


def split_cards(text: str) -> list[str]:
    """'A,B' / '"A, with comma",B' / 'A, with comma;B' -> card names."""
    text = text.strip()
    if ";" in text:
        parts = text.split(";")
    elif text.startswith('"') and text.endswith('"') and text.count('"') == 2:
        parts = text[1:-1].split(",")  # the whole list quoted: NAME="A,B"
    else:
        import csv  # (only for a quoted list: off the start-up path)

        parts = next(csv.reader([text], skipinitialspace=True), [])
    return [p.strip().strip('"').strip() for p in parts if p.strip().strip('"').strip()]


def inline_profile(roles: list[str], needs: list[str]) -> ProfileFile:
    """A profile from `--role NAME="Card A,Card B"` and `--need "NAME>=1"` options."""
    if not needs:
        raise ProfileError("No condition given: add --need \"ROLE>=1\" (or a --profile file).")
    return ProfileFile(roles=inline_roles(roles), conditions={n: n for n in needs})



"""Goldfishing profiles as written: the TOML file format, read and validated (pydantic).

A profile tags cards with **roles**, states **conditions** on the hand, and may say what
**draw and search cards** do (a built-in table, `cardrules`, already knows the common draw
cards; a profile entry overrides it field by field). The format, with examples, is described
in the README ("Goldfishing profiles"); each example there is run by a test.

deckcheck finds a profile next to the deck (``deck.ydk`` -> ``deck.profile.toml`` or
``deck.toml``), or takes it from ``--profile``, or builds it from ``--role``/``--need``.

Modules: this one (the file), `conditions` (the condition tree and its normal form),
`compiled` (names resolved against one deck: classes of cards, terms to evaluate).
Validation: unknown keys and wrong types are errors, reported in one sentence with the TOML
key path (``cards."Pot of Desires".draw: …``).
"""

from __future__ import annotations

import csv
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deckcheck.errors import ProfileError


# --------------------------------------------------------------------------------------
# The file format (pydantic, extra="forbid")
# --------------------------------------------------------------------------------------
class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    overlap: bool = False


class RoleSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: list[str] = Field(default_factory=list)
    archetypes: list[str] = Field(default_factory=list)


class CardEntry(BaseModel):
    """What one draw or search card does, as written: every field optional, so an entry can
    override only part of the built-in table (`cardrules`). Checked whole by `behaviour`."""

    model_config = ConfigDict(extra="forbid")

    #: False: the card is never played (its roles still count).
    play: bool | None = None
    search: str | None = None
    draw: int | None = Field(default=None, ge=0, le=10)
    banish_top: int | None = Field(default=None, ge=0, le=60)
    excavate: int | None = Field(default=None, ge=0, le=20)
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


class Behaviour(BaseModel):
    """What one draw or search card does (built-in table and profile entry merged)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

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

    @model_validator(mode="after")
    def _one_kind(self) -> Behaviour:
        kinds = [k for k, v in (("search", self.search), ("draw", self.draw),
                                ("excavate", self.excavate), ("redraw_hand", self.redraw_hand),
                                ("small_world", self.small_world)) if v]
        if len(kinds) != 1:
            raise ValueError("a card needs exactly one of search, draw, excavate, redraw_hand "
                             "or small_world" + (f", not {' and '.join(kinds)}" if kinds else
                                                 ""))
        if (self.banish_top or self.then_banish) and not self.draw:
            raise ValueError("banish_top and then_banish only go with draw")
        if self.discard_cost and self.search:
            raise ValueError("discard_cost only goes with draw or excavate")
        if self.extra_deck_cost and not (self.draw or self.excavate):
            raise ValueError("extra_deck_cost only goes with draw or excavate")
        return self

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


def behaviour(base: dict[str, Any] | None, entry: CardEntry | None,
              path: str, source: str) -> Behaviour | None:
    """The built-in behaviour `base` with the fields `entry` sets laid over it; None when the
    card is not played."""
    fields = dict(base or {})
    if entry is not None:
        given = entry.model_dump(exclude_unset=True)
        if given.get("play") is False:
            return None
        given.pop("play", None)
        kinds = {"search", "draw", "excavate", "redraw_hand", "small_world"}
        if kinds & set(given):  # a new kind replaces the built-in one
            for k in kinds:
                fields.pop(k, None)
        fields.update(given)
    try:
        return Behaviour.model_validate(fields)
    except ValidationError as exc:
        raise _pydantic_error(exc, source, prefix=path) from None


class ProfileFile(BaseModel):
    """A profile as written (conditions are parsed separately, with their key paths)."""

    model_config = ConfigDict(extra="forbid")

    success: Any = None
    #: The goal going first / second, when it differs from `success`.
    success_first: Any = None
    success_second: Any = None
    options: Options = Field(default_factory=Options)
    roles: dict[str, list[str] | RoleSpec] = Field(default_factory=dict)
    conditions: dict[str, Any] = Field(default_factory=dict)
    cards: dict[str, CardEntry] = Field(default_factory=dict)


def _key(part: object) -> str:
    if isinstance(part, int):
        return f"[{part}]"
    s = str(part)
    return s if re.fullmatch(r"[A-Za-z0-9_-]+", s) else f'"{s}"'


def key_path(loc: tuple[object, ...]) -> str:
    """A TOML key path: ("cards", "Pot of Desires", "draw") -> cards."Pot of Desires".draw."""
    out = ""
    for part in loc:
        k = _key(part)
        out += k if k.startswith("[") or not out else "." + k
    return out or "(top level)"


def _pydantic_error(exc: ValidationError, source: str, prefix: str = "") -> ProfileError:
    err = exc.errors()[0]
    loc = tuple(p for p in err["loc"] if p not in ("list[str]", "RoleSpec"))
    if prefix:
        where = prefix + ("." + key_path(loc) if loc else "")
        msg = str(err["msg"]).removeprefix("Value error, ")
        return ProfileError(f"{source}: {where}: {msg}; fix the profile (its format is "
                            f"described in the README).")
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown key"
    msg = msg.removeprefix("Value error, ")
    return ProfileError(f"{source}: {key_path(loc)}: {msg}; fix the profile (its format is "
                        f"described in the README).")


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
    try:
        return ProfileFile.model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, source) from None


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
        parts = next(csv.reader([text], skipinitialspace=True), [])
    return [p.strip().strip('"').strip() for p in parts if p.strip().strip('"').strip()]


def inline_profile(roles: list[str], needs: list[str]) -> ProfileFile:
    """A profile from `--role NAME="Card A,Card B"` and `--need "NAME>=1"` options."""
    if not needs:
        raise ProfileError("No condition given: add --need \"ROLE>=1\" (or a --profile file).")
    return ProfileFile(roles=inline_roles(roles), conditions={n: n for n in needs})



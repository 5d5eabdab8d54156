"""The goldfishing profile format as pydantic models: what `profile` falls back to when a
profile is not plainly well-formed, to coerce what pydantic coerces and to word the error
with its TOML key path. Well-formed profiles never import pydantic (`profile` checks them
itself, to the same rules). This module imports nothing of `profile`: the plain reader falls
back to it, never the other way round."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.keys import key_path


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
    rows: dict[str, dict[str, Any]] = Field(default_factory=dict)
    side: dict[str, Any] = Field(default_factory=dict)


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


def validate_profile(data: dict[str, Any], source: str) -> ProfileFile:
    """`data` as a `ProfileFile`, or the ProfileError naming the first problem."""
    try:
        return ProfileFile.model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, source) from None


def validate_behaviour(fields: dict[str, Any], source: str, path: str) -> Behaviour:
    """`fields` as a `Behaviour`, or the ProfileError naming the problem under `path`."""
    try:
        return Behaviour.model_validate(fields)
    except ValidationError as exc:
        raise _pydantic_error(exc, source, prefix=path) from None

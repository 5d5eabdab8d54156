"""The strict (pydantic) schema of a card, for the import boundary.

`deckcheck.cards.model.Card` is a plain class (no pydantic on the check path); an import
checks every merged card against `CardSchema` before it writes the store, so a card the
pools read back is always valid. `tests/cards/test_schema.py` keeps the two in step.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.cards.model import Frame, Kind

__all__ = ["CardSchema"]


class CardSchema(BaseModel):
    """The strict schema of a `Card`: what an import must produce for every card."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    passcode: int
    alt_passcodes: tuple[int, ...] = ()
    konami_id: int | None = None
    name: str
    names: dict[str, str] = Field(default_factory=dict)
    kind: Kind
    frame: Frame
    #: Monster sub-types as printed on the type line: "Tuner", "Flip", "Gemini", "Spirit"…
    monster_types: tuple[str, ...] = ()
    level: int | None = None
    rank: int | None = None
    link_rating: int | None = None
    link_arrows: tuple[str, ...] = ()
    scale: int | None = None
    attribute: str | None = None
    #: Monster Type ("Spellcaster") or Spell/Trap property ("Quick-Play", "Counter", "Field").
    race: str | None = None
    atk: int | None = None
    defense: int | None = None
    archetypes: tuple[str, ...] = ()
    #: First release by region: "tcg", "ocg" (Japan), "kr", "sc", "tc", "ae" (other OCG
    #: regions) and "md" (Master Duel), where a source dates it.
    released: dict[str, dt.date] = Field(default_factory=dict)
    #: In Master Duel's card pool: True / False when a source says so, None when none knows.
    master_duel: bool | None = None
    scopes: frozenset[str] = frozenset()
    #: The name this card counts as for the copy limit (usually its own English name).
    rule_name: str
    #: Evidence for rule_name, by source ("ygoprodeck-text", "cdb-alias", "treated_as"…):
    #: kept so `deckcheck cards show` can say when sources disagree.
    rule_name_evidence: dict[str, str] = Field(default_factory=dict)
    #: True when the card says it cannot be Normal Summoned/Set (sim core).
    cannot_normal_summon: bool = False
    text: str | None = None

"""`Violation` (one problem with a deck) and `Found` (what a rule yields before the engine
stamps it).

A rule yields `Found` values: what it found, the card, the entry's location, the numbers
involved. The engine (`deckcheck.checker`) turns each into a `Violation`, stamping the rule's
`CODE`, `NAME` and `SEVERITY` from its module, so no rule writes its own identity.

`Violation` is part of the stable JSON schema of `deckcheck check -o json` (documented in
README.md): fields are only ever added, never renamed or removed. Its `location` is
structured (file, line, sheet, cell, URL part); reporters format it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.decks.model import Location, Section

Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, slots=True)
class Found:
    """One problem as a rule sees it; the engine adds the rule's code, name and severity."""

    message: str  # one sentence
    card: str | None = None
    passcode: int | None = None
    section: Section | None = None
    location: Location | None = None
    count: int | None = None
    limit: int | None = None
    points: int | None = None
    cap: int | None = None
    suggestions: tuple[str, ...] = ()


class Violation(BaseModel):
    """One problem: which rule, what card, where it was written, and the numbers involved."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str  # stable, e.g. "DC201"
    name: str  # kebab-case, e.g. "too-many-copies"
    severity: Severity = "error"
    message: str  # one sentence
    card: str | None = None  # card name as deckcheck knows it (or as written if unknown)
    passcode: int | None = None  # as written in the deck
    section: Literal["main", "extra", "side"] | None = None
    location: Location | None = None  # where it was written: file, line, sheet, cell, part
    count: int | None = None
    limit: int | None = None
    points: int | None = None
    cap: int | None = None
    suggestions: list[str] = Field(default_factory=list)

    @property
    def place(self) -> str | None:
        """The location for people: "deck.ydk:12", "book.xlsx:Sheet1!B7"; None when unknown."""
        loc = self.location
        return str(loc) if loc is not None and loc.known else None

    def sort_key(self) -> tuple[str, str, int, int, int, int, str]:
        """Reading order within a deck (deck-wide problems first)."""
        loc = self.location
        return loc.sort_key() if loc is not None else ("", "", 0, 0, 0, 0, "")

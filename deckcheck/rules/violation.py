"""`Violation` (one problem with a deck) and `Found` (what a rule yields before the engine
stamps it).

A rule yields `Found` values: what it found, the card, the entry's location, the numbers
involved. The engine (`deckcheck.checker`) turns each into a `Violation`, stamping the rule's
`CODE`, `NAME` and `SEVERITY` from its module, so no rule writes its own identity.

`Violation` is part of the stable JSON schema of `deckcheck check --output-format json`
(documented in README.md): fields are only ever added, never renamed or removed. Its `location` is
structured (file, line, sheet, cell, URL part); reporters format it.
"""

from __future__ import annotations

from typing import Literal

from deckcheck.decks.model import Location, Section
from deckcheck.plain import Plain

Severity = Literal["error", "warning", "info"]


class Found(Plain):
    """One problem as a rule sees it; the engine adds the rule's code, name and severity."""

    __slots__ = ("message", "card", "passcode", "section", "location", "count", "limit",
                 "points", "cap", "suggestions")

    message: str  # one sentence
    card: str | None
    passcode: int | None
    section: Section | None
    location: Location | None
    count: int | None
    limit: int | None
    points: int | None
    cap: int | None
    suggestions: tuple[str, ...]

    def __init__(self, message: str, card: str | None = None, passcode: int | None = None,
                 section: Section | None = None, location: Location | None = None,
                 count: int | None = None, limit: int | None = None,
                 points: int | None = None, cap: int | None = None,
                 suggestions: tuple[str, ...] = ()) -> None:
        self.message = message
        self.card = card
        self.passcode = passcode
        self.section = section
        self.location = location
        self.count = count
        self.limit = limit
        self.points = points
        self.cap = cap
        self.suggestions = suggestions

    def __hash__(self) -> int:
        return hash(self._values())


class Violation(Plain):
    """One problem: which rule, what card, where it was written, and the numbers involved."""

    __slots__ = ("code", "name", "severity", "message", "card", "passcode", "section",
                 "location", "count", "limit", "points", "cap", "suggestions")
    _nested = {"location": Location}

    code: str  # stable, e.g. "DC201"
    name: str  # kebab-case, e.g. "too-many-copies"
    severity: Severity
    message: str  # one sentence
    card: str | None  # card name as deckcheck knows it (or as written if unknown)
    passcode: int | None  # as written in the deck
    section: Section | None
    location: Location | None  # where it was written: file, line, sheet, cell, part
    count: int | None
    limit: int | None
    points: int | None
    cap: int | None
    suggestions: list[str]

    def __init__(self, *, code: str, name: str, severity: Severity = "error", message: str,
                 card: str | None = None, passcode: int | None = None,
                 section: Section | None = None, location: Location | None = None,
                 count: int | None = None, limit: int | None = None,
                 points: int | None = None, cap: int | None = None,
                 suggestions: list[str] | None = None) -> None:
        self.code = code
        self.name = name
        self.severity = severity
        self.message = message
        self.card = card
        self.passcode = passcode
        self.section = section
        self.location = location
        self.count = count
        self.limit = limit
        self.points = points
        self.cap = cap
        self.suggestions = [] if suggestions is None else list(suggestions)

    def __hash__(self) -> int:
        return hash((self.code, self.message, self.card, self.passcode, self.section,
                     self.location))

    @property
    def place(self) -> str | None:
        """The location for people: "deck.ydk:12", "book.xlsx:Sheet1!B7"; None when unknown."""
        loc = self.location
        return str(loc) if loc is not None and loc.known else None

    def sort_key(self) -> tuple[str, str, int, int, int, int, str]:
        """Reading order within a deck (deck-wide problems first)."""
        loc = self.location
        return loc.sort_key() if loc is not None else ("", "", 0, 0, 0, 0, "")

"""`Violation` (one problem with a deck) and `Found` (what a rule yields before the engine
stamps it).

A rule yields `Found` values: what it found, the card, the entry's location, the numbers
involved. The engine (`deckcheck.checker`) turns each into a `Violation`, stamping the rule's
`CODE`, `NAME` and `SEVERITY` from its module, so no rule writes its own identity.

Both are immutable `Value`s: each field is declared once below (the constructors, storage and
`model_fields` follow from it). A `Violation`'s fields are a `Found`'s behind the three the
engine stamps (`STAMPED`); a test holds the two lists to that, so a new field is one line in
each class (and one in the JSON schema's documentation).

`Violation` is part of the stable JSON schema of `deckcheck check --output-format json`
(documented in README.md): fields are only ever added, never renamed or removed. Its `location` is
structured (file, line, sheet, cell, URL part); reporters format it.
"""

from __future__ import annotations

from typing import Any, Literal

from deckcheck.decks.model import Location, Section
from deckcheck.plain import Value, from_fields

Severity = Literal["error", "warning", "info"]


class Found(Value, kw_only=False):
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


def _names(names: Any) -> list[str]:
    return [] if names is None else list(names)


class Violation(Value):
    """One problem: which rule, what card, where it was written, and the numbers involved."""

    _nested = {"location": Location}
    # a new list per violation (None or any sequence given)
    _convert = {"suggestions": _names}

    code: str  # stable, e.g. "DC201"
    name: str  # kebab-case, e.g. "too-many-copies"
    severity: Severity = "error"
    message: str  # one sentence
    card: str | None = None  # card name as deckcheck knows it (or as written if unknown)
    passcode: int | None = None  # as written in the deck
    section: Section | None = None
    location: Location | None = None  # where it was written: file, line, sheet, cell, part
    count: int | None = None
    limit: int | None = None
    points: int | None = None
    cap: int | None = None
    suggestions: list[str] = None  # type: ignore[assignment]  # None: [] (see `_convert`)

    def __hash__(self) -> int:
        # `suggestions` is a list (the JSON schema's type): left out of the hash
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


#: The fields the engine stamps on what a rule found: a `Violation` is these, then a `Found`.
STAMPED = ("code", "name", "severity")


def stamp(found: Found, code: str, name: str, severity: Severity) -> Violation:
    """The `Violation` of what a rule found, with the rule's code, name and severity: the
    fields in order, in one C call (the engine's hot loop; a test holds `Violation`'s fields
    to `STAMPED` + `Found`'s)."""
    fields = found[:-1]  # type: ignore[index]  # a tuple at run time
    return from_fields(Violation, (code, name, severity, *fields, list(found.suggestions)))

"""What an event check produces: one `PlayerRow` per registration, one `ProblemRow` per problem.

`Registration` is a decklist as found in the sources (internal, not serialised). `PlayerRow`,
`ProblemRow` and `EventReport` are the stable schema of `deckcheck event check -o report.json`
and the columns of the xlsx/CSV reports: fields are only ever added, never renamed or removed.

They are plain slotted classes, not pydantic models: an event of 100,000 registrations makes
hundreds of thousands of rows, and the values come from the checker's validated reports.
`deckcheck.event.report_json.to_dict` turns a report into JSON data, field by field in the
order declared here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal

from deckcheck.decks.model import Deck
from deckcheck.event.spool import RowSpool

Verdict = Literal["legal", "illegal", "unchecked", "unreadable"]

#: How a verdict is written for people (report cells, the terminal summary).
VERDICT_LABELS: dict[str, str] = {
    "legal": "legal",
    "illegal": "illegal",
    "unchecked": "could not be fully checked",
    "unreadable": "could not read",
}


@dataclass
class Registration:
    """One player's decklist as found: who, where, and the deck (or why it could not be read)."""

    source: str
    """Where it was found: `decks/alice.ydk`, `reg.xlsx:Players!row 4`, `reg.csv:row 7`."""
    player: str | None = None
    player_id: str | None = None
    deck: Deck | None = None
    error: str | None = None
    """One sentence: why no deck could be read from this registration."""
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class PlayerRow:
    """One registration: the player, where their list came from, and its verdict."""

    number: int
    """1-based position in the report (sources sorted by path, then sheet order, then row)."""
    player: str | None = None
    player_id: str | None = None
    source: str
    verdict: Verdict
    main: int | None = None
    extra: int | None = None
    side: int | None = None
    problem_count: int = 0
    """Problems found by the check (errors and warnings); 0 for lists that could not be read."""
    problems: str = ""
    """The problems in one readable cell, one per line; the reason for unreadable lists."""
    duplicate: str | None = None
    """Why this registration looks like a duplicate ("same player id as #3 Alice"), if it does."""
    deck_hash: str | None = None
    """A short hash of the normalised deck (canonical passcodes and counts per section)."""
    error: str | None = None
    """The one-sentence reason when verdict == "unreadable"."""
    notes: str | None = None
    """What could not be checked in this deck, one per line: the points the card data could
    not settle on the date (with no error, the verdict is "unchecked") and the check's notes
    on this deck alone ("2 cards have no known TCG release date; not checked."). What the
    checker says of every deck (which card set, a stale list) is in the event's `notices`,
    and so is, once, a note every checked registration has."""


@dataclass(slots=True, kw_only=True)
class SkippedRow:
    """An input of the event that is not a registration (a README next to the decks, an empty
    sheet, an earlier report), with the reason in one sentence: nothing is passed over
    without a word."""

    source: str
    reason: str


@dataclass(slots=True, kw_only=True)
class ProblemRow:
    """One problem in one registered deck, with the player it belongs to."""

    number: int
    """The `PlayerRow.number` of the registration this problem belongs to."""
    player: str | None = None
    player_id: str | None = None
    code: str
    name: str
    severity: str
    card: str | None = None
    section: str | None = None
    count: int | None = None
    limit: int | None = None
    location: str | None = None
    message: str


@dataclass(kw_only=True)
class EventReport:
    """The outcome of checking a whole event under one format, list and date."""

    format: str
    event: str | None = None
    """The event's name (`--event`), when given."""
    banlist: str | None = None
    date: str | None = None
    total: int = 0
    legal: int = 0
    illegal: int = 0
    unreadable: int = 0
    duplicates: int = 0
    """How many registrations are flagged as duplicates."""
    unchecked: int = 0
    """How many lists could not be fully checked (not in the JSON report: their rows say
    it)."""
    notices: list[str] = field(default_factory=list)
    """Notes that apply to the whole check (e.g. the built-in card set was used), each note
    every checked registration has (`PlayerRow.notes`), once, and how many registrations have
    other notes."""
    players: list[PlayerRow] | RowSpool[PlayerRow] = field(default_factory=list)
    """The rows in number order: a list, or (`check_event`) a `RowSpool` kept on disk past
    a few thousand rows, read back in order."""
    problems: list[ProblemRow] | RowSpool[ProblemRow] = field(default_factory=list)
    skipped: list[SkippedRow] = field(default_factory=list)
    """Inputs looked at that are not registrations, each with the reason."""

    @property
    def exit_code(self) -> int:
        """0 all legal, 1 any illegal, 2 any list that could not be read or fully checked
        (the card data ends before the date: `deckcheck.cards.coverage`)."""
        if self.unreadable or self.unchecked:  # counted by `run.finish`
            return 2
        if self.illegal:
            return 1
        return 0


#: The JSON fields of each row, in schema order (`report_json.to_dict`).
PLAYER_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerRow))
PROBLEM_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ProblemRow))
SKIPPED_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(SkippedRow))

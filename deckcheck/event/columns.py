"""The columns of the event report's tables, shared by the xlsx and CSV reporters.

Every field of `PlayerRow` and `ProblemRow` is a column, so the tables carry the same data as
the JSON report; the verdict is written for people ("could not read" for "unreadable").
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from deckcheck.event.models import VERDICT_LABELS, EventReport, PlayerRow, ProblemRow

#: (field, header) of the players table, in column order.
PLAYER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("number", "#"),
    ("player", "Player"),
    ("player_id", "Player ID"),
    ("source", "Source"),
    ("verdict", "Verdict"),
    ("main", "Main"),
    ("extra", "Extra"),
    ("side", "Side"),
    ("problem_count", "Problems"),
    ("problems", "Problem details"),
    ("duplicate", "Duplicate"),
    ("deck_hash", "Deck hash"),
    ("error", "Error"),
    ("notes", "Notes"),
)

#: (field, header) of the problems table, in column order.
PROBLEM_COLUMNS: tuple[tuple[str, str], ...] = (
    ("number", "#"),
    ("player", "Player"),
    ("player_id", "Player ID"),
    ("code", "Code"),
    ("name", "Name"),
    ("severity", "Severity"),
    ("card", "Card"),
    ("section", "Section"),
    ("count", "Count"),
    ("limit", "Limit"),
    ("location", "Location"),
    ("message", "Message"),
)


_player_fields = attrgetter(*(f for f, _ in PLAYER_COLUMNS))
_problem_fields = attrgetter(*(f for f, _ in PROBLEM_COLUMNS))
_VERDICT = [f for f, _ in PLAYER_COLUMNS].index("verdict")


def player_values(row: PlayerRow) -> list[Any]:
    return player_cells(_player_fields(row))


def player_cells(values: Sequence[Any]) -> list[Any]:
    """A player row's values in column order as cells: the verdict as people read it."""
    cells = list(values)
    cells[_VERDICT] = VERDICT_LABELS[cells[_VERDICT]]
    return cells


def problem_values(row: ProblemRow) -> list[Any]:
    return list(_problem_fields(row))


def event_values(event: EventReport) -> list[tuple[str, Any]]:
    """The event's key facts, as (label, value) pairs."""
    return [
        ("Format", event.format),
        ("Banlist", event.banlist),
        ("Date", event.date),
        ("Registrations", event.total),
        ("Legal", event.legal),
        ("Illegal", event.illegal),
        ("Could not read", event.unreadable),
        ("Could not be fully checked", event.unchecked),
        ("Duplicates", event.duplicates),
        ("Skipped", len(event.skipped)),
    ]

"""The event report as JSON: `EventReport`'s stable schema (event facts, `players`, `problems`).

    {"format": "tcg", "banlist": "2026.05 TCG", "date": "2026-12-05", "total": 3,
     "legal": 1, "illegal": 1, "unreadable": 1, "duplicates": 0,
     "players": [{"number": 1, "player": "Alice", "verdict": "legal", ...}, ...],
     "problems": [{"number": 2, "code": "DC201", "card": "Pot of Greed", ...}, ...]}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deckcheck.atomic import replacing
from deckcheck.event.models import (
    PLAYER_FIELDS,
    PROBLEM_FIELDS,
    SKIPPED_FIELDS,
    EventReport,
    PlayerRow,
    ProblemRow,
    SkippedRow,
)


def _row(row: PlayerRow | ProblemRow | SkippedRow, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names}


def to_dict(event: EventReport) -> dict[str, Any]:
    """The report as JSON data: the event's facts, then `players`, `problems`, `skipped`,
    each row with every field in schema order."""
    return {
        "format": event.format, "event": event.event, "banlist": event.banlist,
        "date": event.date, "total": event.total, "legal": event.legal,
        "illegal": event.illegal, "unreadable": event.unreadable,
        "duplicates": event.duplicates, "notices": list(event.notices),
        "players": [_row(r, PLAYER_FIELDS) for r in event.players],
        "problems": [_row(r, PROBLEM_FIELDS) for r in event.problems],
        "skipped": [_row(r, SKIPPED_FIELDS) for r in event.skipped],
    }


def dumps(event: EventReport) -> str:
    return json.dumps(to_dict(event), ensure_ascii=False, indent=2) + "\n"


def write_json(event: EventReport, dest: str | Path) -> list[Path]:
    """Write the report atomically (a full disk leaves the old file whole)."""
    path = Path(dest)
    with replacing(path) as tmp:
        tmp.write_text(dumps(event), encoding="utf-8")
    return [path]

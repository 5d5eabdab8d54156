"""The event report as JSON: `EventReport`'s stable schema (event facts, `players`, `problems`).

    {"format": "tcg", "banlist": "2026.05 TCG", "date": "2026-12-05", "total": 3,
     "legal": 1, "illegal": 1, "unreadable": 1, "duplicates": 0,
     "players": [{"number": 1, "player": "Alice", "verdict": "legal", ...}, ...],
     "problems": [{"number": 2, "code": "DC201", "card": "Pot of Greed", ...}, ...]}
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from deckcheck.atomic import replacing
from deckcheck.decks.cells import LONE_SURROGATE
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


def _facts(event: EventReport) -> dict[str, Any]:
    """The event's facts: every key of the report but its tables of rows."""
    return {
        "format": event.format, "event": event.event, "banlist": event.banlist,
        "date": event.date, "total": event.total, "legal": event.legal,
        "illegal": event.illegal, "unreadable": event.unreadable,
        "duplicates": event.duplicates, "notices": list(event.notices),
    }


def _tables(event: EventReport) -> tuple[tuple[str, Sequence[Any], tuple[str, ...]], ...]:
    """The report's tables of rows: (key, rows, each row's fields in schema order)."""
    return (("players", event.players, PLAYER_FIELDS),
            ("problems", event.problems, PROBLEM_FIELDS),
            ("skipped", event.skipped, SKIPPED_FIELDS))


def to_dict(event: EventReport) -> dict[str, Any]:
    """The report as JSON data: the event's facts, then `players`, `problems`, `skipped`,
    each row with every field in schema order."""
    return {**_facts(event), **{key: [_row(r, names) for r in rows]
                                for key, rows, names in _tables(event)}}


def chunks(event: EventReport) -> Iterator[str]:
    """The report's JSON text, piece by piece (a row at a time: a large event's rows are read
    back from disk and never held as one text): the same text as `json.dumps(to_dict(event),
    ensure_ascii=False, indent=2)` and a line end."""
    head = _dumps(_facts(event))
    yield head[:-2]  # without the closing "\n}"
    for key, rows, names in _tables(event):
        yield f',\n  "{key}": ['
        first = True
        for r in rows:
            text = _dumps(_row(r, names)).replace("\n", "\n    ")
            yield ("\n    " if first else ",\n    ") + text
            first = False
        yield "]" if first else "\n  ]"
    yield "\n}\n"


def _dumps(data: dict[str, Any]) -> str:
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if not text.isascii() and LONE_SURROGATE.search(text):
        # a file name that is not UTF-8: escaped ("\\udcff"), so that the text is UTF-8 and
        # reads back as the same name (json.dumps would leave it for the write to fail on)
        text = LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def dumps(event: EventReport) -> str:
    """The report as JSON text (`chunks` joined)."""
    return "".join(chunks(event))


def write_to(event: EventReport, out: IO[str]) -> None:
    """Write the report's JSON text to `out`, a row at a time."""
    write = out.write
    for chunk in chunks(event):
        write(chunk)


def write_json(event: EventReport, dest: str | Path) -> list[Path]:
    """Write the report atomically (a full disk leaves the old file whole)."""
    path = Path(dest)
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8") as fh:
        write_to(event, fh)
    return [path]

"""The event report as JSON: `EventReport`'s stable schema (event facts, `players`, `problems`).

    {"format": "tcg", "banlist": "2026.05 TCG", "date": "2026-12-05", "total": 3,
     "legal": 1, "illegal": 1, "unreadable": 1, "duplicates": 0,
     "players": [{"number": 1, "player": "Alice", "verdict": "legal", ...}, ...],
     "problems": [{"number": 2, "code": "DC201", "card": "Pot of Greed", ...}, ...]}
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring as _string
from operator import attrgetter
from pathlib import Path
from typing import Any

from deckcheck.atomic import replacing
from deckcheck.decks.tabular import LONE_SURROGATE
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


def _tables(event: EventReport) -> tuple[tuple[str, list[Any], tuple[str, ...]], ...]:
    """The report's tables of rows: (key, rows, each row's fields in schema order)."""
    return (("players", event.players, PLAYER_FIELDS),
            ("problems", event.problems, PROBLEM_FIELDS),
            ("skipped", event.skipped, SKIPPED_FIELDS))


def to_dict(event: EventReport) -> dict[str, Any]:
    """The report as JSON data: the event's facts, then `players`, `problems`, `skipped`,
    each row with every field in schema order."""
    return {**_facts(event), **{key: [_row(r, names) for r in rows]
                                for key, rows, names in _tables(event)}}


def dumps(event: EventReport) -> str:
    """The report as JSON text: `json.dumps(to_dict(event), ensure_ascii=False, indent=2)`
    and a line end, written row by row (json's indenting encoder is pure Python: 0.5 s for
    an event of 4,000 registrations; this is ten times faster, the same text)."""
    items = [f"  {_string(key)}: "
             + json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
             for key, value in _facts(event).items()]
    items += [f"  {_string(key)}: {_rows_text(rows, names) if rows else '[]'}"
              for key, rows, names in _tables(event)]
    text = "{\n" + ",\n".join(items) + "\n}\n"
    if not text.isascii() and LONE_SURROGATE.search(text):
        # a file name that is not UTF-8: escaped ("\\udcff"), so that the text is UTF-8 and
        # reads back as the same name (json.dumps would leave it for the write to fail on)
        text = LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def _rows_text(rows: list[Any], names: tuple[str, ...]) -> str:
    """A non-empty list of rows as `json.dumps(..., indent=2)` writes it two levels deep."""
    heads = [f"      {_string(name)}: " for name in names]
    get = attrgetter(*names)
    scalar, string = _scalar, _string
    return "[\n    {\n" + "\n    },\n    {\n".join([
        ",\n".join([head + (string(v) if type(v) is str else scalar(v))
                     for head, v in zip(heads, get(row), strict=True)])
        for row in rows]) + "\n    }\n  ]"


def _scalar(value: Any) -> str:
    """One value as json writes it (strings, ints and None directly; anything else by json)."""
    kind = type(value)
    if kind is str:
        return _string(value)
    if value is None:
        return "null"
    if kind is int:
        return int.__repr__(value)
    return json.dumps(value, ensure_ascii=False)


def write_json(event: EventReport, dest: str | Path) -> list[Path]:
    """Write the report atomically (a full disk leaves the old file whole)."""
    path = Path(dest)
    with replacing(path) as tmp:
        tmp.write_text(dumps(event), encoding="utf-8")
    return [path]

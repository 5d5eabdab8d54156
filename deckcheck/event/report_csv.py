"""The event report as CSV: two files, players and problems.

`report.csv` holds one row per registration (the columns of `PLAYER_COLUMNS`) and
`report.problems.csv`, beside it, one row per problem (`PROBLEM_COLUMNS`); the `#` column
links the two. Each file is replaced atomically (written beside it, then renamed). Files
are UTF-8 with a BOM (so spreadsheets pick the encoding) and CRLF line ends. Text a player
wrote that starts with `= + - @`, a tab or a carriage return is prefixed with `'` so a
spreadsheet never runs it as a formula.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from deckcheck.atomic import replacing
from deckcheck.event.columns import PLAYER_COLUMNS, PROBLEM_COLUMNS, player_values, problem_values
from deckcheck.event.models import EventReport

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def escape(value: Any) -> Any:
    """A cell value safe from formula injection (strings only; numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def problems_path(dest: str | Path) -> Path:
    """Where the problems table goes for a players table at `dest`."""
    path = Path(dest)
    return path.with_name(f"{path.stem}.problems{path.suffix or '.csv'}")


def _write(path: Path, headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Write one table atomically: a full disk or an interruption leaves the old file whole."""
    with replacing(path) as tmp, tmp.open("w", encoding="utf-8-sig", newline="") as fh:
        w = csv.writer(fh, lineterminator="\r\n")
        w.writerow(headers)
        for row in rows:
            w.writerow(["" if v is None else escape(v) for v in row])


def write_csv(event: EventReport, dest: str | Path) -> list[Path]:
    """Write the players table to `dest` and the problems table beside it; return both paths."""
    path = Path(dest)
    _write(path, [h for _, h in PLAYER_COLUMNS], (player_values(r) for r in event.players))
    other = problems_path(path)
    _write(other, [h for _, h in PROBLEM_COLUMNS], (problem_values(r) for r in event.problems))
    return [path, other]

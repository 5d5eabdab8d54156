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
import io
from collections.abc import Iterable
from itertools import islice
from operator import attrgetter
from pathlib import Path
from typing import Any

from deckcheck.atomic import replacing
from deckcheck.decks.cells import LONE_SURROGATE, escape_cell
from deckcheck.event.columns import PLAYER_COLUMNS, PROBLEM_COLUMNS
from deckcheck.event.models import VERDICT_LABELS, EventReport


def escape(value: Any) -> Any:
    """A cell value safe from formula injection (`escape_cell` on strings; numbers stay
    numbers)."""
    return escape_cell(value) if isinstance(value, str) else value


def problems_path(dest: str | Path) -> Path:
    """Where the problems table goes for a players table at `dest`."""
    path = Path(dest)
    return path.with_name(f"{path.stem}.problems{path.suffix or '.csv'}")


#: Rows of a report table written at once (`_write_table`).
_BLOCK = 1024
#: Fields remembered per column (names, codes, messages repeat); a full memo starts again.
_MEMO = 4096


class _Fields(dict[Any, str]):
    """One column's fields as `csv.writer` writes them (after `escape`), by value: report
    rows hold only text, ints and None, so a value is one look-up once seen. The csv module
    scans every character of every field in C, slower than this for a report's long texts."""

    def __missing__(self, value: Any) -> str:
        text = escape(value)
        if text is None:
            field = ""
        elif type(text) is not str:  # an int
            field = str(text)
        elif '"' in text:
            field = '"' + text.replace('"', '""') + '"'
        elif "," in text or "\n" in text or "\r" in text:
            field = '"' + text + '"'
        else:
            field = text
        if len(self) >= _MEMO:
            self.clear()
        self[value] = field
        return field


def _write_table(path: Path, columns: tuple[tuple[str, str], ...], rows: Iterable[Any]) -> None:
    """Write one table atomically (a full disk or an interruption leaves the old file
    whole): a header, then the rows a block at a time, as `csv.writer` writes them."""
    values = attrgetter(*(f for f, _ in columns))
    verdict = [f for f, _ in columns].index("verdict") if columns == PLAYER_COLUMNS else -1
    fields = [_Fields() for _ in columns]
    if verdict >= 0:  # verdicts are written as people read them
        fields[verdict].update((v, VERDICT_LABELS[v]) for v in VERDICT_LABELS)
    getitem = dict.__getitem__
    with replacing(path) as tmp, tmp.open("wb") as fh:
        buf = io.StringIO(newline="")
        csv.writer(buf, lineterminator="\r\n").writerow([h for _, h in columns])
        fh.write(("\ufeff" + buf.getvalue()).encode())
        it = iter(rows)  # a block at a time: a large event's rows are read back from disk
        while block := list(islice(it, _BLOCK)):
            lines = [",".join(map(getitem, fields, values(row))) for row in block]
            lines.append("")
            fh.write(_utf8("\r\n".join(lines)))


def _utf8(text: str) -> bytes:
    """`text` in UTF-8; a lone surrogate (a file name that is not UTF-8) becomes U+FFFD, as
    in the workbook (the JSON report keeps it, escaped)."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return LONE_SURROGATE.sub("\ufffd", text).encode()


def write_csv(event: EventReport, dest: str | Path) -> list[Path]:
    """Write the players table to `dest` and the problems table beside it; return both paths."""
    path = Path(dest)
    _write_table(path, PLAYER_COLUMNS, event.players)
    other = problems_path(path)
    _write_table(other, PROBLEM_COLUMNS, event.problems)
    return [path, other]

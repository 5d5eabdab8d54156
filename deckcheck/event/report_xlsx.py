"""The event report as a workbook an organiser opens: Players, Problems and Event sheets.

Players and Problems have a bold frozen header row, an auto-filter and column widths fitted
to their content; long text (problem details, duplicates, errors, messages) wraps in rows tall
enough to show it; the verdict cell is filled green (legal), red (illegal) or amber (could
not read). Players and Problems print A4 landscape, one page wide, the header row on every
page; Event prints portrait. Every string is written as text, never as a formula: text a
player wrote that starts with `= + - @`, a tab or a line break is stored as a quote-prefixed
text cell (as if typed with a leading `'`); line ends become LF, characters a workbook cannot
hold are dropped or replaced. The workbook is streamed by `deckcheck.event.xlsx_tables`, so
large events stay fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckcheck.event.columns import (
    PLAYER_COLUMNS,
    PROBLEM_COLUMNS,
    event_values,
    player_values,
    problem_values,
)
from deckcheck.event.models import VERDICT_LABELS, EventReport
from deckcheck.event.xlsx_tables import Sheet, write_workbook

MIN_WIDTH, MAX_WIDTH = 6, 60
#: Columns holding long or several-line text get these widths, wrapped: narrow enough that
#: the Players sheet, printed one page wide, stays at a readable scale.
WRAPPED = {"problems": 50, "duplicate": 30, "error": 36, "message": 60}
#: verdict label -> style name of `xlsx_tables.STYLES`
VERDICT_STYLES = {VERDICT_LABELS[v]: v for v in ("legal", "illegal", "unreadable")}


def _width(rows: list[list[Any]], i: int, header: str) -> float:
    longest = len(header)
    for row in rows:
        v = row[i]
        if v is None:
            continue
        text = v if isinstance(v, str) else str(v)
        n = max(len(line) for line in text.split("\n")) if "\n" in text else len(text)
        if n > longest:
            longest = n
            if longest >= MAX_WIDTH:
                break
    return float(min(MAX_WIDTH, max(MIN_WIDTH, longest + 2)))


def _table(title: str, columns: tuple[tuple[str, str], ...], rows: list[list[Any]]) -> Sheet:
    fields = [f for f, _ in columns]
    wrapped = {i for i, f in enumerate(fields) if f in WRAPPED}
    widths = [WRAPPED[fields[i]] if i in wrapped else _width(rows, i, h)
              for i, (_, h) in enumerate(columns)]
    styles = {i: ("wrap" if i in wrapped else "top") for i in range(len(fields))} if wrapped else {}
    by_value = {fields.index("verdict"): VERDICT_STYLES} if "verdict" in fields else {}
    return Sheet(title, [h for _, h in columns], rows, widths, styles, by_value)


def write_xlsx(event: EventReport, dest: str | Path) -> list[Path]:
    """Write the report workbook to `dest`; return its path."""
    players = _table("Players", PLAYER_COLUMNS, [player_values(r) for r in event.players])
    problems = _table("Problems", PROBLEM_COLUMNS, [problem_values(r) for r in event.problems])
    facts = [list(kv) for kv in event_values(event)]
    facts += [["Note", n] for n in event.notices]
    facts += [["Skipped", f"{s.source}: {s.reason}"] for s in event.skipped]
    summary = Sheet("Event", ["Event", event.event or ""], facts, [16, 90], {0: "top", 1: "wrap"},
                    frozen_header=False, auto_filter=False, orientation="portrait")
    return [write_workbook([players, problems, summary], dest)]

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

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from operator import attrgetter
from pathlib import Path
from typing import Any, overload

from deckcheck.event.columns import (
    PLAYER_COLUMNS,
    PROBLEM_COLUMNS,
    event_values,
    player_values,
    problem_values,
)
from deckcheck.event.models import VERDICT_LABELS, EventReport
from deckcheck.event.xlsx_tables import RowWriter, Sheet, write_workbook
from deckcheck.event.xlsx_zip import Compressing

MIN_WIDTH, MAX_WIDTH = 6, 60
#: Columns holding long or several-line text get these widths, wrapped: narrow enough that
#: the Players sheet, printed one page wide, stays at a readable scale.
WRAPPED = {"problems": 50, "duplicate": 30, "error": 36, "message": 60}
#: verdict label -> style name of `xlsx_tables.STYLES`
VERDICT_STYLES = {VERDICT_LABELS[v]: v for v in ("legal", "illegal", "unreadable")}


class _Values(Sequence[list[Any]]):
    """The cell values of report rows, made one row at a time as the writer asks: a large
    event's table is never held twice."""

    def __init__(self, rows: Sequence[Any], values: Callable[[Any], list[Any]]) -> None:
        self._rows, self._values = rows, values

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, i: int) -> list[Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Any]]: ...

    def __getitem__(self, i: int | slice) -> list[Any] | list[list[Any]]:
        if isinstance(i, slice):
            return [self._values(r) for r in self._rows[i]]
        return self._values(self._rows[i])

    def __iter__(self) -> Iterator[list[Any]]:
        return map(self._values, self._rows)

    def column(self, field: str) -> Iterator[Any]:
        """One column's values, read straight off the rows (the verdict as people read it)."""
        values = map(attrgetter(field), self._rows)
        return map(VERDICT_LABELS.__getitem__, values) if field == "verdict" else values


def _longest(values: Iterable[Any]) -> int:
    """The length of the longest line of the values' text (0 for none). The values are
    those of report rows (text, ints, None): each distinct one is measured once."""
    distinct = set(values)
    distinct.discard(None)
    text = "\n".join(map(str, distinct))
    return max(map(len, text.split("\n"))) if text else 0


def _fit(longest: int, header: str) -> float:
    """The width that fits a column's longest line (within MIN_WIDTH and MAX_WIDTH)."""
    return float(min(MAX_WIDTH, max(MIN_WIDTH, max(len(header), longest) + 2)))


def _table(title: str, columns: tuple[tuple[str, str], ...], rows: _Values,
           longest: Sequence[int] | None = None) -> Sheet:
    """The sheet of a table; `longest` (per column, the longest line of its values) when
    already known, else measured on `rows`."""
    fields = [f for f, _ in columns]
    wrapped = {i for i, f in enumerate(fields) if f in WRAPPED}
    widths = [WRAPPED[fields[i]] if i in wrapped else
              _fit(longest[i] if longest is not None else _longest(rows.column(fields[i])), h)
              for i, (_, h) in enumerate(columns)]
    styles = {i: ("wrap" if i in wrapped else "top") for i in range(len(fields))} if wrapped else {}
    by_value = {fields.index("verdict"): VERDICT_STYLES} if "verdict" in fields else {}
    return Sheet(title, [h for _, h in columns], rows, widths, styles, by_value, plain=True)


_VERDICT = [f for f, _ in PLAYER_COLUMNS].index("verdict")


class PreparedRows:
    """The Players and Problems rows of an event's workbook, rendered while the event is
    still being checked: `check_event(..., on_rows=prepared.add)`, then
    `write_xlsx(event, dest, prepared=prepared)`. With `--jobs`, the parent process renders
    the rows of each run the workers send back while they check the next ones, so that the
    workbook is mostly written when the last deck is checked.

    The rows go to temporary files (a large event's rows are not held twice in memory), the
    problems compressed as they come (`xlsx_zip`); column widths are measured as they come.
    A player row's Duplicate cell is only known at the end: the rows flagged then are
    rendered again as the file is copied."""

    def __init__(self) -> None:
        self._sheets = [
            _table("Players", PLAYER_COLUMNS, _Values([], player_values),
                   [0] * len(PLAYER_COLUMNS)),
            _table("Problems", PROBLEM_COLUMNS, _Values([], problem_values),
                   [0] * len(PROBLEM_COLUMNS))]
        self._writers = [RowWriter(sheet) for sheet in self._sheets]
        self._files: list[Any] = []  # made with the first rows
        # the columns whose widths are measured (wrapped ones have theirs), read off the rows;
        # the verdict is measured as people read it
        self._columns = [[(i, attrgetter(f)) for i, (f, _) in enumerate(columns)
                          if f not in WRAPPED and f != "verdict"]
                         for columns in (PLAYER_COLUMNS, PROBLEM_COLUMNS)]
        self.longest = [[0] * len(PLAYER_COLUMNS), [0] * len(PROBLEM_COLUMNS)]
        self.done = [0, 0]  # rows rendered, of players and of problems
        self._sizes: list[int] = []  # bytes of each player row
        self._problems: Compressing | None = None

    def add(self, event: EventReport) -> None:
        """Render the rows added to `event` since the last call."""
        self._add(0, event.players, player_values)
        self._add(1, event.problems, problem_values)

    def _add(self, k: int, rows: Sequence[Any], values: Callable[[Any], list[Any]]) -> None:
        new = rows[self.done[k]:]
        if not new:
            return
        if not self._files:
            import tempfile

            self._files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
            # the problems rows are compressed as they come: they never change
            self._problems = Compressing(self._files[1])
        longest = self.longest[k]
        for i, get in self._columns[k]:
            longest[i] = max(longest[i], _longest(map(get, new)))
        if k == 0:
            longest[_VERDICT] = max(longest[_VERDICT],
                                    _longest(VERDICT_LABELS[r.verdict] for r in new))
            self._writers[0].write(map(values, new), self.done[0] + 2, self._files[0],
                                   self._sizes)
        elif self._problems is not None:
            self._writers[1].write(map(values, new), self.done[1] + 2, self._problems)
        self.done[k] += len(new)

    def sheets(self, event: EventReport) -> tuple[Sheet, Sheet]:
        """The Players and Problems sheets of `event` (every row of it added), their rows
        copied from the files."""
        self.add(event)
        if self.done != [len(event.players), len(event.problems)]:
            raise ValueError("the prepared rows are not those of this event")
        players = _table("Players", PLAYER_COLUMNS, _Values(event.players, player_values),
                         self.longest[0])
        problems = _table("Problems", PROBLEM_COLUMNS, _Values(event.problems, problem_values),
                          self.longest[1])
        players.body = partial(self._copy_players, event)
        problems.body = self._copy_problems
        return players, problems

    def _copy(self, f: Any, out: Any, stop: int | None = None) -> None:
        """Copy the rest of file `f` (up to offset `stop`) to `out`."""
        left = None if stop is None else stop - f.tell()
        while left is None or left > 0:
            chunk = f.read(1 << 20 if left is None else min(left, 1 << 20))
            if not chunk:
                break
            out.write(chunk)
            if left is not None:
                left -= len(chunk)

    def _copy_problems(self, out: Any) -> None:
        if self._problems is not None:  # else no rows at all
            out.add(self._problems.finish())

    def _copy_players(self, event: EventReport, out: Any) -> None:
        if not self._files:
            return
        f = self._files[0]
        f.flush()
        f.seek(0)
        pos = 0
        writer = self._writers[0]
        for n, (row, size) in enumerate(zip(event.players, self._sizes, strict=True)):
            if row.duplicate is not None:  # rendered again, with its Duplicate cell
                self._copy(f, out, pos)
                out.write(writer.row(player_values(row), n + 2).encode())
                f.seek(pos + size)
            pos += size
        self._copy(f, out)

    def close(self) -> None:
        """Remove the temporary files."""
        for f in self._files:
            f.close()

    def __enter__(self) -> PreparedRows:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def write_xlsx(event: EventReport, dest: str | Path, *, jobs: int | None = None,
               prepared: PreparedRows | None = None) -> list[Path]:
    """Write the report workbook to `dest`; return its path. A large event's sheets are
    rendered by `jobs` processes (default: the cores; `xlsx_tables.write_workbook`), or
    copied from `prepared` (rows rendered while the event was checked)."""
    if jobs is None:
        from deckcheck.event.jobs import default_jobs

        jobs = default_jobs()
    if prepared is not None:
        players, problems = prepared.sheets(event)
    else:
        players = _table("Players", PLAYER_COLUMNS, _Values(event.players, player_values))
        problems = _table("Problems", PROBLEM_COLUMNS,
                          _Values(event.problems, problem_values))
    facts = [list(kv) for kv in event_values(event)]
    facts += [["Note", n] for n in event.notices]
    facts += [["Skipped", f"{s.source}: {s.reason}"] for s in event.skipped]
    summary = Sheet("Event", ["Event", event.event or ""], facts, [16, 90], {0: "top", 1: "wrap"},
                    frozen_header=False, auto_filter=False, orientation="portrait")
    return [write_workbook([players, problems, summary], dest, jobs=jobs)]

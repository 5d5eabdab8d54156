"""The event report as a workbook an organiser opens: Players, Problems and Event sheets.

Players and Problems have a bold frozen header row, an auto-filter and column widths fitted
to their content; long text (problem details, duplicates, errors, notes, messages) wraps in
rows tall enough to show it; the verdict cell is filled green (legal), red (illegal) or amber
(could not read). Players and Problems print A4 landscape, one page wide, the header row on
every page, at 7.5 pt or more: long names, paths and messages wrap in columns of bounded width
(`WRAPPED`, `CAPPED`) instead of widening the sheet; Event prints portrait. Every string is
written as text, never as a formula: text a player wrote that starts with `= + - @`, a tab
or a line break is stored as a quote-prefixed text cell (as if typed with a leading `'`);
line ends become LF, characters a workbook cannot hold are dropped or replaced. The workbook
is streamed by `deckcheck.event.xlsx_tables`, so large events stay fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from operator import itemgetter
from pathlib import Path
from typing import Any, overload

from deckcheck.event.columns import (
    PLAYER_COLUMNS,
    PROBLEM_COLUMNS,
    event_values,
    player_cells,
    player_values,
    problem_values,
)
from deckcheck.event.models import VERDICT_LABELS, EventReport
from deckcheck.event.spool import RowSpool, values_getter
from deckcheck.event.xlsx_tables import MAX_CELL_TEXT, Sheet, write_workbook

MIN_WIDTH, MAX_WIDTH = 6, 60
#: Columns holding long or several-line text get these widths, wrapped: narrow enough that
#: the Players and Problems sheets, printed one A4 page wide, stay at a readable scale
#: (7.5 pt or more: the columns add up to at most 210 characters; at 60 a column, long names
#: and paths made it about 310 and the print about 5 pt).
WRAPPED = {"problems": 34, "duplicate": 16, "error": 18, "message": 40, "notes": 18}
#: Columns fitted to their content up to this width, and wrapped beyond it (names, paths;
#: "could not be fully checked" in three lines).
CAPPED = {"player": 24, "source": 24, "name": 20, "card": 24, "location": 28, "verdict": 12}
#: verdict label -> style name of `xlsx_tables.STYLES`
VERDICT_STYLES = {VERDICT_LABELS[v]: v for v in ("legal", "illegal", "unreadable")}


class _Values(Sequence[list[Any]]):
    """The cell values of report rows, made one row at a time as the writer asks: a large
    event's table is never held twice."""

    def __init__(self, rows: Sequence[Any], values: Callable[[Any], list[Any]],
                 fields: Sequence[str] | None = None) -> None:
        """`fields`: the rows are sequences of these fields' values (a spool's rows as
        `RowSpool.values` gives them), not row objects."""
        self._rows, self._values = rows, values
        self._fields = fields

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

    def longest(self, names: list[str], enough: dict[str, int] | None = None
                ) -> dict[str, int]:
        """The length of the longest line of each named column's text (0 for none), in one
        pass over the rows, a block at a time (a large event's are read back from disk);
        the verdict as people read it. Each distinct value of a block is measured once.
        A column is measured no further once its longest reaches `enough[name]` (a length
        past which its width no longer changes): the length then given is at least that."""
        longest = dict.fromkeys(names, 0)
        enough = enough or {}
        todo = list(names)  # the columns still measured
        rows = iter(self._rows)
        while todo and (block := list(islice(rows, _BLOCK))):
            for name, column in zip(todo, zip(*map(self._getter(todo), block), strict=True),
                                    strict=True):
                distinct = set(column)
                if name == "verdict":
                    distinct = {VERDICT_LABELS[v] for v in distinct}
                longest[name] = max(longest[name], _longest(distinct))
            # a column wide enough is measured no further (paths, locations)
            todo = [n for n in todo if longest[n] < enough.get(n, MAX_CELL_TEXT + 1)]
        return longest

    def _getter(self, names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
        """The named columns' values of a row, as one tuple."""
        if self._fields is None:
            return values_getter(tuple(names))
        at = [list(self._fields).index(n) for n in names]
        return itemgetter(*at) if len(at) > 1 else lambda r: (r[at[0]],)


#: Rows measured at once.
_BLOCK = 1024


def _longest(distinct: set[Any]) -> int:
    """The length of the longest line of the values' text (0 for none)."""
    distinct.discard(None)
    text = "\n".join(map(str, distinct))
    return max(map(len, text.split("\n"))) if text else 0


def _fit(longest: int, header: str) -> float:
    """The width that fits a column's longest line (within MIN_WIDTH and MAX_WIDTH)."""
    return float(min(MAX_WIDTH, max(MIN_WIDTH, max(len(header), longest) + 2)))


def _table(title: str, columns: tuple[tuple[str, str], ...], rows: _Values) -> Sheet:
    fields = [f for f, _ in columns]
    wrapped = {i for i, f in enumerate(fields) if f in WRAPPED}
    # a column's width no longer changes past MAX_WIDTH, or past its cap (then it wraps)
    longest = rows.longest([f for f in fields if f not in WRAPPED],
                           {f: CAPPED.get(f, MAX_WIDTH) - 1 for f in fields})
    widths = [WRAPPED[fields[i]] if i in wrapped else _fit(longest[fields[i]], h)
              for i, (_, h) in enumerate(columns)]
    for i, f in enumerate(fields):
        if f in CAPPED and widths[i] > CAPPED[f]:
            widths[i] = float(CAPPED[f])
            wrapped.add(i)
    styles = {i: ("wrap" if i in wrapped else "top") for i in range(len(fields))} if wrapped else {}
    by_value = {fields.index("verdict"): VERDICT_STYLES} if "verdict" in fields else {}
    return Sheet(title, [h for _, h in columns], rows, widths, styles, by_value, plain=True)


def _rows_of(rows: Sequence[Any], columns: tuple[tuple[str, str], ...],
             of_row: Callable[[Any], list[Any]], of_values: Callable[[Any], list[Any]]
             ) -> _Values:
    """A table's cell values (`of_row` of each row object): a spooled table's rows as their
    values (`of_values`), when they are the columns in order (no row object made of each,
    twice: measuring, writing)."""
    names = tuple(f for f, _ in columns)
    if isinstance(rows, RowSpool) and rows.names == names:
        return _Values(rows.values(), of_values, names)
    return _Values(rows, of_row)


def write_xlsx(event: EventReport, dest: str | Path, *, jobs: int | None = None,
               complete: Callable[[EventReport], object] | None = None) -> list[Path]:
    """Write the report workbook to `dest`; return its path. A large event's sheets are
    rendered by `jobs` processes (default: the cores; `xlsx_tables.write_workbook`).

    `complete`: what the event still needs before its Players and Event sheets can be made
    (`run.finish` of an event checked with `finished=False`: the duplicate flags and the
    counts). Where that ends sooner (`_later_share`: few cores), it is done once the helpers
    rendering the Problems sheet have started, and this process makes and renders the
    Players sheet alone meanwhile; else first, and every long sheet is shared."""
    if jobs is None:
        from deckcheck.event.jobs import default_jobs

        jobs = default_jobs()

    def players() -> Sheet:
        if complete is not None:
            complete(event)
        return _table("Players", PLAYER_COLUMNS,
                      _rows_of(event.players, PLAYER_COLUMNS, player_values, player_cells))

    def summary() -> Sheet:
        facts = [list(kv) for kv in event_values(event)]
        facts += [["Note", n] for n in event.notices]
        facts += [["Skipped", f"{s.source}: {s.reason}"] for s in event.skipped]
        return Sheet("Event", ["Event", event.event or ""], facts, [16, 90],
                     {0: "top", 1: "wrap"}, frozen_header=False, auto_filter=False,
                     orientation="portrait")

    problems = _table("Problems", PROBLEM_COLUMNS,
                      _rows_of(event.problems, PROBLEM_COLUMNS, problem_values, list))
    first = _later_share(len(event.players), len(event.problems), jobs) \
        if complete is not None else None
    if first is None:  # every sheet made now: each long one in equal shares
        return [write_workbook([players(), problems, summary()], dest, jobs=jobs)]
    return [write_workbook([players, problems, summary], dest, jobs=jobs, first=first)]


#: What a player row costs, against rendering a problem row: completing the event and making
#: the Players sheet, and rendering the row (`benchmarks/bench_event.py`'s 4,000
#: registrations, in the parent: the duplicate flags 34 ms and the sheet 22 ms, its rows
#: 105 ms; a helper rendered 9,300 problem rows in 112 ms).
PLAYER_ROW_PREPARE, PLAYER_ROW_RENDER = 1.2, 2.2


def _later_share(players: int, problems: int, jobs: int) -> float | None:
    """The fraction of the Problems rows this process renders when it completes the event
    and makes and renders the Players sheet while the helpers render the Problems sheet, so
    that it ends with them; None when completing the event first and sharing every long
    sheet among the processes ends sooner (more cores than two, for the event measured)."""
    if jobs < 2:
        return None
    prepare, render = players * PLAYER_ROW_PREPARE, players * PLAYER_ROW_RENDER
    shared = prepare + (render + problems) / jobs  # first completed, then equal shares
    each = (prepare + render + problems) / jobs  # every process's share of all the work
    if max(prepare + render, each) >= shared:  # (always so without problems)
        return None
    return max(0.0, min(1.0 / jobs, (each - prepare - render) / problems))

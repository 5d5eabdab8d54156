"""Decks in tables (CSV files and xlsx sheets): find the layout instead of demanding one.

A table is a grid of cells. The reader looks for header rows: quantity, name and passcode
columns in any order, with header words in several languages (`Qty`/`Quantity`/`Count`/
`Copies`/`#`/`数量`/`枚数`, `Name`/`Card`/`Card Name`/`卡名`/`カード名`, `Passcode`/`ID`/
`Password`/`Code`), and a `Section`/`Deck` column if there is one. One header row may hold
several blocks side by side (Main | Extra | Side in parallel columns); a block's section comes
from its header (`Extra Deck | Qty`), from a section title above it, from section rows inside
it ("Monster Cards", "Extra Deck (15)", "サイドデッキ"), or from the section column
(`main_deck`, `Side`…). Without any header row, the columns are guessed from their content
(small numbers = quantities, long numbers = passcodes, text = names).

Inside a block: empty rows, totals rows ("Total", "合计"), section rows and notes (text in the
name column with no quantity that is no card) are skipped; a name that fits no card, or a
quantity that is 0, negative, over 99 or not a number, becomes a `ReadProblem` located at its
cell. When both a passcode and a name are given, the passcode wins (it keeps alternate
artworks). Cards whose section is never stated are placed by their frame.

Label cells such as "Player Name", "CARD GAME ID", "Event", "Date", "Country", "Deck Name"
outside the blocks fill `Deck.meta` from the cell to their right (or after a colon).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from deckcheck.cards.pool import CardPool
from deckcheck.decks.cells import FORMULA_START, column_letter
from deckcheck.decks.model import SECTIONS, Deck, Entry, Location, ReadProblem, Section
from deckcheck.decks.resolve import (
    Resolver,
    bad_count,
    is_total,
    parse_count,
    place_by_frame,
    section_word,
)
from deckcheck.decks.source import MAX_ENTRIES, too_many_entries
from deckcheck.decks.table_layout import Block, header_blocks, infer_blocks
from deckcheck.decks.table_meta import table_meta
from deckcheck.decks.table_totals import BlockTally, Totals
from deckcheck.errors import DeckReadError


def clean(value: Any) -> Any:
    """A cell value as the reader wants it: stripped text (a formula-guard `'` removed), ints
    for whole numbers, None for empty."""
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, int):
        return value
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()[:10] if isinstance(value, dt.datetime) else value.isoformat()
    s = str(value).strip()
    if s.startswith("'") and len(s) > 1 and s[1] in FORMULA_START:
        s = s[1:]
    return s or None


def _text(v: Any) -> str:
    return "" if v is None else str(v)


@dataclass
class Grid:
    """Cell values by row (row 0 is the table's first row), and how to name a cell."""

    rows: list[list[Any]]
    source: str
    sheet: str | None = None
    #: For CSV: the physical line where each row starts.
    lines: list[int] | None = None
    #: True when the sheet had more rows than were read (`source.MAX_ROWS`).
    cut: bool = False

    def loc(self, r: int, c: int) -> Location:
        cell = f"{column_letter(c)}{r + 1}"
        if self.sheet is not None:
            return Location(source=self.source or None, sheet=self.sheet, cell=cell)
        line = self.lines[r] if self.lines is not None else r + 1
        return Location(source=self.source or None, line=line, cell=cell)

    def get(self, r: int, c: int | None) -> Any:
        if c is None:
            return None
        row = self.rows[r]
        return row[c] if c < len(row) else None


@dataclass(slots=True)
class _Row:
    """One card row as read, before it becomes an `Entry`; the next row of the same card in
    the same section adds its copies to `count`."""

    passcode: int
    written: str
    count: int
    location: Location
    section: Section


@dataclass
class _State:
    """Where the reading of one block is."""

    section: Section | None
    #: The row read last in this part of the block (None after a section or totals row).
    last: _Row | None = None
    #: The part of the Main Deck the rows are in ("monster", "spell", "trap"), if a row said.
    group: str | None = None
    #: The copies listed in the block, for its totals rows.
    tally: BlockTally = field(default_factory=BlockTally)

    def switch(self, hit: tuple[Section, str | None]) -> None:
        self.section, self.group, self.last, self.tally.since = hit[0], hit[1], None, 0


@dataclass
class TableReader:
    grid: Grid
    pool: CardPool | None
    resolver: Resolver = field(init=False)
    rows_out: dict[Section, list[_Row]] = field(init=False)
    card_lines: int = 0
    totals: Totals = field(default_factory=Totals)

    def __post_init__(self) -> None:
        self.resolver = Resolver(self.pool)
        self.rows_out = {"main": [], "extra": [], "side": []}

    def read(self, name: str | None) -> Deck | None:
        grid = self.grid
        headers = [(r, blocks) for r, row in enumerate(grid.rows)
                   if (blocks := header_blocks(row))]
        regions = self._regions(headers)
        if not regions:
            return None
        deck = Deck(name=name, source=grid.source or None)
        for start, end, blocks in regions:
            for b in blocks:
                self._read_block(b, start, end, deck)
        for sec, rows in self.rows_out.items():
            deck.section(sec).extend(
                Entry(passcode=row.passcode, written=row.written, count=row.count,
                      location=row.location) for row in rows)
        deck.problems.extend(self.resolver.problems)
        self.totals.check(deck)
        spans = [(s, e, b.first, b.last) for s, e, blocks in regions for b in blocks]
        deck.meta.update(table_meta(grid.rows, {r for r, _ in headers},
                                    headers[0][0] if headers else 0, spans))
        if not headers and not deck.problems and \
                not any(deck.section(s) for s in ("main", "extra", "side")):
            return None
        return deck

    def _regions(self, headers: list[tuple[int, list[Block]]]
                 ) -> list[tuple[int, int, list[Block]]]:
        """The rows each header row's blocks run over (to the next header row), their
        sections taken from titles above them; without header rows, the guessed blocks."""
        grid = self.grid
        if not headers:
            blocks = infer_blocks(grid.rows)
            return [(0, len(grid.rows), blocks)] if blocks else []
        regions = []
        for i, (r, blocks) in enumerate(headers):
            end = headers[i + 1][0] if i + 1 < len(headers) else len(grid.rows)
            for b in blocks:
                if b.section is None:
                    title = self._title_above(r, b)
                    if title is not None:
                        b.section, b.group = title
            regions.append((r + 1, end, blocks))
        return regions

    def _title_above(self, r: int, b: Block) -> tuple[Section, str | None] | None:
        for rr in range(r - 1, max(-1, r - 4), -1):
            for c in range(b.first, b.last + 1):
                v = self.grid.get(rr, c)
                if isinstance(v, str):
                    sec = section_word(v)
                    if sec is not None:
                        return sec
        return None

    def _read_block(self, b: Block, start: int, end: int, deck: Deck) -> None:
        grid = self.grid
        state = _State(section=b.section, group=b.group)
        for r in range(start, end):
            row = _Cells(grid.get(r, b.qty), grid.get(r, b.name), grid.get(r, b.code),
                         grid.get(r, b.section_col))
            if not self._marker(b, r, row, state):
                self._card_row(b, r, row, state, deck)

    def _marker(self, b: Block, r: int, row: _Cells, state: _State) -> bool:
        """Whether row `r` is no card row: empty (perhaps a section in the section column),
        a section title, or a totals row (remembered)."""
        qty, nm, code = row.qty, row.name, row.code
        if qty is None and nm is None and code is None:
            word = section_word(row.section) if isinstance(row.section, str) else None
            if word:
                state.switch(word)
            return True
        filled = [v for v in (qty, nm, code) if v is not None]
        title = nm if isinstance(nm, str) else filled[0] if len(filled) == 1 else None
        hit = section_word(title) if isinstance(title, str) else None
        if hit is not None:
            state.switch(hit)
            return True
        name_s = _text(nm)
        label = name_s if name_s and is_total(name_s) else \
            qty if isinstance(qty, str) and is_total(qty) else \
            code if isinstance(code, str) and is_total(code) else None
        if label is None:
            return False
        grid = self.grid
        self.totals.note(label, [(c, grid.get(r, c)) for c in (b.qty, b.name, b.code)],
                         lambda c: grid.loc(r, c), state.tally)
        return True

    def _card_row(self, b: Block, r: int, row: _Cells, state: _State, deck: Deck) -> None:
        """Read a card row: its passcode (or name), count and section."""
        grid = self.grid
        self.card_lines += 1
        if self.card_lines > MAX_ENTRIES:
            where_ = grid.source or "the table"
            raise too_many_entries(f"{where_}:{grid.sheet}" if grid.sheet else where_)
        qty, code = row.qty, row.code
        section = state.section
        if row.section is not None:
            hit = section_word(_text(row.section))
            if hit is not None:
                section = hit[0]
        # a value was read from that column, so the column is not None
        where = grid.loc(r, b.name if row.name is not None else b.code if code is not None
                         else b.qty)  # type: ignore[arg-type]
        pc = self._passcode(b, r, row, state, section, where, deck)
        if pc is None:
            return
        count = parse_count(qty) if b.qty is not None and qty is not None else 1
        self.totals.tally(state.tally, section, state.group, count)
        written = _text(row.name) or _text(code)
        if isinstance(count, str):
            # a count that does not parse comes from the quantity column: b.qty is set
            deck.problems.append(bad_count(qty, written, section, count,
                                           grid.loc(r, b.qty)))  # type: ignore[arg-type]
            return
        sec = section if section is not None else place_by_frame(self.pool, pc)
        last = state.last
        if last is not None and last.passcode == pc and last.section == sec:
            last.count += count
            return
        state.last = _Row(pc, written, count, where, sec)
        self.rows_out[sec].append(state.last)

    def _passcode(self, b: Block, r: int, row: _Cells, state: _State, section: Section | None,
                  where: Location, deck: Deck) -> int | None:
        """The card of a row: its passcode cell, else a passcode in the name cell, else the
        name looked up; None (with a problem where the row meant a card) when there is none."""
        qty, nm, code = row.qty, row.name, row.code
        pc = self.resolver.passcode_of(_text(code)) if code is not None else None
        if pc is None and isinstance(nm, int) and nm >= 1000:
            pc = nm
        name_s = _text(nm)
        if pc is not None or not name_s:
            if pc is None and _meant_a_card(qty, code):
                deck.problems.append(_unusable_row(
                    code if code is not None else qty, section,
                    self.grid.loc(r, b.code if code is not None  # type: ignore[arg-type]
                                  else b.qty), code is not None))
            return pc
        found = self.resolver.lookup(name_s)
        if isinstance(found, int):
            return found
        if b.qty is not None and qty is None:
            return None  # a note in the name column
        n = parse_count(qty) if b.qty is not None else 1
        self.totals.tally(state.tally, section, state.group, n)
        self.resolver.problems.append(self.resolver.problem(
            name_s, n if isinstance(n, int) else 1, section, where,
            found if isinstance(found, list) else None))
        return None


class _Cells(NamedTuple):
    """A row's cells in a block's columns (None where empty or where the block has none)."""

    qty: Any
    name: Any
    code: Any
    section: Any


def _meant_a_card(qty: Any, code: Any) -> bool:
    """Whether a row with no name was meant as a card: a count beside a passcode cell, a
    passcode cell holding digits, or a count alone (a note or a label in those columns, like
    "Player signature", is not)."""
    if code is not None:
        return qty is not None or any(ch.isdigit() for ch in _text(code))
    return isinstance(parse_count(qty), int) or isinstance(qty, int | float)


def _unusable_row(value: Any, section: Section | None, where: Location,
                  is_code: bool) -> ReadProblem:
    """The problem for a row whose only card cell is a passcode that is none (`abc`, `-1`,
    `1e9`, 4294967296) or that has a count and no card at all: skipped, but never silently."""
    shown = _text(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    why = ("is not a passcode (at most 10 digits, below 2^32)" if is_code else
           "is a count with no card name or passcode beside it")
    return ReadProblem(kind="bad-line", section=section, written=shown, location=where,
                       message=f"The cell {where.cell} ({shown!r}) {why}; the row was skipped.")


def read_grid(grid: Grid, pool: CardPool | None, name: str | None = None) -> Deck | None:
    """The deck in one table, or None if the table holds nothing deck-like."""
    return TableReader(grid, pool).read(name)


def read_pasted_column(grid: Grid, pool: CardPool | None,
                       name: str | None = None) -> Deck | None:
    """The deck in a list pasted into one column, one card per cell ("3 Ash Blossom & Joyous
    Spring"), read as a plain-text list with every entry located at its cell; None when the
    cells are not all in one column or no line of them names a card (a note)."""
    from deckcheck.decks.text import read_text

    filled = [(r, c, v) for r, row in enumerate(grid.rows) for c, v in enumerate(row)
              if v is not None]
    if not filled or len({c for _, c, _ in filled}) != 1:
        return None
    lines: list[str] = []
    cells: list[tuple[int, int]] = []  # text line (1-based, minus one) -> its cell
    for r, c, v in filled:
        for part in _text(v).splitlines() or [""]:
            lines.append(part)
            cells.append((r, c))
    if len(lines) > MAX_ENTRIES:
        where = grid.source or "the table"
        raise too_many_entries(f"{where}:{grid.sheet}" if grid.sheet else where)
    try:
        deck = read_text("\n".join(lines), pool, grid.source, name=name)
    except DeckReadError:
        return None  # no line is a card

    def moved(loc: Location) -> Location:
        if loc.line is None or not 1 <= loc.line <= len(cells):
            return grid.loc(*cells[0]).model_copy(update={"cell": None}) \
                if grid.sheet is not None else loc
        return grid.loc(*cells[loc.line - 1])

    for sec in SECTIONS:
        entries = deck.section(sec)
        entries[:] = [e.model_copy(update={"location": moved(e.location)}) for e in entries]
    deck.problems = [p.model_copy(update={"location": moved(p.location)})
                     for p in deck.problems]
    if not any(deck.section(s) for s in SECTIONS):
        return None  # notes, not a list: not one line names a card
    return deck

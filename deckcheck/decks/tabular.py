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
import re
from dataclasses import dataclass, field
from typing import Any

from deckcheck.cards.names import normalize
from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import SECTIONS, Deck, Entry, Location, ReadProblem, Section
from deckcheck.decks.resolve import (
    TOTAL_WORDS,
    Resolver,
    bad_count,
    is_total,
    parse_count,
    place_by_frame,
    section_word,
    split_trailing_count,
)
from deckcheck.decks.source import MAX_ENTRIES, too_many_entries
from deckcheck.errors import DeckReadError

_QTY = {normalize(w) for w in ("qty", "quantity", "count", "copies", "amount", "num", "no",
                               "数量", "枚数", "张数", "張数", "數量", "anzahl", "quantité",
                               "qté", "cantidad", "quantità")}
_NAME = {normalize(w) for w in ("name", "card", "card name", "cards", "卡名", "卡片名称", "卡片名",
                                "名称", "名稱", "カード名", "名前", "カード", "nom", "nombre",
                                "kartenname", "nome", "card name (english)")}
_CODE = {normalize(w) for w in ("passcode", "id", "password", "code", "card id", "卡密", "密码",
                                "密碼", "パスワード", "card number", "card code")}
#: Longer than any header word above (with room for spacing): such a cell is data.
_LONGEST_HEADER = 40
_SECTION_COL = {normalize(w) for w in ("section", "deck", "part", "卡组", "牌組", "デッキ",
                                       "区分")}
_META_LABELS = {normalize(k): v for k, v in {
    "player": "player", "player name": "player", "name": "player", "first name": "first_name",
    "last name": "last_name", "family name": "last_name", "given name": "first_name",
    "id": "player_id", "player id": "player_id", "card game id": "player_id",
    "konami id": "player_id", "cossy id": "player_id", "konami card game id": "player_id",
    "event": "event", "event name": "event", "tournament": "event", "date": "date",
    "event date": "date", "country": "country", "country of residence": "country",
    "deck name": "deck_name", "deck": "deck_name", "選手名": "player", "氏名": "player",
    "玩家": "player", "姓名": "player", "选手": "player"}.items()}
#: A lone surrogate: a file name that is not UTF-8, decoded with surrogateescape. UTF-8 cannot
#: encode one, so a worksheet or CSV file shows U+FFFD and a JSON report writes it escaped.
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: The one formula guard: text starting with one of these could be run by a spreadsheet as a
#: formula (a leading line break too: cells are often trimmed), so every writer of a cell (deck
#: CSV and xlsx, the event's CSV and workbook) quotes it with a leading `'` (`escape_cell`),
#: and the readers take that quote off again.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def column_letter(col: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


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


@dataclass
class Block:
    qty: int | None = None
    name: int | None = None
    code: int | None = None
    section_col: int | None = None
    section: Section | None = None
    #: The Main Deck part the block's title names ("monster" for "Monster Cards"), if any.
    group: str | None = None
    first: int = 0
    last: int = 0

    def roles(self) -> list[int]:
        return [c for c in (self.qty, self.name, self.code, self.section_col) if c is not None]


def _role(value: Any) -> tuple[str, Section | None] | None:
    if not isinstance(value, str):
        return None
    t = value.strip()
    if len(t) > _LONGEST_HEADER:
        return None  # no header word is this long; a long cell is never normalised here
    if t == "#" or t.lower() in ("no.", "nr."):
        return ("qty", None)
    key = normalize(t)
    if key in _QTY:
        return ("qty", None)
    if key in _SECTION_COL:
        return ("section", None)
    if key in _NAME:
        return ("name", None)
    if key in _CODE:
        return ("code", None)
    sec = section_word(t)
    if sec is not None:
        return ("name", sec[0])
    return None


def _header_blocks(row: list[Any]) -> list[Block]:
    """The blocks a header row defines (empty if it is no header row)."""
    blocks: list[Block] = []
    cur = Block()
    for c, value in enumerate(row):
        role = _role(value)
        if role is None:
            continue
        kind, sec = role
        attr = "section_col" if kind == "section" else kind
        if getattr(cur, attr) is not None or (sec is not None and cur.name is not None):
            if cur.roles():
                blocks.append(cur)
            cur = Block()
        setattr(cur, attr, c)
        if sec is not None:
            cur.section = sec
            cur.group = (section_word(value) or (sec, None))[1]
    if cur.roles():
        blocks.append(cur)
    if not any((role := _role(v)) is not None and role[1] is None for v in row):
        return []  # section words alone ("Spell Card | main_deck") are data, not headers
    good = []
    for b in blocks:
        if b.name is None and b.code is None:
            continue
        if len(b.roles()) < 2 and b.section is None:
            continue
        b.first, b.last = min(b.roles()), max(b.roles())
        good.append(b)
    # a lone "Main Deck" title is a section title, not a header; a header needs two roles
    # somewhere in the row (e.g. "Extra Deck | Qty", or "Qty | Name")
    if sum(len(b.roles()) for b in good) < 2:
        return []
    return good


def _infer_blocks(grid: Grid) -> list[Block]:
    """Blocks for a table without header row, from the content of its columns."""
    width = max((len(r) for r in grid.rows), default=0)
    kinds: dict[int, str] = {}
    for c in range(width):
        small = big = text = 0
        for r in range(len(grid.rows)):
            v = grid.get(r, c)
            if v is None:
                continue
            if isinstance(v, int) or (isinstance(v, str) and v.isascii() and v.isdigit()):
                n = int(v)
                if 1 <= n <= 99 and not (isinstance(v, str) and len(v) >= 5):
                    small += 1
                elif n >= 1000:
                    big += 1
            elif isinstance(v, str) and len(v) >= 2:
                text += 1
        best = max(small, big, text)
        if best >= 1:
            kinds[c] = "qty" if best == small else "code" if best == big else "name"
    blocks = []
    used: set[int] = set()
    for c, kind in sorted(kinds.items()):
        if kind not in ("name", "code") or c in used:
            continue
        b = Block(name=c) if kind == "name" else Block(code=c)
        if kinds.get(c + 1) == "code" and kind == "name":
            b.code = c + 1
        if kinds.get(c - 1) == "qty" and c - 1 not in used:
            b.qty = c - 1
        elif kinds.get(c + 1) == "qty":
            b.qty = c + 1
        elif kinds.get(c + 2) == "qty" and b.code == c + 1:
            b.qty = c + 2
        if b.qty is None and b.code is None:
            continue  # a lone column of text is notes, not a decklist
        used.update(b.roles())
        b.first, b.last = min(b.roles()), max(b.roles())
        blocks.append(b)
    return blocks


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
    section: Section | None
    #: The row read last in this part of the block (None after a section or totals row).
    last: _Row | None = None
    #: The part of the Main Deck the rows are in ("monster", "spell", "trap"), if a row said.
    group: str | None = None
    #: Copies listed since the last section row or totals row (None: one count unreadable).
    since: int | None = 0
    #: Copies listed in this block, in all (None: one count unreadable).
    listed: int | None = 0
    #: Copies listed in this block per Main Deck part (None: one count unreadable).
    by_group: dict[tuple[Section | None, str | None], int | None] = field(default_factory=dict)

    def switch(self, hit: tuple[Section, str | None]) -> None:
        self.section, self.group, self.last, self.since = hit[0], hit[1], None, 0


@dataclass
class WrittenTotal:
    """A totals row as written ("Total Monster Cards | 20"): what it sums and where."""

    label: str
    number: int
    location: Location
    #: "rows": the rows since the last marker; "group" or "section": named by the label.
    scope: str
    section: Section | None = None
    group: str | None = None
    #: Counts that agree with the total where it stands (the rows since the last marker, the
    #: group's rows in this block); the deck-wide count of the group or section also agrees.
    local: tuple[int, ...] = ()


@dataclass
class TableReader:
    grid: Grid
    pool: CardPool | None
    resolver: Resolver = field(init=False)
    rows_out: dict[Section, list[_Row]] = field(init=False)
    card_lines: int = 0
    #: Copies listed per (section, Main Deck part); None when a count there did not read.
    by_group: dict[tuple[Section | None, str | None], int | None] = field(default_factory=dict)
    #: Copies listed in the whole table so far (None: one count unreadable).
    listed: int | None = 0
    written_totals: list[WrittenTotal] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.resolver = Resolver(self.pool)
        self.rows_out = {"main": [], "extra": [], "side": []}

    def read(self, name: str | None) -> Deck | None:
        grid = self.grid
        headers: list[tuple[int, list[Block]]] = []
        for r, row in enumerate(grid.rows):
            blocks = _header_blocks(row)
            if blocks:
                headers.append((r, blocks))
        regions: list[tuple[int, int, list[Block]]] = []
        if headers:
            for i, (r, blocks) in enumerate(headers):
                end = headers[i + 1][0] if i + 1 < len(headers) else len(grid.rows)
                for b in blocks:
                    if b.section is None:
                        title = self._title_above(r, b)
                        if title is not None:
                            b.section, b.group = title
                regions.append((r + 1, end, blocks))
        else:
            blocks = _infer_blocks(grid)
            if blocks:
                regions.append((0, len(grid.rows), blocks))
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
        self.check_totals(deck)
        deck.meta.update(self._meta(headers, regions))
        if not headers and not deck.problems and \
                not any(deck.section(s) for s in ("main", "extra", "side")):
            return None
        return deck

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
            qty, nm, code = grid.get(r, b.qty), grid.get(r, b.name), grid.get(r, b.code)
            sec_val = grid.get(r, b.section_col)
            if qty is None and nm is None and code is None:
                word = section_word(sec_val) if isinstance(sec_val, str) else None
                if word:
                    state.switch(word)
                continue
            name_s = _text(nm)
            filled = [v for v in (qty, nm, code) if v is not None]
            title = nm if isinstance(nm, str) else filled[0] if len(filled) == 1 else None
            hit = section_word(title) if isinstance(title, str) else None
            if hit is not None:
                state.switch(hit)
                continue
            label = name_s if name_s and is_total(name_s) else \
                qty if isinstance(qty, str) and is_total(qty) else \
                code if isinstance(code, str) and is_total(code) else None
            if label is not None:
                self._written_total(label, r, b, state)
                continue
            self.card_lines += 1
            if self.card_lines > MAX_ENTRIES:
                where_ = grid.source or "the table"
                raise too_many_entries(f"{where_}:{grid.sheet}" if grid.sheet else where_)
            section = state.section
            if sec_val is not None:
                hit = section_word(_text(sec_val))
                if hit is not None:
                    section = hit[0]
            # a value was read from that column, so the column is not None
            where = grid.loc(r, b.name if nm is not None else b.code if code is not None
                             else b.qty)  # type: ignore[arg-type]
            pc = self.resolver.passcode_of(_text(code)) if code is not None else None
            if pc is None and isinstance(nm, int) and nm >= 1000:
                pc = nm
            written = name_s or _text(code)
            if pc is None:
                if not name_s:
                    if _meant_a_card(qty, code):
                        deck.problems.append(_unusable_row(
                            code if code is not None else qty, section,
                            grid.loc(r, b.code if code is not None  # type: ignore[arg-type]
                                     else b.qty), code is not None))
                    continue
                found = self.resolver.lookup(name_s)
                if isinstance(found, int):
                    pc = found
                else:
                    if b.qty is not None and qty is None:
                        continue  # a note in the name column
                    n = parse_count(qty) if b.qty is not None else 1
                    self._tally(state, section, n)
                    self.resolver.problems.append(self.resolver.problem(
                        name_s, n if isinstance(n, int) else 1, section, where,
                        found if isinstance(found, list) else None))
                    continue
            if b.qty is not None and qty is None:
                count: int | str = 1
            else:
                count = parse_count(qty) if b.qty is not None else 1
            self._tally(state, section, count)
            if isinstance(count, str):
                # a count that does not parse comes from the quantity column: b.qty is set
                deck.problems.append(bad_count(qty, written, section, count,
                                               grid.loc(r, b.qty)))  # type: ignore[arg-type]
                continue
            sec = section if section is not None else place_by_frame(self.pool, pc)
            last = state.last
            if last is not None and last.passcode == pc and last.section == sec:
                last.count += count
                continue
            row = _Row(pc, written, count, where, sec)
            self.rows_out[sec].append(row)
            state.last = row

    def _tally(self, state: _State, section: Section | None, count: int | str) -> None:
        """Count a row's copies for the totals rows (a count that does not read spoils them)."""
        n = count if isinstance(count, int) else None
        state.since = None if n is None or state.since is None else state.since + n
        key = (section, state.group)
        self.listed = None if n is None or self.listed is None else self.listed + n
        state.listed = None if n is None or state.listed is None else state.listed + n
        for tally in (self.by_group, state.by_group):
            if key not in tally or tally[key] is not None:
                tally[key] = None if n is None else (tally.get(key) or 0) + n

    def _written_total(self, label: str, r: int, b: Block, state: _State) -> None:
        """Remember a totals row that states a number, to cross-check it once all is read."""
        grid = self.grid
        number, col = None, None
        for c in (b.qty, b.name, b.code):
            v = grid.get(r, c)
            if isinstance(v, str) and v.strip().isascii() and v.strip().isdigit() \
                    and len(v.strip()) <= 4:
                v = int(v)
            if isinstance(v, int) and not isinstance(v, bool):
                number, col = v, c
                break
        text, trailing = split_trailing_count(label)
        if number is None:
            number = trailing
            col = next((c for c in (b.name, b.qty, b.code) if grid.get(r, c) == label), None)
        listed, state.since = state.since, 0
        if number is None or col is None:
            return
        rest = " ".join(w for w in text.replace(":", " ").replace("：", " ").split()
                        if normalize(w) not in TOTAL_WORDS)
        where = grid.loc(r, col)
        if not rest or normalize(rest) in ("cards", "card"):
            # the rows since the last marker, or a grand total of the block or the table
            if listed:
                self.written_totals.append(WrittenTotal(
                    label, number, where, "rows",
                    local=(listed, *(n for n in (state.listed, self.listed) if n))))
            return
        hit = section_word(rest)
        if hit is None:
            return
        local = tuple(n for n in (listed, state.by_group.get(hit)) if n)
        self.written_totals.append(WrittenTotal(
            label, number, where, "group" if hit[1] is not None else "section", hit[0], hit[1],
            local=local))

    def check_totals(self, deck: Deck) -> None:
        """A problem for each written total that differs from the copies listed."""
        for t in self.written_totals:
            if t.scope == "rows":
                listed: int | None = t.local[0]
            elif t.scope == "group":
                listed = self.by_group.get((t.section, t.group), 0)
            else:
                listed = self._section_listed(deck, t.section)
            if listed is None or listed == t.number or t.number in t.local:
                continue
            what = t.label if len(t.label) <= 40 else t.label[:37] + "..."
            deck.problems.append(ReadProblem(
                kind="written-total", section=t.section, written=what, count=t.number,
                location=t.location,
                message=f"The total written at {t.location.cell} ({what!r}) is {t.number}, but "
                        f"{'1 card is' if listed == 1 else f'{listed} cards are'} listed; "
                        "correct the total or the list."))

    def _section_listed(self, deck: Deck, section: Section | None) -> int | None:
        if any(k[0] == section and v is None for k, v in self.by_group.items()):
            return None
        assert section is not None
        unknown = sum(p.count or 0 for p in deck.problems if p.kind in (
            "unknown-name", "ambiguous-name") and (p.section or "main") == section)
        return deck.size(section) + unknown

    def _meta(self, headers: list[tuple[int, list[Block]]],
              regions: list[tuple[int, int, list[Block]]]) -> dict[str, str]:
        header_rows = {r for r, _ in headers}
        first_header = headers[0][0] if headers else 0
        spans = [(s, e, b.first, b.last) for s, e, blocks in regions for b in blocks]
        out: dict[str, str] = {}
        for r, row in enumerate(self.grid.rows):
            if r in header_rows:
                continue
            for c, v in enumerate(row):
                if not isinstance(v, str) or len(v) > 60:
                    continue
                if r >= first_header and any(s <= r < e and f <= c <= la for s, e, f, la in spans):
                    continue
                label, _, after = v.partition(":") if ":" in v else v.partition("：")
                key = _META_LABELS.get(normalize(label))
                if key is None or key in out:
                    continue
                value = after.strip()
                if not value:
                    for v2 in row[c + 1:]:
                        if v2 is not None:
                            value = _text(v2)
                            break
                if value and not set(value) <= set("_.-— "):
                    out[key] = value
        if "player" not in out and ("first_name" in out or "last_name" in out):
            out["player"] = " ".join(x for x in (out.get("first_name"), out.get("last_name")) if x)
        return out


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


def escape_cell(value: str) -> str:
    """Text safe for a spreadsheet cell: values that a spreadsheet would run as a formula
    (starting with =, +, -, @, tab, CR or LF: `FORMULA_START`) get a leading `'`."""
    return "'" + value if value.startswith(FORMULA_START) else value


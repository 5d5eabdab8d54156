"""xlsx decklists: read every sheet through the table layout detection (one deck per sheet),
and write a printable registration sheet.

Reading checks the archive before openpyxl sees it (a zip bomb is refused by the sizes its
entries declare and their compression ratio), reads cached values of formulas
(`data_only=True`) in read-only mode, and locates every entry at `Sheet!B12`.

The registration sheet (`write_xlsx`) is what a player prints and signs: player fields (blank
lines when not given), the Main Deck split into Monster / Spell / Trap cards with quantities
and totals, the Extra and Side Decks beside it, deck totals and a signature line, set up for A4
(portrait, fit to width, print area, the table header repeated, a footer with the player and
page numbers, borders, bold headers; long card names shrink to fit). Text that a spreadsheet
would run as a formula is stored as quote-prefixed text and prints as written; characters a
worksheet cannot hold are dropped or replaced. It reads back as the same deck (passcodes
included, so alternate artworks survive).

openpyxl is imported only here, and only when a workbook is read or written.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass
from typing import Any

from deckcheck.cards.model import Kind
from deckcheck.cards.pool import CardPool
from deckcheck.decks.cells import LONE_SURROGATE, escape_cell
from deckcheck.decks.model import Deck, Location, ReadProblem, Section
from deckcheck.decks.source import MAX_COLS
from deckcheck.decks.source import MAX_ROWS as MAX_ROWS  # the bound its readers apply
from deckcheck.decks.tabular import Grid, clean, read_grid, read_pasted_column
from deckcheck.decks.xlsx_guard import check_archive as check_archive
from deckcheck.errors import DeckReadError

#: Characters a worksheet cannot hold: XML-illegal controls (dropped) and lone surrogates from
#: file names that are not UTF-8 (each becomes U+FFFD). openpyxl refuses the first and writes
#: the second as a character reference no XML parser reads back.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: Excel's limit on the text of one cell.
MAX_CELL_TEXT = 32767

#: Player fields of the registration sheet, as Konami's TCG form names them: option name ->
#: printed label. `player` (a whole name) is also accepted and split into first and last name.
PLAYER_FIELDS = {
    "first_name": "First Name",
    "last_name": "Last Name",
    "player_id": "CARD GAME ID",
    "event": "Event Name",
    "date": "Event Date",
    "country": "Country of Residence",
    "deck_name": "Deck Name",
}
#: Problems whose card is printed as written (the sheet keeps what the player registered).
_PRINTED_AS_WRITTEN = ("unknown-name", "ambiguous-name")


def split_name(player: str) -> tuple[str, str]:
    """(first name, last name) of a whole name: the last word is the last name ("Jane van
    Doe" -> ("Jane van", "Doe")); a single word is a first name."""
    words = player.split()
    if len(words) < 2:
        return " ".join(words), ""
    return " ".join(words[:-1]), words[-1]


def sheet_problems(deck: Deck, pool: CardPool | None) -> list[ReadProblem]:
    """What a front end should show as warnings when printing `deck` on a registration sheet:
    the reader's problems (an unknown name is printed as written) and passcodes the card pool
    does not know (printed without a name) — the same as `convert` reports."""
    from deckcheck.decks.resolve import unknown_passcodes

    out = list(deck.problems)
    if pool is not None:
        out.extend(unknown_passcodes(deck, pool))
    return out


@dataclass(frozen=True)
class SkippedSheet:
    """A sheet that holds no deck, and why (one sentence); `unreadable` when it looked like a
    deck but could not be read (too large, say), rather than holding nothing to read."""

    sheet: str
    reason: str
    unreadable: bool = False


def read_grids(data: bytes, source: str = "", max_unzipped: int | None = None) -> list[Grid]:
    """Every sheet's cells (up to `MAX_ROWS` rows and `MAX_COLS` columns; `Grid.cut` when a
    sheet has more rows), after `check_archive` (with `max_unzipped` when given).
    DeckReadError when it is no workbook."""
    where = source or "the workbook"
    check_archive(data, where, max_unzipped)
    from openpyxl import load_workbook

    grids: list[Grid] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            try:
                for ws in wb.worksheets:
                    rows: list[list[Any]] = []
                    cut = False
                    for i, row in enumerate(ws.iter_rows(min_row=1, min_col=1, max_col=MAX_COLS,
                                                         values_only=True)):
                        if i >= MAX_ROWS:
                            cut = True
                            break
                        rows.append([clean(v) for v in row])
                    while rows and all(v is None for v in rows[-1]):
                        rows.pop()
                    grids.append(Grid(rows, source, sheet=ws.title, cut=cut))
            finally:
                wb.close()
    except DeckReadError:
        raise
    except Exception as exc:  # openpyxl raises many kinds on damaged files
        detail = "parts of the workbook are missing" if isinstance(exc, KeyError) else (
            str(exc).strip().rstrip(".") or type(exc).__name__)
        raise DeckReadError(f"{where} is not a readable xlsx workbook ({detail}); open and save "
                            "it again in a spreadsheet program.") from None
    return grids


def read_sheet(grid: Grid, pool: CardPool | None) -> Deck | SkippedSheet:
    """The deck in one sheet, or why there is none: a card table, else a list pasted into one
    column ("3 Ash Blossom & Joyous Spring" per row)."""
    sheet = grid.sheet or "?"
    if not any(v is not None for row in grid.rows for v in row):
        return SkippedSheet(sheet, f"Sheet {sheet} is empty.")
    try:
        deck = read_grid(grid, pool, sheet)
        if deck is None:
            deck = read_pasted_column(grid, pool, sheet)
    except DeckReadError as exc:
        return SkippedSheet(sheet, exc.message, unreadable=True)
    if deck is None:
        return SkippedSheet(sheet, f"Sheet {sheet} holds no table of cards (no quantity, name "
                                   "or passcode columns) and no list of cards in one column.")
    if grid.cut:
        deck.problems.append(ReadProblem(
            kind="bad-line", location=Location(source=grid.source or None, sheet=sheet),
            message=f"Sheet {sheet} has more than {MAX_ROWS:,} rows; only the first "
                    f"{MAX_ROWS:,} were read — split the sheet or remove the extra rows."))
    return deck


def _has_cards(deck: Deck) -> bool:
    return bool(deck.problems) or any(deck.section(s) for s in ("main", "extra", "side"))


def sheets_of(grids: list[Grid], pool: CardPool | None) -> list[Deck | SkippedSheet]:
    """`read_sheet` for each sheet, in order. A sheet with a header row but no card (an
    instructions sheet, an empty template) is skipped when another sheet holds cards."""
    items = [read_sheet(g, pool) for g in grids]
    if any(isinstance(i, Deck) and _has_cards(i) for i in items):
        items = [SkippedSheet(i.name or "?", f"Sheet {i.name} has a card table header but no "
                              "cards (a template or instructions).")
                 if isinstance(i, Deck) and not _has_cards(i) else i for i in items]
    return items


def read_sheets(data: bytes, pool: CardPool | None, source: str = "") -> list[Deck | SkippedSheet]:
    """One item per sheet, in order: its deck (Deck.name = the sheet's name) or why it holds
    none (see `sheets_of`). DeckReadError when the file is no readable workbook."""
    return sheets_of(read_grids(data, source), pool)


def read_xlsx(data: bytes, pool: CardPool | None, source: str = "") -> list[Deck]:
    """One deck per sheet that holds one (Deck.name = sheet name); DeckReadError if none does,
    with the reason of each sheet."""
    return decks_of(read_grids(data, source), pool, source)


def decks_of(grids: list[Grid], pool: CardPool | None, source: str = "") -> list[Deck]:
    """`read_xlsx` of sheets already read (`read_grids`: no card pool needed for that part,
    so a caller may do it apart, e.g. outside a lock on the pool)."""
    where = source or "the workbook"
    items = sheets_of(grids, pool)
    decks = [i for i in items if isinstance(i, Deck)]
    if decks:
        return decks
    skipped = [i for i in items if isinstance(i, SkippedSheet)]
    unreadable = [i for i in skipped if i.unreadable]
    if len(unreadable) == 1 and len(skipped) == 1:
        raise DeckReadError(unreadable[0].reason)
    if unreadable:
        raise DeckReadError(f"{where}: no sheet could be read as a deck; "
                            + " ".join(i.reason for i in unreadable))
    raise DeckReadError(f"{where}: no sheet holds a table of cards (no quantity/name/"
                        "passcode columns found); add a header row like 'Qty | Card Name'.")


def sheet_fields(deck: Deck, fields: dict[str, str | None]) -> dict[str, str]:
    """The player fields of a printed sheet (`PLAYER_FIELDS` keys, "" when unknown): those
    given (`player`, a whole name, is split into first and last name), else the deck's own.
    TypeError for a field no sheet has."""
    unknown = set(fields) - set(PLAYER_FIELDS) - {"player"}
    if unknown:
        raise TypeError(f"unknown registration sheet fields: {sorted(unknown)}")
    values = {k: (fields.get(k) or "") for k in PLAYER_FIELDS}
    player = fields.get("player")
    if player and not (values["first_name"] or values["last_name"]):
        values["first_name"], values["last_name"] = split_name(player)
    if not (values["first_name"] or values["last_name"] or player):  # the deck's own fields
        values["first_name"] = deck.meta.get("first_name", "")
        values["last_name"] = deck.meta.get("last_name", "")
        if not (values["first_name"] or values["last_name"]) and deck.meta.get("player"):
            values["first_name"], values["last_name"] = split_name(deck.meta["player"])
    for k in ("player_id", "event", "date", "country", "deck_name"):
        values[k] = values[k] or deck.meta.get(k, "")
    return values


def sheet_lines(deck: Deck, pool: CardPool | None) -> dict[str, list[tuple[int, str, int | None]]]:
    """Lines as (count, name, passcode) in sheet groups: one line per card name in a group,
    with the copies of all its artworks added up (as Konami's form asks), under the card's
    own passcode; a passcode the pool does not know is a line of its own without a name; a
    name that did not resolve is printed as written, so that no registered card is dropped."""
    groups: dict[str, list[tuple[int, str, int | None]]] = {
        "Monster Cards": [], "Spell Cards": [], "Trap Cards": [], "Main Deck": [],
        "Extra Deck": [], "Side Deck": []}
    lines: dict[tuple[str, str, int | None], int] = {}
    for sec, e in deck.entries():
        card = pool.get(e.passcode) if pool is not None and e.passcode is not None else None
        key: tuple[str, str, int | None]
        if card is not None:
            key = (_group_of(sec, card.kind), card.name, card.passcode)
        else:
            label = "" if e.passcode is not None else (e.written or "")
            key = (_group_of(sec, None), label, e.passcode)
        lines[key] = lines.get(key, 0) + e.count
    for p in deck.problems:
        if p.kind in _PRINTED_AS_WRITTEN and p.written:
            key = (_group_of(p.section or "main", None), p.written, None)
            lines[key] = lines.get(key, 0) + (p.count or 1)
    for (group, label, passcode), count in lines.items():
        groups[group].append((count, label, passcode))
    return groups


def _group_of(section: Section, kind: Kind | None) -> str:
    if section != "main":
        return "Extra Deck" if section == "extra" else "Side Deck"
    return {Kind.MONSTER: "Monster Cards", Kind.SPELL: "Spell Cards",
            Kind.TRAP: "Trap Cards"}.get(kind, "Main Deck") if kind is not None else "Main Deck"


def sheet_text(value: str) -> str:
    """Text as a worksheet can hold it (see `_CONTROL`, `LONE_SURROGATE`, `MAX_CELL_TEXT`)."""
    return LONE_SURROGATE.sub("\ufffd", _CONTROL.sub("", value))[:MAX_CELL_TEXT]


def _put_text(cell: Any, value: str) -> None:
    """Store `value` as text. Text a spreadsheet would take for a formula (`=1+1`) is stored as
    a string with the quote-prefix style, as if typed with a leading `'`: it prints as written
    and stays text when edited, and no formula is ever written."""
    text = sheet_text(value)
    cell.value = text
    if escape_cell(text) != text:
        cell.data_type = "s"   # openpyxl took it for a formula
        cell.quotePrefix = True


def write_xlsx(deck: Deck, pool: CardPool | None, **fields: str | None) -> bytes:
    """A printable, signable registration sheet for the deck (see the module docstring).
    `fields`: first_name, last_name (or player, split), player_id, event, date, country,
    deck_name (blank lines when missing; the deck's own fields fill them where it has them).
    Warnings to show while writing one: `sheet_problems`."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
    from openpyxl.worksheet.properties import PageSetupProperties
    from openpyxl.worksheet.worksheet import Worksheet

    values = sheet_fields(deck, fields)

    wb = Workbook()
    ws = wb.active
    assert isinstance(ws, Worksheet)  # a new workbook starts with one worksheet
    title = "".join(ch for ch in sheet_text(deck.name or "Deck") if ch not in "[]:*?/\\")
    ws.title = title[:31].strip("'") or "Deck"
    thin = Side(style="thin")
    box = Border(left=thin, right=thin, top=thin, bottom=thin)
    underline = Border(bottom=thin)
    # name the font everywhere: a nameless bold font prints in a fallback (serif) face
    bold = Font(name="Calibri", size=11, bold=True)
    shade = PatternFill("solid", fgColor="DDDDDD")
    center = Alignment(horizontal="center")
    shrink = Alignment(shrink_to_fit=True)   # long card names shrink instead of being cut
    for col, width in zip("ABCDEFG", (6, 36, 11, 2, 6, 36, 11), strict=True):
        ws.column_dimensions[col].width = width

    ws["A1"] = "Yu-Gi-Oh! TRADING CARD GAME — Deck Registration Sheet"
    ws["A1"].font = Font(name="Calibri", bold=True, size=14)
    ws["A1"].alignment = Alignment(horizontal="center")
    ws.merge_cells("A1:G1")
    row = 3
    for key, label in PLAYER_FIELDS.items():
        ws.cell(row, 1, label).font = bold
        ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=2)
        value = values[key]
        if value:
            _put_text(ws.cell(row, 3), str(value))
            ws.cell(row, 3).alignment = shrink
        ws.merge_cells(start_row=row, start_column=3, end_row=row, end_column=7)
        for c in range(3, 8):
            ws.cell(row, c).border = underline
        row += 1

    header = row + 1
    for start in (1, 5):
        for i, text in enumerate(("Qty", "Card Name", "Passcode")):
            cell = ws.cell(header, start + i, text)
            cell.font, cell.fill, cell.border = bold, shade, box
    groups = sheet_lines(deck, pool)

    def block(start_col: int, names: list[str], first_row: int) -> int:
        r = first_row
        for group in names:
            items = groups[group]
            if not items and group == "Main Deck":
                continue
            cell = ws.cell(r, start_col + 1, group)
            cell.font, cell.fill = bold, shade
            for c in range(start_col, start_col + 3):
                ws.cell(r, c).border = box
            r += 1
            for count, label, pc in items:
                ws.cell(r, start_col, count).alignment = center
                _put_text(ws.cell(r, start_col + 1), label)
                ws.cell(r, start_col + 1).alignment = shrink
                if pc is not None:  # 8 digits, as printed on the card
                    ws.cell(r, start_col + 2, pc).number_format = "00000000"
                for c in range(start_col, start_col + 3):
                    ws.cell(r, c).border = box
                r += 1
            total = ws.cell(r, start_col, sum(n for n, _, _ in items))
            total.font, total.alignment = bold, center
            ws.cell(r, start_col + 1, f"Total {group}").font = bold
            for c in range(start_col, start_col + 3):
                ws.cell(r, c).border = box
            r += 2
        return r

    left_end = block(1, ["Monster Cards", "Spell Cards", "Trap Cards", "Main Deck"], header + 1)
    right_end = block(5, ["Extra Deck", "Side Deck"], header + 1)
    row = max(left_end, right_end)
    totals: tuple[tuple[tuple[str, ...], str], ...] = (
        (("Monster Cards", "Spell Cards", "Trap Cards", "Main Deck"), "Main Deck total"),
        (("Extra Deck",), "Extra Deck total"), (("Side Deck",), "Side Deck total"))
    for names, label in totals:  # every printed line counts, names printed as written too
        total = ws.cell(row, 1, sum(n for g in names for n, _, _ in groups[g]))
        total.font, total.alignment = bold, center
        ws.cell(row, 2, label).font = bold
        row += 1
    row += 1
    ws.cell(row, 1, "Player signature").font = bold
    ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=2)
    for c in range(3, 8):
        ws.cell(row, c).border = underline
    row += 2
    ws.cell(row, 1, "Judge / staff initials").font = bold
    ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=2)
    for c in range(3, 5):
        ws.cell(row, c).border = underline

    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "portrait"
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.print_area = f"A1:G{row}"
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.5
    ws.print_title_rows = f"{header}:{header}"
    # whose sheet a second page is, and how many there are ("&" is a code there; Excel allows
    # 255 characters in all)
    name = " ".join(v for v in (values["first_name"], values["last_name"]) if v)
    who = " / ".join(sheet_text(v)[:80].replace("&", "&&")
                     for v in (name, values["player_id"]) if v)
    footer = ws.oddFooter
    assert footer is not None  # every worksheet has one (empty until set)
    footer.left.text = who or None
    footer.right.text = "Page &P of &N"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()

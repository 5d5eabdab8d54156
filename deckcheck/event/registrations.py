"""Reading an event's registrations: one decklist per player in deck files, workbooks, CSV.

- A folder is searched recursively for deck files (`DECK_SUFFIXES`); hidden files and
  spreadsheet lock files (`~$…`) are skipped; files are taken in sorted path order.
- A deck file (.ydk, .txt, .ydke, …) is one registration per deck it holds. The player is
  taken from the file's own fields (`meta["player"]`, `meta["player_id"]`) or else from the
  file name: `Jane Doe 0301234567.ydk` gives player "Jane Doe", id "0301234567"; a generic
  file name (`deck.ydk`) gives the folder's name instead.
- A workbook is either one deck per sheet (the sheet name is the player) or, when a sheet
  has a registration-table header (see `deckcheck.event.table`), one player per row.
- A CSV file is either a registration table (one player per row) or one deck.

One unreadable file or row never stops the rest: it becomes a registration with `error` set
to a one-sentence reason.

Nothing is dropped in silence: `discover_items` / `read_items` give every input as an item —
a `Registration` (with `error` for a "could not read" row) or a `Skipped` with its reason (a
README next to the decks, a hidden file, a lock file, an earlier report, an empty sheet, a
template, a registration table without rows). `discover` and `read_registrations` keep only
the registrations. Which files are read is `deckcheck.event.inputs`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from pathlib import Path
from typing import Any

from deckcheck.cards.pool import CardPool
from deckcheck.decks.model import Deck, Entry, Location, ReadProblem
from deckcheck.errors import DeckcheckError, DeckReadError
from deckcheck.event.inputs import (
    CSV_SUFFIXES,
    WORKBOOK_SUFFIXES,
    Progress,
    Skipped,
    expand_items,
    expand_some,
    no_deck_files,
)
from deckcheck.event.models import Registration

_PLAYER_KEYS = ("player", "player_name", "playername", "player name")
_ID_KEYS = ("player_id", "konami_id", "card_game_id", "cossy_id", "player id", "konami id")
_STEM_SEPARATORS = frozenset("_-.,()#")


def _stem_separator(ch: str) -> bool:
    return ch.isspace() or ch in _STEM_SEPARATORS


#: What reading a source gives, item by item: a registration (with `error` set when it could
#: not be read: a "could not read" row) or a skipped input.
Item = Registration | Skipped


def discover(sources: Iterable[str | Path], pool: CardPool | None, *,
             progress: Progress | None = None) -> list[Registration]:
    """Every registration in `sources`, in a deterministic order (DeckReadError when they
    hold no deck file at all)."""
    files = expand_some(sources)
    regs: list[Registration] = []
    for done, path in enumerate(files, 1):
        regs.extend(read_registrations(path, pool))
        if progress is not None:
            progress("read", done, len(files))
    if not regs:
        raise no_registrations(files)
    return regs


_EMPTY_TABLE = "{} is a registration table without rows; add one row per player."


def no_registrations(files: Sequence[Path]) -> DeckReadError:
    """The error for deck files that hold no registration at all (tables with no rows)."""
    names = ", ".join(str(p) for p in files[:3]) + (", …" if len(files) > 3 else "")
    return DeckReadError(f"{names}: no registration found (the registration table has no "
                         "rows); add one row per player.")


def discover_items(sources: Iterable[str | Path], pool: CardPool | None, *,
                   progress: Progress | None = None) -> list[Item]:
    """Every input in `sources`, in a deterministic order, each accounted for: a registration
    (a "could not read" one carries its reason in `error`) or a `Skipped` with the reason.
    DeckReadError when the sources hold no deck file at all."""
    sources = list(sources)
    entries = expand_items(sources)
    todo = sum(isinstance(e, Path) for e in entries)
    if not todo:  # sources without any deck file
        raise no_deck_files(sources)
    items: list[Item] = []
    done = 0
    for entry in entries:
        if isinstance(entry, Skipped):
            items.append(entry)
            continue
        items.extend(read_items(entry, pool))
        done += 1
        if progress is not None:
            progress("read", done, todo)
    return items


def read_registrations(path: Path, pool: CardPool | None) -> list[Registration]:
    """The registrations in one file; a file that cannot be read is one registration with
    the reason, never an exception (what it holds that is no registration: `read_items`)."""
    return [i for i in read_items(path, pool) if isinstance(i, Registration)]


def read_items(path: Path, pool: CardPool | None) -> list[Item]:
    """Everything in one file: its registrations, and what was skipped in it (an empty sheet,
    a registration table without rows) with the reason. A file that cannot be read is one
    registration with the reason, never an exception."""
    label = str(path)
    try:
        suffix = path.suffix.lower()
        if suffix in WORKBOOK_SUFFIXES:
            return _workbook_items(path, pool)
        if suffix in CSV_SUFFIXES:
            regs, rows = _read_csv_table(path, pool)
            if regs is not None:
                return list(regs) if regs else [Skipped(label, _EMPTY_TABLE.format(label))]
            from deckcheck.event import table

            why = table.diagnose(rows)
            if why is not None:  # meant as a registration table: say what it lacks
                raise no_table(label, why, "")
            from deckcheck.decks.csvfile import NoCardTable

            try:
                return list(_from_decks(path, read_file(path, pool)))
            except NoCardTable:
                raise no_table(label, None, "'Qty,Card Name'") from None
        return list(_from_decks(path, read_file(path, pool)))
    except Exception as exc:  # one bad file never stops the event
        player, player_id = player_from_stem(path)
        # asked only when reading failed: no extra stat per file
        error = reason(exc, label) if path.exists() else f"{label} does not exist: check " \
            "the path."
        return [Registration(source=label, player=player, player_id=player_id, error=error)]


def no_table(where: str, why: str | None, card_header: str) -> DeckReadError:
    """The error for a table that is neither a registration table nor a deck: what a
    registration table needs (with `why` it is not one, when its header looks like one)."""
    from deckcheck.event import table

    if why is not None:
        return DeckReadError(f"{where} is no registration table: {why}; a registration table "
                             f"needs {table.expected_table()}.")
    return DeckReadError(f"{where} holds neither a registration table ({table.expected_table()}) "
                         f"nor a deck table (a header row like {card_header}).")


def reason(exc: BaseException, where: str) -> str:
    """One sentence for a file or row that could not be read."""
    if isinstance(exc, DeckcheckError):
        return exc.message if where in exc.message else f"{where}: {exc.message}"
    if isinstance(exc, OSError):
        return f"{where} could not be opened ({exc.strerror or exc})."
    if isinstance(exc, UnicodeDecodeError):
        return f"{where} is not a text file in a known encoding."
    return f"{where} could not be read ({type(exc).__name__}: {exc})."


# --- deck files -----------------------------------------------------------------------------

def read_file(path: Path, pool: CardPool | None) -> list[Deck]:
    """Every deck in one deck file (the deck readers' `read_decks`)."""
    from deckcheck.decks.files import read_decks

    return read_decks(path, pool)


#: File names that say nothing about the player: the folder's name is used instead
#: (`Jane Doe/deck.ydk` is Jane Doe's).
GENERIC_STEMS = frozenset({"deck", "decklist", "deck list", "deck_list", "list", "main",
                           "registration", "ydk", "my deck", "mydeck"})


def player_from_stem(path: Path) -> tuple[str | None, str | None]:
    """(player, id) from a file name: "Jane Doe 0301234567" -> ("Jane Doe", "0301234567");
    from the folder's name when the file name is generic ("Jane Doe/deck.ydk")."""
    stem = path.stem.strip()
    if stem.casefold() in GENERIC_STEMS and path.parent.name:
        stem = path.parent.name.strip()
    name, player_id = _split_stem_id(stem)
    if player_id is not None and name.strip():
        return _clean_name(name), player_id
    return _clean_name(stem) or None, None


def _split_stem_id(stem: str) -> tuple[str, str | None]:
    """("Jane Doe", "0301234567") for "Jane Doe 0301234567" or "Jane Doe (0301234567)": an id
    of 6 to 12 digits after a separator at the end. A backwards scan, linear on any name."""
    end = len(stem) - 1 if stem.endswith(")") else len(stem)
    i = end
    while i and stem[i - 1].isdecimal():
        i -= 1
    if not 6 <= end - i <= 12 or not i or not _stem_separator(stem[i - 1]):
        return stem, None
    player_id = stem[i:end]
    while i and _stem_separator(stem[i - 1]):
        i -= 1
    return stem[:i], player_id


def _clean_name(text: str) -> str:
    return " ".join(text.replace("_", " ").split())


def _meta(deck: Deck, keys: Sequence[str]) -> str | None:
    for k in keys:
        value = deck.meta.get(k)
        if value and value.strip():
            return " ".join(value.split())
    return None


def _from_decks(path: Path, decks: list[Deck]) -> list[Registration]:
    if not decks:
        raise DeckcheckError(f"{path} holds no deck: check that it is a decklist.")
    stem_player, stem_id = player_from_stem(path)
    regs = []
    workbook = path.suffix.lower() in WORKBOOK_SUFFIXES
    for deck in decks:
        sheet = _sheet_of(deck) or (deck.name if workbook else None)  # xlsx: name = sheet
        player = _meta(deck, _PLAYER_KEYS)
        if player is None:
            player = (sheet or deck.name) if len(decks) > 1 or sheet else stem_player
        player_id = _meta(deck, _ID_KEYS) or (stem_id if len(decks) == 1 and not sheet else None)
        source = f"{path}:{sheet}" if sheet else str(path)
        if deck.source != source:  # deck-wide problems then point at the sheet
            deck = deck.model_copy(update={"source": source})
        regs.append(Registration(source=source, player=player, player_id=player_id, deck=deck))
    return regs


_SHEET = attrgetter("location.sheet")


def _sheet_of(deck: Deck) -> str | None:
    for entries in (deck.main, deck.extra, deck.side):
        if any(map(_SHEET, entries)):  # most decks: no sheet, asked without a Python loop
            for entry in entries:
                if entry.location.sheet:
                    return entry.location.sheet
    for problem in deck.problems:
        if problem.location.sheet:
            return problem.location.sheet
    return deck.meta.get("sheet")


# --- deck cells of registration tables ---------------------------------------------------------

def _omega(cell: str) -> bool:
    from deckcheck.decks.omega import looks_like_omega

    return looks_like_omega(cell)


_PASSCODES = re.compile(r"^[\d\s,;]+$")


def read_cell(text: str, pool: CardPool | None, location: Location) -> Deck:
    """The deck in one table cell: a ydke:// URL, an Omega code, a pasted list or passcodes.
    Every entry's and problem's location becomes the cell's (the line inside the cell is
    kept as `part`)."""
    where = str(location)
    cell = text.strip()
    if cell.lower().startswith("ydke://"):
        from deckcheck.decks.ydke import read_ydke

        deck = read_ydke(cell.split()[0], where)
    elif "\n" not in cell and " " not in cell and _omega(cell):
        from deckcheck.decks.omega import read_omega

        deck = read_omega(cell, pool, where)
    else:
        from deckcheck.decks.text import read_text

        if _PASSCODES.match(cell):  # "14558127, 14558127 23434538": one per line
            cell = "\n".join(t for t in re.split(r"[\s,;]+", cell) if t)
        elif "\n" not in cell and ("," in cell or ";" in cell):
            # "3 Ash Blossom; 2 Maxx C": one per line
            cell = "\n".join(_items(cell))
        deck = read_text(cell, pool, where)
    return relocate(deck, location)


_COMMA_BEFORE_COUNT = re.compile(r";|,(?=\s*\d)")


def _items(cell: str) -> list[str]:
    """The items of a list pasted on one line, split at `,` and `;`; when a piece would have
    no count ("3 Nibiru, the Primal Being" gives "the Primal Being"), a comma splits only
    before a count, so names keep their commas."""
    pieces = [t.strip() for t in re.split(r"[,;]", cell) if t.strip()]
    if all(_counted(p) for p in pieces):
        return pieces
    return [t.strip() for t in _COMMA_BEFORE_COUNT.split(cell) if t.strip()]


def _counted(piece: str) -> bool:
    """Whether a list item carries its count: "3 Ash", "3x Ash", "Ash x3", "Ash 3"."""
    words = piece.split()
    return any(w.lower().strip("x").isdigit() for w in (words[0], words[-1]))


def _moved(loc: Location, where: Location) -> Location:
    inner = f"line {loc.line}" if loc.line is not None else loc.part
    return where.model_copy(update={"part": inner})


def relocate(deck: Deck, where: Location) -> Deck:
    """The deck with every location pointing at `where` (the table cell or row)."""
    def entries(es: list[Entry]) -> list[Entry]:
        return [e.model_copy(update={"location": _moved(e.location, where)}) for e in es]

    problems: list[ReadProblem] = [p.model_copy(update={"location": _moved(p.location, where)})
                                   for p in deck.problems]
    return deck.model_copy(update={
        "source": str(where), "main": entries(deck.main), "extra": entries(deck.extra),
        "side": entries(deck.side), "problems": problems})


def _table_rows(rows: Sequence[Sequence[Any]], pool: CardPool | None,
                where: Callable[[int, int], Location]) -> list[Registration] | None:
    """Registrations of a table (`where(row_index, col)` locates a cell), or None if `rows`
    is not a registration table."""
    from deckcheck.event import table

    found = table.find_header(rows)
    if found is None:
        return None
    head, cols = found
    if not table.deck_column_holds_decks(rows[head + 1:], cols):
        return None
    regs = []
    for i in range(head + 1, len(rows)):
        row = rows[i]
        if table.is_blank(row):
            continue
        loc = where(i, cols.deck)
        reg = Registration(source=str(loc), player=table.player_of(row, cols),
                           player_id=table.player_id_of(row, cols))
        text = table.deck_of(row, cols)
        if not text:
            reg.error = f"{loc} is empty: the row has no decklist."
        else:
            try:
                reg.deck = read_cell(text, pool, loc)
            except Exception as exc:
                reg.error = reason(exc, str(loc))
        regs.append(reg)
    return regs


# --- workbooks -------------------------------------------------------------------------------

def _workbook_items(path: Path, pool: CardPool | None) -> list[Item]:
    """A workbook's registrations: registration tables (one player per row) and deck sheets
    (one player per sheet), then every sheet holding neither as Skipped (or as a "could not
    read" registration when it looked like a deck). The workbook is read once."""
    from deckcheck.decks.source import read_bytes
    from deckcheck.decks.xlsx import SkippedSheet, read_grids, sheets_of

    grids = read_grids(read_bytes(path), str(path))  # size- and count-bounded
    items, skipped, deck_grids, why = _table_sheets(path, grids, pool)
    sheets = sheets_of(deck_grids, pool) if deck_grids else []
    decks = [s for s in sheets if isinstance(s, Deck)]
    if decks:
        items.extend(_from_decks(path, decks))
    for s in sheets:
        if isinstance(s, SkippedSheet):
            src = f"{path}:{s.sheet}"
            reason_ = s.reason if str(path) in s.reason else f"{path}: {s.reason}"
            if s.unreadable:
                items.append(Registration(source=src, player=s.sheet, error=reason_))
            else:
                skipped.append(Skipped(src, reason_))
    if why and not items and len(skipped) == len(sheets):  # nothing else: an error
        sheet, diagnosis = next(iter(why.items()))
        raise no_table(f"{path}:{sheet}", diagnosis, "")
    for sheet, diagnosis in why.items():  # named with the sheets passed over
        skipped.append(Skipped(f"{path}:{sheet}", no_table(f"{path}:{sheet}", diagnosis,
                                                           "").message))
    if not items and len(skipped) == len(sheets) + len(why):  # no registration table either
        raise no_table(str(path), None, "'Qty | Card Name'")
    return items + skipped


def _table_sheets(path: Path, grids: Sequence[Any], pool: CardPool | None
                  ) -> tuple[list[Item], list[Item], list[Any], dict[str, str]]:
    """The registration tables of a workbook's sheets: (their registrations, what was
    skipped in them, the other sheets' grids, and sheet -> why it is no registration table
    for the sheets whose header looks like one)."""
    from deckcheck.decks import xlsx
    from deckcheck.decks.cells import column_letter
    from deckcheck.event import table

    items: list[Item] = []
    skipped: list[Item] = []
    deck_grids = []
    why: dict[str, str] = {}
    for grid in grids:
        title = grid.sheet or "?"

        def where(i: int, col: int, title: str = title) -> Location:
            return Location(source=str(path), sheet=title, cell=f"{column_letter(col)}{i + 1}")

        regs = _table_rows(grid.rows, pool, where)
        if regs is None:
            diagnosis = table.diagnose(grid.rows)
            if diagnosis is None:
                deck_grids.append(grid)
            else:  # meant as a registration table: never read as a deck
                why[title] = diagnosis
            continue
        if regs:
            items.extend(regs)
        else:
            skipped.append(Skipped(f"{path}:{title}", _EMPTY_TABLE.format(f"{path}:{title}")))
        if grid.cut:  # the rows past the bound are named, not lost in silence
            skipped.append(Skipped(f"{path}:{title}", (
                f"{path}:{title} has more than {xlsx.MAX_ROWS:,} rows; the rows after row "
                f"{xlsx.MAX_ROWS:,} were not read — split the registrations over several "
                "sheets.")))
    return items, skipped, deck_grids, why


# --- CSV exports -----------------------------------------------------------------------------

def _read_csv_table(path: Path, pool: CardPool | None
                    ) -> tuple[list[Registration] | None, list[list[str]]]:
    """The registrations of a CSV registration table (None if the file is something else),
    and its rows."""
    import csv  # only for a CSV input: not on the way of an event of deck files

    from deckcheck.decks.csvfile import check_cells, guess_delimiter
    from deckcheck.decks.source import MAX_ROWS, decode_text, read_bytes

    text = decode_text(read_bytes(path), str(path)).lstrip("\ufeff")
    delimiter = guess_delimiter(text)
    check_cells(text, delimiter, str(path))
    rows: list[list[str]] = []
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
        if len(rows) >= MAX_ROWS:
            raise DeckReadError(f"{path} has more than {MAX_ROWS:,} rows, which is no deck or "
                                "registration table; split it or check that it is the right "
                                "file.")
        rows.append(row)

    def where(i: int, col: int) -> Location:
        return Location(source=str(path), line=i + 1)

    return _table_rows(rows, pool, where), rows

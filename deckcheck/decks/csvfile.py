"""CSV decklists: read through the table layout detection of `deckcheck.decks.tabular`;
written as `Section,Quantity,Card Name,Passcode` rows.

The delimiter (comma, semicolon, tab or bar) is detected by `guess_delimiter`, which the
event's CSV registration tables share; every entry is located at its line and cell
(`deck.csv:12`, cell `C12`). Written names are guarded against formula injection (a
value starting with =, +, -, @, tab or CR gets a leading `'`, which the reader removes), and a
carriage return inside a name is written as a (quoted) newline, so no name can start a row.
"""

from __future__ import annotations

import csv
import io

from deckcheck.cards.pool import CardPool
from deckcheck.decks.cells import escape_cell
from deckcheck.decks.model import Deck
from deckcheck.decks.source import MAX_COLS, MAX_ROWS, decode_text
from deckcheck.decks.tabular import Grid, clean, read_grid
from deckcheck.errors import DeckReadError

_TITLES = {"main": "Main", "extra": "Extra", "side": "Side"}


class NoCardTable(DeckReadError):
    """A CSV file that holds no table of cards (it may hold something else: an event reads
    it as a registration table first, and says what such a table needs)."""


#: The delimiters `guess_delimiter` chooses from, in order of preference on a tie.
DELIMITERS = (",", ";", "\t", "|")
#: Where a quote opens a quoted cell: the start of a record, or right after a delimiter.
_OPENS_CELL = frozenset((*DELIMITERS, "\n", "\r"))
#: How many non-blank records `guess_delimiter` looks at.
DELIMITER_SAMPLE_LINES = 30
#: How much of the text `guess_delimiter` reads (a sample, never the whole file).
DELIMITER_SAMPLE_CHARS = 65_536


def guess_delimiter(text: str) -> str:
    """The delimiter of a CSV text: of `DELIMITERS`, the one that splits the most of its first
    `DELIMITER_SAMPLE_LINES` non-blank records the same way (the most records holding it the
    same number of times, then the larger number; the earlier delimiter on a tie; "," when
    none is found). Delimiters inside quoted cells are not counted, so a `;` table of
    pasted lists full of commas is a `;` table (a quote opens a cell at the start of a record
    or right after any of the delimiters, as a spreadsheet writes it).

    Records, not the first line alone: a registration table may have title lines above its
    header (`deckcheck.event.table.HEADER_SEARCH_ROWS`), whose commas say nothing.

    >>> guess_delimiter("Regional, Paris\\nPlayer;Deck\\nAnn;ydke://!!!\\n")
    ';'
    >>> guess_delimiter('Spielername;Deckliste\\nAnn;"3 Ash Blossom, 2 Maxx, 1 Nibiru"\\n')
    ';'
    """
    records = _delimiters_per_record(text[:DELIMITER_SAMPLE_CHARS])
    best, score = ",", (0, 0)
    for d in DELIMITERS:
        counts: dict[int, int] = {}
        for record in records:
            n = record.get(d, 0)
            if n:
                counts[n] = counts.get(n, 0) + 1
        for n, k in counts.items():
            if (k, n) > score:
                best, score = d, (k, n)
    return best


def _delimiters_per_record(sample: str) -> list[dict[str, int]]:
    """How many of each delimiter every non-blank record of `sample` holds outside quoted
    cells (at most `DELIMITER_SAMPLE_LINES` records)."""
    records: list[dict[str, int]] = []
    counts: dict[str, int] = {}
    quoted, blank, prev = False, True, "\n"
    i, n = 0, len(sample)
    while i < n and len(records) < DELIMITER_SAMPLE_LINES:
        ch = sample[i]
        if ch == "\r" and not sample.startswith("\n", i + 1):
            ch = "\n"  # a record ended by a lone CR (old Mac files)
        if quoted:
            if ch == '"':
                if sample.startswith('"', i + 1):  # "" is a quote inside the cell
                    i += 2
                    continue
                quoted = False
            i += 1
            prev = ch
            continue
        if ch == "\n":
            if not blank:
                records.append(counts)
            counts, blank = {}, True
        elif ch == '"' and prev in _OPENS_CELL:
            quoted, blank = True, False
        elif ch in DELIMITERS:
            counts[ch] = counts.get(ch, 0) + 1
        elif not ch.isspace():
            blank = False
        prev = ch
        i += 1
    if not blank and len(records) < DELIMITER_SAMPLE_LINES:
        records.append(counts)
    return records


#: At most this many cells in a CSV file, counted by its delimiters before parsing (the csv
#: module builds every field of a row: 19 MB of commas once took 344 MB; and finding the
#: table costs ~8 µs a cell). A registration table of 2,000 players by 15 columns has 30,000.
MAX_CELLS = 100_000


def check_cells(text: str, delimiter: str, where: str) -> None:
    """Refuse a CSV text with more than `MAX_CELLS` cells, before parsing it."""
    if text.count(delimiter) > MAX_CELLS:
        raise DeckReadError(f"{where} has more than {MAX_CELLS:,} cells, which is no deck or "
                            "registration table; check that it is the right file.")


def read_csv(data: bytes | str, pool: CardPool | None, source: str = "", *,
             name: str | None = None) -> Deck:
    """Read a CSV decklist. Raises DeckReadError when no table in it looks like a deck."""
    where = source or "the CSV file"
    text = decode_text(data, where) if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\x00", "")
    delimiter = guess_delimiter(text)
    check_cells(text, delimiter, where)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[list[object]] = []
    lines: list[int] = []
    start = 1
    try:
        for row in reader:
            if len(rows) >= MAX_ROWS:
                raise DeckReadError(f"{where} has more than {MAX_ROWS:,} rows, which is no "
                                    "deck; check that it is the right file.")
            rows.append([clean(v) for v in row[:MAX_COLS]])
            lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DeckReadError(f"{where}:{reader.line_num}: is not valid CSV ({exc}); check "
                            "the quoting.") from None
    deck = read_grid(Grid(rows, source, lines=lines), pool, name)
    if deck is None:
        raise NoCardTable(f"{where} holds no table of cards (no quantity/name/passcode "
                            "columns found); add a header row like 'Qty,Card Name'.")
    return deck


def _one_cell(text: str) -> str:
    """Text that stays one cell: the writer quotes a newline but not a lone CR (its line end
    is "\n"), which a reader would take for a new row."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def write_csv(deck: Deck, pool: CardPool | None) -> str:
    """The deck as CSV: one row per entry, `Section,Quantity,Card Name,Passcode`."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Section", "Quantity", "Card Name", "Passcode"])
    for sec, e in deck.entries():
        card = pool.get(e.passcode) if pool is not None and e.passcode is not None else None
        label = card.name if card is not None else (e.written if e.passcode is None else "")
        w.writerow([_TITLES[sec], e.count, escape_cell(_one_cell(label or "")),
                    "" if e.passcode is None else e.passcode])
    return out.getvalue()

"""Output safety in every deck writer (issue 12, OWASP CSV injection): a cell that starts with
= + - @, tab, CR or LF is written as text — a leading `'` in CSV, a quote-prefixed string in xlsx —
and reads back as written."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from openpyxl import load_workbook

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.csvfile import read_csv, write_csv
from deckcheck.decks.model import Deck, Entry, Location, ReadProblem
from deckcheck.decks.xlsx import write_xlsx

DANGEROUS = ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", "\n=1", "=HYPERLINK(\"x\")"]


def _deck(name: str) -> Deck:
    # an unknown name is kept as a problem and printed as written on the sheet
    return Deck(main=[Entry(passcode=14558127, count=3), Entry(written=name, count=1)],
                problems=[ReadProblem(kind="unknown-name", message="?", written=name, count=2,
                                      section="main", location=Location(line=2))])


@pytest.mark.parametrize("text", DANGEROUS)
def test_csv_cells_are_never_formulas(text: str, pool: MemoryPool) -> None:
    out = write_csv(_deck(text), pool)
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert len(rows) == 3  # header, Ash Blossom, the name: no forged row
    cells = [c for row in rows for c in row]
    # a CR becomes a line break inside the one cell; a leading line break is quoted too
    assert "'" + text.replace("\r", "\n") in cells
    assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r", "\n")) for c in cells)
    back = read_csv(out, pool, "d.csv")
    assert len(back.problems) == 1 and back.size("main") == 3


@pytest.mark.parametrize("text", DANGEROUS)
def test_xlsx_cells_are_never_formulas(text: str, pool: MemoryPool) -> None:
    data = write_xlsx(_deck(text), pool, player=text, player_id=text, event=text, date=text,
                      country=text, deck_name=text)
    ws = load_workbook(io.BytesIO(data)).active
    cells = [c for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert not any(c.data_type == "f" for row in ws.iter_rows() for c in row)
    risky = [c for c in cells if c.value.startswith(("=", "+", "-", "@", "\t", "\r", "\n"))]
    assert risky and all(c.data_type == "s" and c.quotePrefix for c in risky)
    assert b"<f>" not in data and b"<f " not in data


def test_one_formula_guard_for_every_writer() -> None:
    """Issue 23: the guard was written three times, and the copies disagreed on a leading
    line break (the event CSV and the deck writers let "\\n=1+1" through)."""
    from deckcheck.decks import cells, tabular
    from deckcheck.event import report_csv, xlsx_tables

    assert xlsx_tables.FORMULA_START is tabular.FORMULA_START is cells.FORMULA_START
    assert cells.escape_cell("\n=1+1") == "'\n=1+1"
    assert report_csv.escape("\n=1+1") == "'\n=1+1"
    assert report_csv.escape(-3) == -3 and report_csv.escape("Ash") == "Ash"


def test_writing_a_report_imports_no_table_reader(tmp_path: Path) -> None:
    """The event's report writers take the cell facts from `decks.cells`: writing a workbook,
    CSV or JSON report imports none of the table readers (`decks.tabular` and the layout,
    totals and name-resolving modules it brings: ~5 ms of an event's end)."""
    import subprocess
    import sys

    code = ("import sys\nfrom deckcheck.event import report_csv, report_json, report_xlsx\n"
            "print(sorted(m for m in sys.modules if m.startswith('deckcheck.decks.t')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout
    assert out.strip() == "[]"

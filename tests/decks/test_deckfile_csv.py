"""CSV decklists: layout detection, locations, problems, formula-safe writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.csvfile import read_csv, write_csv
from deckcheck.decks.model import Deck, Entry
from deckcheck.errors import DeckReadError


def read(fixtures: Path, name: str, pool: MemoryPool) -> Deck:
    path = fixtures / "csv" / name
    return read_csv(path.read_bytes(), pool, path.name)


def pairs(deck: Deck, section: str) -> list[tuple[int | None, int]]:
    return [(e.passcode, e.count) for e in deck.section(section)]  # type: ignore[arg-type]


def test_qty_name_with_section_rows_and_totals(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "qty_name.csv", pool)
    assert pairs(deck, "main") == [(14558127, 3), (23434538, 2)]
    assert pairs(deck, "extra") == [(86066372, 1)]
    assert pairs(deck, "side") == [(27204311, 2)]
    assert str(deck.main[1].location) == "qty_name.csv:3"
    assert deck.main[1].location.cell == "B3"
    assert deck.problems == []


def test_one_row_per_copy_with_section_column(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "per_copy.csv", pool)
    # the passcode column wins over the name (an alternate artwork row has no name)
    assert pairs(deck, "main") == [(14558127, 2), (14558128, 1), (35261759, 1)]
    assert pairs(deck, "extra") == [(86066372, 1)]
    assert pairs(deck, "side") == [(27204311, 1)]


def test_semicolons_other_languages_and_column_order(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "semicolon.csv", pool)
    assert pairs(deck, "main") == [(14558127, 3), (23434538, 2)]
    assert pairs(deck, "extra") == [(86066372, 1)]
    ja = read(fixtures, "japanese.csv", pool)
    assert pairs(ja, "main") == [(14558127, 3), (35261759, 2)]
    assert pairs(ja, "side") == [(10045474, 1)]


def test_headerless_columns_are_guessed(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "headerless.csv", pool)
    assert pairs(deck, "main") == [(14558127, 3), (35261759, 2)]
    assert pairs(deck, "extra") == [(86066372, 1)]


def test_problems_with_cells(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "problems.csv", pool)
    assert pairs(deck, "main") == [(24224830, 1)]   # the note row is skipped silently
    got = [(p.kind, p.location.cell) for p in deck.problems]
    assert got == [("bad-count", "A2"), ("bad-count", "A3"), ("unknown-name", "B4")]
    assert deck.problems[0].message == ("The count 'three' for 'Ash Blossom & Joyous Spring' "
                                        "is not a number; write 1 to 99 copies.")
    assert deck.problems[2].suggestions == ("Pot of Desires",)


def test_no_table(pool: MemoryPool) -> None:
    with pytest.raises(DeckReadError, match="holds no table of cards"):
        read_csv(b"", pool, "e.csv")


def test_writer_escapes_formulas_and_reads_back(pool: MemoryPool) -> None:
    deck = Deck(main=[Entry(passcode=14558128, count=2), Entry(passcode=None, written="x")],
                extra=[Entry(passcode=86066372)], side=[Entry(passcode=777, count=3)])
    evil = Deck(main=[Entry(passcode=None, written="=HYPERLINK(\"http://x\")")])
    assert write_csv(evil, pool).splitlines()[1] == 'Main,1,"\'=HYPERLINK(""http://x"")",'
    # reading back drops the escape again, and only the escape
    evil.main.append(Entry(passcode=None, written="'quoted"))
    back = read_csv(write_csv(evil, pool), pool, "e.csv")
    assert [p.written for p in back.problems] == ["=HYPERLINK(\"http://x\")", "'quoted"]
    text = write_csv(deck, pool)
    assert text.splitlines()[:2] == ["Section,Quantity,Card Name,Passcode",
                                     "Main,2,Ash Blossom & Joyous Spring,14558128"]
    again = read_csv(text, pool, "w.csv")
    assert again.counts("main") == {14558128: 2}   # alternate artwork kept
    assert again.counts("extra") == {86066372: 1}
    assert again.counts("side") == {777: 3}
    assert [p.written for p in again.problems] == ["x"]


@pytest.mark.parametrize(("text", "want"), [
    ("no delimiter at all\n", ","),
    ("a;b,c\n", ","),  # a tie goes to the earlier of , ; tab |
    ("a|b\n\n\n" + "a;b\n" * 2, ";"),  # blank lines do not count
    ("a|b\n" * 30 + "a;b\n" * 31, "|"),  # only the first 30 non-blank lines count
])
def test_guess_delimiter_counts_lines(text: str, want: str) -> None:
    from deckcheck.decks.csvfile import guess_delimiter

    assert guess_delimiter(text) == want


# --- every row accounted for (issue 21): a row the reader cannot use is a problem with its cell


@pytest.mark.parametrize(("row", "cell", "shown"), [
    ("1,4294967296", "B3", "4294967296"),  # past 2^32
    ("1,abc", "B3", "abc"),
    ("1,-1", "B3", "-1"),
    ("1,1e9", "B3", "1e9"),
    ("1,55144522.5", "B3", "55144522.5"),
    ("1,14558127x", "B3", "14558127x"),
])
def test_a_passcode_that_is_none_is_reported(pool: MemoryPool, row: str, cell: str,
                                             shown: str) -> None:
    deck = read_csv(f"Qty,Passcode\n3,14558127\n{row}\n", pool, "d.csv")
    assert pairs(deck, "main") == [(14558127, 3)]
    (p,) = deck.problems
    assert (p.kind, p.location.cell, p.written) == ("bad-line", cell, shown)
    assert p.message == (f"The cell {cell} ({shown!r}) is not a passcode (at most 10 digits, "
                         "below 2^32); the row was skipped.")


@pytest.mark.parametrize(("row", "cell", "why"), [
    ("2,,", "A3", "is a count with no card name or passcode beside it"),
    ("1,, ", "A3", "is a count with no card name or passcode beside it"),
    ("1,,abc", "C3", "is not a passcode (at most 10 digits, below 2^32)"),
    ("1,,4294967296", "C3", "is not a passcode (at most 10 digits, below 2^32)"),
])
def test_a_count_beside_an_empty_name_is_reported(pool: MemoryPool, row: str, cell: str,
                                                  why: str) -> None:
    deck = read_csv("Qty,Card Name,Passcode\n3,Ash Blossom & Joyous Spring,14558127\n"
                    f"{row}\n", pool, "d.csv")
    assert pairs(deck, "main") == [(14558127, 3)]
    (p,) = deck.problems
    assert p.location.cell == cell and why in p.message


def test_notes_in_the_count_or_code_column_are_not_cards(pool: MemoryPool) -> None:
    deck = read_csv("Qty,Card Name,Passcode\n3,Ash Blossom & Joyous Spring,14558127\n"
                    "Player signature,,\n,,see notes\n,,\n", pool, "d.csv")
    assert pairs(deck, "main") == [(14558127, 3)] and deck.problems == []


def test_the_hostile_40_card_deck_plus_one_row(pool: MemoryPool) -> None:
    """../shared/hostile/silent-drop-csv-passcode.csv: read as 40 cards with no problem."""
    from tests.conftest import HOSTILE_FIXTURES

    path = HOSTILE_FIXTURES / "silent-drop-csv-passcode.csv"
    deck = read_csv(path.read_bytes(), pool, path.name)
    assert deck.size("main") == 40
    (p,) = deck.problems
    assert (p.kind, p.written) == ("bad-line", "4294967296")
    assert str(p.location) == "silent-drop-csv-passcode.csv:18" and p.location.cell == "B18"

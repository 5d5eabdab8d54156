"""Written totals on registration forms are cross-checked (issue 12): "Total Monster Cards: 20"
against 18 listed is a problem naming both numbers and the cell, reported by DC407."""

from __future__ import annotations

import io
from typing import Any

from openpyxl import Workbook

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.csvfile import read_csv
from deckcheck.decks.xlsx import read_xlsx, write_xlsx

MONSTERS = [(3, "Ash Blossom & Joyous Spring"), (3, "Nibiru, the Primal Being"),
            (3, "Blue-Eyes White Dragon"), (3, "7 Colored Fish"), (3, "Harpie Lady 1"),
            (3, "X-Saber Airbellum")]  # 18
SPELLS = [(3, "Pot of Desires"), (3, "Called by the Grave"), (1, "Monster Reborn")]  # 7
TRAPS = [(3, "Infinite Impermanence"), (2, "Trap Hole")]  # 5


def konami_form(monster_total: Any = "Total Monster Cards: 20", spell_total: Any = 7,
                main_total: Any = 30) -> bytes:
    """The Konami TCG form's shape: player fields, then Monster / Spell / Trap columns side by
    side, each with its totals row, and the Main Deck total at the bottom."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Decklist"
    ws.append(["First Name", "Jane", None, "Last Name", "Doe"])
    ws.append(["CARD GAME ID", "0301234567"])
    ws.append([])
    ws.append(["Monster Cards", None, None, "Spell Cards", None, None, "Trap Cards"])
    ws.append(["Qty", "Card Name", None, "Qty", "Card Name", None, "Qty", "Card Name"])
    for i in range(max(len(MONSTERS), len(SPELLS), len(TRAPS))):
        row: list[Any] = []
        for group in (MONSTERS, SPELLS, TRAPS):
            row += list(group[i]) if i < len(group) else [None, None]
            row.append(None)
        ws.append(row)
    totals: list[Any] = [None, monster_total, None, spell_total, "Total Spell Cards", None,
                         5, "Total Trap Cards"]
    if not isinstance(monster_total, str):
        totals[:2] = [monster_total, "Total Monster Cards"]
    ws.append(totals)
    ws.append([])
    ws.append([main_total, "Main Deck Total"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_a_written_total_that_differs_is_a_problem_with_both_numbers_and_the_cell(
        pool: MemoryPool) -> None:
    (deck,) = read_xlsx(konami_form(), pool, "form.xlsx")
    assert deck.size("main") == 30
    [problem] = deck.problems
    assert problem.kind == "written-total" and problem.count == 20
    assert str(problem.location) == "form.xlsx:Decklist!B12"
    assert problem.message == ("The total written at B12 ('Total Monster Cards: 20') is 20, but "
                               "18 cards are listed; correct the total or the list.")


def test_totals_that_agree_are_no_problem(pool: MemoryPool) -> None:
    (deck,) = read_xlsx(konami_form(monster_total=18), pool, "form.xlsx")
    assert deck.problems == [] and deck.size("main") == 30


def test_a_wrong_number_total_and_a_wrong_section_total_are_both_reported(
        pool: MemoryPool) -> None:
    (deck,) = read_xlsx(konami_form(monster_total=18, spell_total=6, main_total=40), pool,
                        "form.xlsx")
    assert sorted((str(p.location), p.count) for p in deck.problems) == [
        ("form.xlsx:Decklist!A14", 40), ("form.xlsx:Decklist!D12", 6)]
    assert deck.problems[0].message == ("The total written at A14 ('Main Deck Total') is 40, "
                                        "but 30 cards are listed; correct the total or the "
                                        "list.")


def test_an_unknown_card_still_counts_as_listed(pool: MemoryPool) -> None:
    csv = "Qty,Card Name\n3,Ash Blossom & Joyous Spring\n2,Efect Veiler\n5,Total\n"
    deck = read_csv(csv, pool, "d.csv")
    assert [p.kind for p in deck.problems] == ["unknown-name"]


def test_a_bare_total_under_its_rows(pool: MemoryPool) -> None:
    csv = "Qty,Card Name\n3,Ash Blossom & Joyous Spring\n2,Pot of Desires\n4,Total\n"
    deck = read_csv(csv, pool, "d.csv")
    assert [(p.kind, str(p.location)) for p in deck.problems] == [("written-total", "d.csv:4")]
    assert "is 4, but 5 cards are listed" in deck.problems[0].message


def test_the_registration_sheet_reads_back_without_total_problems(pool: MemoryPool) -> None:
    (deck,) = read_xlsx(konami_form(monster_total=18), pool, "form.xlsx")
    (again,) = read_xlsx(write_xlsx(deck, pool), pool, "again.xlsx")
    assert again.problems == [] and again.counts("main") == deck.counts("main")


def test_the_validator_reports_dc407(pool: MemoryPool) -> None:
    from deckcheck.checker import Checker

    (deck,) = read_xlsx(konami_form(), pool, "form.xlsx")
    report = Checker("tcg", None, pool=pool).check(deck)
    assert [(v.code, v.place) for v in report.violations if v.code == "DC407"] == [
        ("DC407", "form.xlsx:Decklist!B12")]


def test_one_card_listed_reads_right(pool: MemoryPool) -> None:
    deck = read_csv("Qty,Card Name\n1,Pot of Desires\n3,Total\n", pool, "d.csv")
    assert deck.problems[0].message == ("The total written at A3 ('Total') is 3, but 1 card is "
                                        "listed; correct the total or the list.")

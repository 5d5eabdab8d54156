"""`decks/table_totals.py`: totals written in a table, checked against the copies listed."""

from __future__ import annotations

from deckcheck.decks.model import Deck, Location
from deckcheck.decks.table_totals import BlockTally, Totals


def test_a_written_total_that_differs_from_the_rows_is_a_problem() -> None:
    totals, block = Totals(), BlockTally()
    for n in (3, 2):
        totals.tally(block, "main", None, n)
    totals.note("Total", [(0, "4"), (1, "Total"), (None, None)],
                lambda c: Location(source="t.csv", line=9, cell=f"{'AB'[c]}9"), block)
    deck = Deck()
    totals.check(deck)
    assert [(p.kind, p.count, p.location.cell) for p in deck.problems] == [
        ("written-total", 4, "A9")]
    assert "is 4, but 5 cards are listed" in deck.problems[0].message
    assert block.since == 0 and totals.listed == 5


def test_an_unreadable_count_spoils_the_totals() -> None:
    totals, block = Totals(), BlockTally()
    totals.tally(block, "main", None, "x")
    assert block.since is None and totals.listed is None
    assert totals.by_group == {("main", None): None}

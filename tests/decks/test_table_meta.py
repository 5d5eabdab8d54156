"""`decks/table_meta.py`: labelled fields around a deck in a table."""

from __future__ import annotations

from deckcheck.decks.table_meta import table_meta


def test_labels_outside_the_blocks_fill_meta() -> None:
    rows = [["Player Name", None, "Ann"], ["Event: Regionals", None, None],
            ["Qty", "Name", None], [3, "Date", None], ["Country", "____", None]]
    meta = table_meta(rows, {2}, 2, [(3, 5, 0, 1)])
    # "Date" sits inside the block (a card name there), "____" is a blank to fill in
    assert meta == {"player": "Ann", "event": "Regionals"}
    assert table_meta([["First Name", "Ann"], ["Last Name", "Lee"]], set(), 0, []) == {
        "first_name": "Ann", "last_name": "Lee", "player": "Ann Lee"}

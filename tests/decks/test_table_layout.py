"""`decks/table_layout.py`: the blocks of columns a table's deck sits in."""

from __future__ import annotations

from deckcheck.decks.table_layout import header_blocks, infer_blocks


def test_a_header_row_defines_blocks_side_by_side() -> None:
    blocks = header_blocks(["Main Deck", "Qty", None, "Extra Deck", "Qty", "Passcode"])
    assert [(b.name, b.qty, b.code, b.section, b.first, b.last) for b in blocks] == [
        (0, 1, None, "main", 0, 1), (3, 4, 5, "extra", 3, 5)]
    assert header_blocks(["Main Deck"]) == []  # a title, not a header
    assert header_blocks(["Spell Card", "main_deck"]) == []  # section words are data


def test_without_header_the_columns_are_guessed_from_their_content() -> None:
    rows = [[3, "Ash Blossom & Joyous Spring", 14558127], [1, "Called by the Grave", 24224830],
            ["note", None, None]]
    [b] = infer_blocks(rows)
    assert (b.qty, b.name, b.code) == (0, 1, 2)
    assert infer_blocks([["just some notes"], ["more notes"]]) == []

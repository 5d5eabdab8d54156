"""The ydk reader builds entries without validation: they must behave like validated ones."""

from __future__ import annotations

from deckcheck.decks.model import Entry, Location
from deckcheck.decks.ydk import read_ydk


def test_fast_entries_equal_validated_ones() -> None:
    deck = read_ydk(b"#main\n14558127\n14558127\n#extra\n!side\n27204311\n", "a.ydk")
    assert deck.main == [Entry(passcode=14558127, written="14558127", count=2,
                               location=Location(source="a.ydk", line=2))]
    assert deck.side[0].location == Location(source="a.ydk", line=6)
    assert deck.model_dump() == type(deck).model_validate(deck.model_dump()).model_dump()


def test_copying_one_entry_leaves_the_others_alone() -> None:
    deck = read_ydk(b"#main\n1\n2\n3\n", "a.ydk")
    moved = deck.main[0].model_copy(update={"count": 5})
    assert moved.count == 5 and deck.main[0].count == 1
    loc = deck.main[1].location.model_copy(update={"part": "x"})
    assert loc.part == "x" and deck.main[2].location.part is None
    assert deck.main[2].location == Location(source="a.ydk", line=4)

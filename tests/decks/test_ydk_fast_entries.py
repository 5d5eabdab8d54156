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


def test_the_reader_sets_every_field_of_what_it_builds() -> None:
    """`read_ydk` builds entries and locations slot by slot (not through their constructors):
    it must set every field the classes have, so a field added to either class fails here."""
    from deckcheck.decks.ydk import ENTRY_FIELDS, LOCATION_FIELDS

    assert tuple(Entry.model_fields) == ENTRY_FIELDS
    assert tuple(Location.model_fields) == LOCATION_FIELDS
    assert Entry.__slots__ == ENTRY_FIELDS and Location.__slots__ == LOCATION_FIELDS
    entry = read_ydk(b"#main\n1\n", "a.ydk").main[0]
    assert entry == Entry(passcode=1, written="1", count=1, location=Location(source="a.ydk",
                                                                              line=2))
    assert hash(entry) == hash(Entry(passcode=1, written="1", count=1,
                                     location=Location(source="a.ydk", line=2)))
    assert repr(entry) == repr(Entry(passcode=1, written="1", count=1,
                                     location=Location(source="a.ydk", line=2)))


def test_entries_closed_by_the_next_passcode_equal_constructed_ones() -> None:
    """An entry is built where the next passcode starts (inline) or where a header or the
    file ends (`_entry`): both the same value `Entry(...)` builds."""
    deck = read_ydk(b"1\n1\n2\n#extra\n3\n", "a.ydk")
    assert deck.main == [Entry(passcode=1, written="1", count=2,
                               location=Location(source="a.ydk", line=1)),
                         Entry(passcode=2, written="2", location=Location(source="a.ydk", line=3))]
    assert deck.extra == [Entry(passcode=3, written="3", location=Location(source="a.ydk", line=5))]
    rebuilt = [Entry.model_validate(e.model_dump()) for e in deck.main]
    assert [hash(e) for e in deck.main] == [hash(e) for e in rebuilt]

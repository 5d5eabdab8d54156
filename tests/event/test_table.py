"""Registration tables: which header rows are recognised, and how a row gives a player."""

from __future__ import annotations

import pytest

from deckcheck.event import table


@pytest.mark.parametrize(("header", "role"), [
    ("Player", "player"), ("Player Name", "player"), ("Name", "player"), ("Duelist", "player"),
    ("First name", "first"), ("Last Name", "last"), ("Surname", "last"),
    ("Konami ID", "id"), ("CARD GAME ID", "id"), ("COSSY ID", "id"), ("Player ID", "id"),
    ("Deck", "deck"), ("Decklist", "deck"), ("Deck list", "deck"), ("ydke", "deck"),
    ("YDKE URL", "deck"), ("Passcodes", "deck"), ("Deck (ydke:// or list)", "deck"),
    ("Deck name", None), ("Deck archetype", None), ("Timestamp", None), ("Email Address", None),
    ("Count", "card"), ("Qty", "card"), ("Card name", "card"), ("", None),
])
def test_classify(header: str, role: str | None) -> None:
    assert table.classify(header) == role


def test_header_found_below_title_rows() -> None:
    rows = [["Regional Qualifier — registrations"], [], ["Timestamp", "Name", "Konami ID",
                                                         "Deck name", "Decklist"],
            ["2026-12-01", "Alice", "0301234567", "Snake-Eye", "ydke://AAAA!!!"]]
    head, cols = table.find_header(rows)  # type: ignore[misc]
    assert head == 2
    assert (cols.player, cols.player_id, cols.deck) == ([1], 2, 4)
    assert table.player_of(rows[3], cols) == "Alice"
    assert table.player_id_of(rows[3], cols) == "0301234567"
    assert table.deck_of(rows[3], cols) == "ydke://AAAA!!!"


def test_first_and_last_name_are_joined_and_numbers_are_text() -> None:
    rows = [["First Name", "Last Name", "CARD GAME ID", "Deck"],
            ["  Jane ", "Doe", 301234567.0, "14558127"]]
    _, cols = table.find_header(rows)  # type: ignore[misc]
    assert table.player_of(rows[1], cols) == "Jane Doe"
    assert table.player_id_of(rows[1], cols) == "301234567"


def test_explicit_deck_column_wins_over_bare_deck() -> None:
    cols = table.header_columns(["Player", "Deck", "ydke"])
    assert cols is not None and cols.deck == 2


@pytest.mark.parametrize("row", [
    ["Count", "Name", "Passcode", "Deck"],  # a deck written as a table
    ["Name", "Konami ID"],  # no deck column
    ["Deck", "Deck name"],  # no player or id column
    ["Player", 3, None, "Deck", "Qty"],
])
def test_not_a_registration_header(row: list[object]) -> None:
    assert table.header_columns(row) is None


def test_blank_rows() -> None:
    assert table.is_blank([None, "", "  "])
    assert not table.is_blank([None, 0])


@pytest.mark.parametrize(("cell", "deck"), [
    ("ydke://1xqfAQ==!!!", True),
    ("3 Ash Blossom & Joyous Spring\n3 Maxx \"C\"", True),
    ("14558127, 14558127, 14558127, 23434538, 23434538", True),
    ("3 Ash; 3 Maxx; 2 Veiler; 1 Called; 1 Raigeki", True),
    ("main_deck", False),
    ("Snake-Eye", False),
    ("", False),
])
def test_looks_like_deck(cell: str, deck: bool) -> None:
    assert table.looks_like_deck(cell) is deck


def test_a_card_list_with_a_deck_column_is_not_a_registration_table() -> None:
    rows = [["", "name", "type", "deck", "code"],
            [0, "Nibiru, the Primal Being", "Effect Monster", "main_deck", 27204311],
            [1, "Nibiru, the Primal Being", "Effect Monster", "main_deck", 27204311]]
    head, cols = table.find_header(rows)  # type: ignore[misc]
    assert not table.deck_column_holds_decks(rows[head + 1:], cols)

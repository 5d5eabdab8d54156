"""`deck_hash` promises hashes comparable across versions (the desk and event reports store
them): the example decks' hashes are pinned here, so a change to the hashed text fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cards.builtin import builtin_pool
from deckcheck.decks.diff import deck_hash
from deckcheck.decks.files import read_deck
from deckcheck.decks.model import Deck, Entry, Location

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(("name", "with_pool", "expected"), [
    # With a pool each passcode counts as the pool's own passcode of its card: 14558128 (an
    # alternate artwork of Ash Blossom) as 14558127, and, since the built-in pool holds every
    # card as YGOPRODeck numbers it, 83764718 as 83764719 (Monster Reborn) and 18144506 as
    # 18144507 (Harpie's Feather Duster), as an imported store does.
    ("tcg-legal.ydk", False, "fb9fbdaabea6"),
    ("tcg-legal.ydk", True, "12d231c8fbda"),
    ("tcg-legal.txt", True, "12d231c8fbda"),
    ("tcg-illegal.ydk", True, "0c96398ce13d"),
])
def test_example_deck_hash_is_fixed(name: str, with_pool: bool, expected: str) -> None:
    pool = builtin_pool()
    deck = read_deck(EXAMPLES / name, pool)
    assert deck_hash(deck, pool if with_pool else None) == expected


def test_unresolved_names_hash_is_fixed() -> None:
    def entry(written: str, count: int) -> Entry:
        return Entry(passcode=None, written=written, count=count,
                     location=Location(source="list.txt", line=1))

    deck = Deck(name="list", source="list.txt",
                main=[entry("Ash Blosom", 1), entry("ASH BLOSOM", 1)])
    assert deck_hash(deck, None) == "a43e461901ef"

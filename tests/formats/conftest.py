"""Small hand-written cards (facts: passcodes, names, Konami ids) for the list tests."""

from __future__ import annotations

import pytest

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool


def card(passcode: int, name: str, konami_id: int | None = None,
         alt: tuple[int, ...] = ()) -> Card:
    return Card(passcode=passcode, alt_passcodes=alt, konami_id=konami_id, name=name,
                kind=Kind.MONSTER, frame=Frame.EFFECT, rule_name=name)


@pytest.fixture
def pool() -> MemoryPool:
    return MemoryPool([
        card(21044178, "Abyss Dweller", 10180),
        card(4280258, "Apollousa, Bow of the Goddess", 14599, alt=(4280259,)),
        card(14558127, "Ash Blossom & Joyous Spring", 12950, alt=(14558128,)),
        card(55144522, "Pot of Greed", 4844),
        card(83764718, "Monster Reborn", 4837, alt=(83764719,)),
    ])


@pytest.fixture
def banlists_home(tmp_path, monkeypatch):
    """An empty user banlist directory."""
    from deckcheck.formats.loader import clear_cache

    home = tmp_path / "user-banlists"
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(home))
    clear_cache()
    yield home
    clear_cache()

"""Deck-file test fixtures: a small hand-made card pool, the fixture folder, and (for
real-data tests) a pool built from YGOPRODeck's cardinfo.json in ../shared/data."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool

# the hand-made card set lives in a plain module so hypothesis tests can import it too
sys.path.insert(0, str(Path(__file__).parent))
from deckfile_cards import CARDS  # type: ignore[import-not-found]  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def pool() -> MemoryPool:
    return MemoryPool(CARDS)


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


_FRAMES = {f.value: f for f in Frame}
_KINDS = {"spell": Kind.SPELL, "trap": Kind.TRAP, "token": Kind.TOKEN, "skill": Kind.SKILL}


def cardinfo_pool(shared: Path) -> MemoryPool:
    """Every card of YGOPRODeck's cardinfo.json (English names, frames, artwork ids)."""
    with zipfile.ZipFile(shared / "cards" / "ygoprodeck-cardinfo.zip") as zf:
        data = json.loads(zf.read("cardinfo.json"))["data"]
    cards = []
    seen: set[int] = set()
    for c in data:
        if c["id"] in seen:
            continue
        seen.add(c["id"])
        frame = _FRAMES.get(c["frameType"], Frame.EFFECT)
        alts = tuple(i["id"] for i in c.get("card_images", ()) if i["id"] != c["id"])
        cards.append(Card.model_construct(
            passcode=c["id"], alt_passcodes=alts, konami_id=None, name=c["name"], names={},
            kind=_KINDS.get(c["frameType"], Kind.MONSTER), frame=frame, monster_types=(),
            level=None, rank=None, link_rating=None, link_arrows=(), scale=None, attribute=None,
            race=None, atk=None, defense=None, archetypes=(), released={}, scopes=frozenset(),
            rule_name=c["name"], rule_name_evidence={}, cannot_normal_summon=False, text=None))
    return MemoryPool(cards)


_REAL: dict[str, MemoryPool] = {}


@pytest.fixture
def real_pool(shared_data: Path) -> MemoryPool:
    """A pool of all cards in ../shared/data's cardinfo.json (built once per session)."""
    if "pool" not in _REAL:
        _REAL["pool"] = cardinfo_pool(shared_data)
    return _REAL["pool"]

"""Omega deck codes: DEFLATE + base64, Main/Extra split by the pool's frames."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.model import Deck, Entry
from deckcheck.decks.omega import looks_like_omega, read_omega, to_omega
from deckcheck.errors import DeckReadError


def code(main_extra: list[int], side: list[int]) -> str:
    raw = bytes([len(main_extra), len(side)]) + struct.pack(
        f"<{len(main_extra) + len(side)}I", *main_extra, *side)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(c.compress(raw) + c.flush()).decode()


def test_split_by_frame(pool: MemoryPool) -> None:
    deck = read_omega(code([14558127, 14558127, 86066372, 35261759, 44508095, 123], [27204311]),
                      pool)
    assert deck.passcodes("main") == [14558127, 14558127, 35261759, 123]
    assert deck.passcodes("extra") == [86066372, 44508095]   # alt art of a Synchro too
    assert deck.passcodes("side") == [27204311]
    assert deck.main[0].count == 2
    assert str(deck.extra[0].location) == "<omega code>#main[2]"


def test_writer_round_trip(pool: MemoryPool) -> None:
    deck = Deck(main=[Entry(passcode=14558127, count=3)], extra=[Entry(passcode=1861630)],
                side=[Entry(passcode=10045474, count=2)])
    again = read_omega(to_omega(deck), pool)
    for s in ("main", "extra", "side"):
        assert again.passcodes(s) == deck.passcodes(s)
    assert looks_like_omega(to_omega(deck))


@pytest.mark.parametrize("text,message", [
    ("not base64!", "is not base64 text"),
    ("////", "does not inflate"),
    ("QUJ", "is cut short"),
    (base64.b64encode(zlib.compress(b"x")[2:-4]).decode(), "holds no card counts"),
])
def test_broken_codes(pool: MemoryPool, text: str, message: str) -> None:
    with pytest.raises(DeckReadError, match=message):
        read_omega(text, pool)


def test_count_mismatch(pool: MemoryPool) -> None:
    raw = bytes([3, 0]) + struct.pack("<I", 14558127)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    text = base64.b64encode(c.compress(raw) + c.flush()).decode()
    with pytest.raises(DeckReadError, match="announces 3 \\+ 0 cards but holds 1"):
        read_omega(text, pool)
    assert not looks_like_omega(text)

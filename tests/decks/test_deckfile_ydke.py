"""ydke:// URLs: decoding, encoding, and one precise error per broken part."""

from __future__ import annotations

import base64
import struct

import pytest

from deckcheck.decks.ydke import read_ydke, to_ydke
from deckcheck.errors import DeckReadError


def part(*codes: int) -> str:
    return base64.b64encode(struct.pack(f"<{len(codes)}I", *codes)).decode()


def test_decode_three_parts() -> None:
    url = f"ydke://{part(14558127, 14558127, 23434538)}!{part(86066372)}!{part(27204311)}!"
    deck = read_ydke(url)
    assert deck.passcodes("main") == [14558127, 14558127, 23434538]
    assert deck.main[0].count == 2
    assert str(deck.main[1].location) == "<url>#main[2]"
    assert deck.passcodes("extra") == [86066372]
    assert deck.passcodes("side") == [27204311]


def test_trailing_bang_is_optional_and_fourth_part_kept() -> None:
    assert read_ydke(f"ydke://{part(1)}!!").passcodes("main") == [1]
    deck = read_ydke(f"ydke://{part(1)}!!!extra-info")
    assert deck.meta == {"ydke_part4": "extra-info"}


def test_empty_url_is_an_empty_deck() -> None:
    deck = read_ydke("ydke://!!!")
    assert deck.main == deck.extra == deck.side == []


def test_encode_round_trip() -> None:
    url = f"ydke://{part(14558127, 23434538)}!{part(86066372)}!!"
    assert to_ydke(read_ydke(url)) == url


@pytest.mark.parametrize("url,message", [
    ("ydke://abc", "has 1 part(s) but needs three"),
    ("ydke://a!b", "has 2 part(s) but needs three"),
    ("ydke://!!!!x!y", "at most four"),
    ("ydke://1xqf*Q==!!!", "The Main Deck part of the ydke:// URL is not base64 (it holds '*')"),
    ("ydke://!1x=qfAQ==!!", "The Extra Deck part of the ydke:// URL is not base64 (it has '='"),
    ("ydke://!!1xqfAQ=!", "The Side Deck part of the ydke:// URL is cut short"),
    ("ydke://1xqf!!!", "decodes to 3 bytes, not a multiple of 4"),
    ("http://1xqfAQ==!!!", "must start with 'ydke://'"),
])
def test_broken_parts(url: str, message: str) -> None:
    with pytest.raises(DeckReadError) as err:
        read_ydke(url)
    assert message in str(err.value)
    assert str(err.value).endswith(".")


def test_huge_url_is_refused_without_decoding() -> None:
    with pytest.raises(DeckReadError, match="characters long"):
        read_ydke("ydke://" + "A" * 200_000 + "!!!")

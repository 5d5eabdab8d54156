"""Name keys: `normalize`'s ASCII path gives what the general path gives."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from deckcheck.cards.names import _DROP, normalize


def _general(name: str) -> str:
    """`normalize` without its ASCII path."""
    return _DROP.sub("", unicodedata.normalize("NFKC", name).casefold().replace("&", " and "))


def test_every_ascii_character_keys_as_the_general_path_keys_it() -> None:
    for c in map(chr, range(128)):
        assert normalize(f"a{c}B{c}{c}") == _general(f"a{c}B{c}{c}"), repr(c)


@given(st.text(st.characters(max_codepoint=127)))
def test_ascii_names_key_as_the_general_path_keys_them(name: str) -> None:
    assert normalize(name) == _general(name)


def test_keys() -> None:
    assert normalize("Ash Blossom & Joyous Spring") == "ashblossomandjoyousspring"
    assert normalize("ＡＳＨ ＢＬＯＳＳＯＭ＆Joyous Spring") == "ashblossomandjoyousspring"
    assert normalize("Dark Magician\u3000Girl") == normalize("dark-magician girl")
    assert normalize("灰流うらら") == "灰流うらら"

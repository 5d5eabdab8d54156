from __future__ import annotations

from rulekit import XFILLER, codes, deck, only, run


def test_fifteen_pass() -> None:
    assert codes(run(deck(extra=[(c, 1) for c in XFILLER[:15]]))) == []


def test_sixteen_fail() -> None:
    v = only(run(deck(extra=[(c, 1) for c in XFILLER])), "DC102")
    assert (v.count, v.limit, v.section) == (16, 15, "extra")
    assert v.place == "deck.ydk:58"  # extra starts at line 43; the 16th card
    assert v.message == "The Extra Deck has 16 cards; TCG Advanced allows at most 15."

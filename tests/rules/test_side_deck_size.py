from __future__ import annotations

from rulekit import FILLER, codes, deck, only, run


def test_fifteen_pass() -> None:
    side = [(FILLER[i], 1) for i in range(15)]
    assert codes(run(deck(side=side))) == []


def test_sixteen_fail() -> None:
    side = [(FILLER[i], 1) for i in range(16)]
    v = only(run(deck(side=side)), "DC103")
    assert (v.count, v.limit, v.section) == (16, 15, "side")
    assert v.message == "The Side Deck has 16 cards; TCG Advanced allows at most 15."

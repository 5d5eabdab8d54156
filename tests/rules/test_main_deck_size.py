from __future__ import annotations

from rulekit import FILLER, SKILL, codes, deck, only, run, speed

from deckcheck.formats.model import SizeRange


def test_forty_cards_pass() -> None:
    assert codes(run(deck(fill=40))) == []


def test_thirty_nine_cards_fail() -> None:
    v = only(run(deck(fill=39)), "DC101")
    assert (v.count, v.limit, v.section, v.card) == (39, 40, "main", None)
    assert v.where == "deck.ydk"
    assert v.message == "The Main Deck has 39 cards; TCG Advanced allows 40 to 60."


def test_too_many_points_at_the_entry_that_goes_over() -> None:
    d = deck([(FILLER[0], 3)] * 7, fill=40)  # 40 + 21 = 61 cards, one per line from line 2
    v = only(run(d), "DC101")
    assert (v.count, v.limit) == (61, 60)
    assert v.where == "deck.ydk:62"  # the 61st card


def test_skill_card_is_not_counted_in_speed_duel() -> None:
    d = deck([(SKILL, 1)], fill=20)
    r = run(d, speed())
    assert r.sizes["main"] == 20
    assert "DC101" not in codes(r)
    assert "DC101" in codes(run(deck(fill=19), speed(main=SizeRange(min=20, max=30))))

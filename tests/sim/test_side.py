"""Side plans: games 2 and 3 after siding, per seat."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from simkit import fillers, make_deck, make_pool, monster

from deckcheck.decks.model import Deck
from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish import render
from deckcheck.sim.goldfish.profile import parse_profile
from deckcheck.sim.goldfish.side import parse_entry, sided_odds

X = monster(1, "Card X")
BLANK = monster(2, "Blank")
OTHER = fillers(29)
POOL = make_pool(X, BLANK, OTHER)


def _deck() -> Deck:
    d = make_deck([(X, 1), (BLANK, 10), *[(c, 1) for c in OTHER]])
    side = make_deck([(X, 2)])
    return Deck(name="t", source="t.ydk", main=d.main, extra=[], side=side.main)


def _profile(side: dict) -> object:  # type: ignore[type-arg]
    return parse_profile({"conditions": {"c": "Card X"}, "side": side})


def _p(copies: int, hand: int) -> Fraction:
    return 1 - Fraction(comb(40 - copies, hand), comb(40, hand))


def test_games_two_and_three_use_the_sided_deck_per_seat() -> None:
    pf = _profile({"first": {"in": ["2 Card X"], "out": ["Blank x2"]},
                   "second": {"in": [], "out": ["Card X"]}})
    first, second = sided_odds(pf, _deck(), POOL, "t", mode="exact")  # type: ignore[arg-type]
    assert (first.going, first.cards_in, first.cards_out) == ("first", {"Card X": 2},
                                                             {"Blank": 2})
    assert first.deck_size == 40 and first.success.fraction == str(_p(3, 5))
    assert second.deck_size == 39 and second.success.probability == 0
    # a card sided out that the profile names: a note, not an error
    assert second.notes == ["Card X (conditions.c) is not in this deck."]
    text = "\n".join(render.render_sided([first, second], {}))
    assert "going first: 33.76%" in text and "+2 Card X, -2 Blank" in text


def test_only_the_seats_asked_for() -> None:
    pf = _profile({"first": {"in": ["Card X"], "out": ["Blank"]}})
    res = sided_odds(pf, _deck(), POOL, "t", seats=(True,))  # type: ignore[arg-type]
    assert res == []


@pytest.mark.parametrize("side, message", [
    ({"first": {"out": ["3 Card X"]}}, "out: Card X x3, but the Main Deck holds 1"),
    ({"first": {"in": ["3 Card X"]}}, "in: Card X x3, but the Side Deck holds 2"),
    ({"third": {"in": []}}, "side.third: unknown seat"),
    ({"first": {"add": []}}, "a side plan is in = [...] and out = [...]"),
])
def test_a_plan_that_cannot_be_played_is_one_sentence(
        side: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ProfileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        sided_odds(_profile(side), _deck(), POOL, "t")  # type: ignore[arg-type]


def test_entries() -> None:
    assert parse_entry("2 Ash", "p") == ("Ash", 2)
    assert parse_entry("Ash x3", "p") == ("Ash", 3)
    assert parse_entry("Ash", "p") == ("Ash", 1)

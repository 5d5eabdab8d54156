"""--copies: the success rate with 0..3 copies of a card, the deck's size kept."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from simkit import expand, fillers, monster

from deckcheck.errors import ProfileError, SimError
from deckcheck.sim.goldfish import render
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.copies import copies_curve, parse_target
from deckcheck.sim.goldfish.profile import parse_profile

X = monster(1, "Card X")
Y = monster(2, "Card Y")


def _cp(extra_roles: bool = False):  # type: ignore[no-untyped-def]
    cards = expand([(X, 1), (Y, 3)]) + fillers(36)
    data = {"roles": {"key": ["Card X"], "other": ["Card Y"]},
            "conditions": {"c": "key >= 1"}}
    return compile_profile(parse_profile(data), cards, None, "t")


def _hyper(n: int, hand: int) -> float:
    return float(1 - Fraction(comb(40 - n, hand), comb(40, hand)))


def test_the_curve_is_the_hypergeometric_one_and_the_smallest_count() -> None:
    res = copies_curve(_cp(), "card x", target=0.2)
    assert res.card == "Card X" and res.now == 1 and res.method == "exact"
    assert [r.copies for r in res.rows] == [0, 1, 2, 3]
    for r in res.rows:
        assert r.rates == pytest.approx([_hyper(r.copies, 5), _hyper(r.copies, 6)])
    # 1 copy: 12.5% first / 15% second; 2: 23.6% / 27.9%
    assert res.smallest == [2, 2]
    assert copies_curve(_cp(), "Card X", target=0.9).smallest == [None, None]
    text = "\n".join(render.render_copies(res))
    assert "Going first: 2 copies reach 20%." in text


def test_swap_takes_the_named_card_out() -> None:
    res = copies_curve(_cp(), "Card X", target=0.2, swap="Card Y", seats=(False,))
    assert res.rows[3].rates == pytest.approx([_hyper(3, 5)])
    with pytest.raises(ProfileError, match="--copies 'Nope' is not in the Main Deck"):
        copies_curve(_cp(), "Nope")


def test_monte_carlo_curve_covers_the_exact_one() -> None:
    res = copies_curve(_cp(), "Card X", target=0.2, mode="mc", hands=20_000, seed=2,
                       seats=(False,))
    assert res.method == "monte-carlo"
    for r in res.rows:
        lo, hi = r.lows[0], r.highs[0]
        assert lo is not None and hi is not None and lo <= _hyper(r.copies, 5) <= hi


@pytest.mark.parametrize("text, value", [("90%", 0.9), ("90", 0.9), ("0.9", 0.9),
                                         ("1%", 0.01)])
def test_parse_target(text: str, value: float) -> None:
    assert parse_target(text) == pytest.approx(value)


def test_parse_target_rejects_nonsense() -> None:
    with pytest.raises(SimError, match="not a percentage"):
        parse_target("lots")

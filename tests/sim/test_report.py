"""Reports: engine choice, by-turn rows, +-1 copy effects, A/B comparison."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from simkit import expand, fillers, make_pool, monster, spell

from deckcheck.errors import ExactTooLarge, SimError
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.exact import exact_odds
from deckcheck.sim.goldfish.montecarlo import wilson
from deckcheck.sim.goldfish.profile import parse_profile
from deckcheck.sim.goldfish.render import render_text
from deckcheck.sim.goldfish.report import (
    compare,
    exact_turn_ok,
    odds,
    sensitivity,
)

X = monster(1, "Card X")
Y = monster(2, "Card Y")
POT = spell(3, "Pot")
FILL = fillers(35)
SPEC = [(X, 3), (Y, 2), *[(c, 1) for c in FILL]]
POOL = make_pool(X, Y, POT, FILL)


def compiled(data: dict, spec: list = SPEC):  # type: ignore[no-untyped-def]
    return compile_profile(parse_profile(data), expand(spec), POOL, "p.toml")


def test_exact_rows_then_monte_carlo_after_the_hand_limit() -> None:
    cp = compiled({"conditions": {"c": "Card X >= 1"}})
    rep = odds(cp, mode="auto", turns=4, seed=1, hands=20_000, with_sensitivity=False)
    first = rep.results[0].goal()
    assert [r.method for r in first.by_turn] == ["exact", "exact", "exact", "monte-carlo"]
    for r, n in zip(first.by_turn[:3], (5, 6, 7), strict=True):
        assert r.fraction == str(1 - Fraction(comb(37, n), comb(40, n)))
    second = rep.results[1].goal()
    assert [r.method for r in second.by_turn] == ["exact", "exact", "monte-carlo",
                                                  "monte-carlo"]
    assert rep.engine == "exact + monte-carlo" and rep.seed == 1
    last = first.by_turn[3]
    assert last.low is not None and last.high is not None and last.low < last.probability
    assert last.hands == 20_000


def test_exact_turn_rules() -> None:
    mono = compiled({"conditions": {"c": "Card X"}})
    capped = compiled({"conditions": {"c": "Card X <= 1"}})
    assert exact_turn_ok(mono, 3, False) and not exact_turn_ok(mono, 4, False)
    assert exact_turn_ok(mono, 2, True) and not exact_turn_ok(mono, 3, True)
    assert exact_turn_ok(capped, 1, False) and not exact_turn_ok(capped, 2, False)


def test_exact_mode_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    cp = compiled({"conditions": {"c": "Card X <= 1"}})
    with pytest.raises(SimError, match="Turn 2 cannot be computed exactly"):
        odds(cp, mode="exact", turns=2, seed=1, with_sensitivity=False)
    draws = compiled({"conditions": {"c": "Card X"},
                      "cards": {"Pot": {"excavate": 3}, "Filler 0": {"draw": 1}}},
                     [*SPEC[:-1], (POT, 1)])
    with pytest.raises(SimError, match="Monte Carlo"):
        odds(draws, mode="exact", seed=1, with_sensitivity=False)
    big = compiled({"conditions": {"c": "Card X"}}, [(c, 1) for c in [X, Y, *FILL]])
    monkeypatch.setattr("deckcheck.sim.goldfish.report.DEFAULT_BUDGET", 1)
    with pytest.raises(ExactTooLarge, match="more than 1 hand vectors"):
        odds(big, mode="exact", seed=1, with_sensitivity=False)
    auto = odds(big, mode="auto", seed=1, hands=1000, with_sensitivity=False)
    assert auto.engine == "monte-carlo"


def test_monte_carlo_mode_everywhere() -> None:
    cp = compiled({"conditions": {"c": "Card X"}})
    rep = odds(cp, mode="mc", hands=50_000, seed=4, with_sensitivity=False)
    assert rep.engine == "monte-carlo"
    exact = 1 - comb(37, 5) / comb(40, 5)
    r = rep.results[0].goal().by_turn[0]
    assert r.low is not None and r.high is not None and r.low < r.probability < r.high
    assert r.hands == 50_000 and r.fraction is None
    lo, hi = wilson(round(r.probability * 50_000), 50_000, z=3.3)  # 99.9%: must not flake
    assert lo <= exact <= hi


def test_sensitivity_is_exact_plus_and_minus_one_copy() -> None:
    cp = compiled({"conditions": {"c": {"all": ["Card X", "Card Y <= 0"]}}})
    rep = odds(cp, seed=1, seats=(False,))
    by_card = {d.card: d for d in rep.sensitivity}
    base = float(exact_odds(cp, 5).probabilities["success"])
    x = cp.class_of_name["Card X"]
    K = list(cp.K)
    K[x] -= 1
    minus = float(exact_odds(cp, 5, K=tuple(K)).probabilities["success"])
    assert by_card["Card X"].base == pytest.approx(base)
    assert by_card["Card X"].minus_one == pytest.approx(minus)
    assert by_card["Card X"].plus_one is None  # already 3 copies
    assert by_card["Card Y"].plus_one is not None and by_card["Card Y"].plus_one < base
    assert by_card["Card Y"].minus_one is not None and by_card["Card Y"].minus_one > base
    assert by_card["Filler 0"].method == "exact"
    assert len(rep.sensitivity) == 2 + len(FILL)


def test_failing_hands_and_text() -> None:
    cp = compiled({"conditions": {"c": "Card X"}})
    rep = odds(cp, seed=1, with_sensitivity=False, failing=2)
    fails = rep.results[0].failing
    assert fails[0].cards == {"other": 5}
    assert fails[0].probability == pytest.approx(comb(37, 5) / comb(40, 5))  # Y is "other"
    text = render_text(rep)
    assert "Engine: exact\n" in text
    assert f"{(1 - comb(37, 5) / comb(40, 5)) * 100:6.2f}%" in text
    assert "Most common failing hands (going first, turn 1):" in text


def test_compare_rows() -> None:
    c = compare(compiled({"conditions": {"c": "Card X"}}),
                compiled({"conditions": {"c": "Card Y"}}), "A", "B", seed=1)
    assert len(c.rows) == 2
    row = c.rows[0]
    assert row.going == "first" and row.turn == 1 and row.method == "exact"
    assert row.difference == pytest.approx(row.b - row.a) and row.a > row.b
    assert row.low == row.high == row.difference


def test_compare_by_monte_carlo_is_paired() -> None:
    data = {"roles": {"x": ["Card X"]}, "conditions": {"c": "x >= 1"}}
    same = compare(compiled(data), compiled(data), "A", "B", mode="mc", hands=20_000,
                   seed=3, turns=3)
    for row in same.rows:  # the very same hands: no difference at all, a tiny interval
        assert row.difference == 0 and row.a == row.b and row.hands == 20_000
        assert -0.0002 < row.low <= 0 <= row.high < 0.0002
    a, b = compiled({"conditions": {"c": "Card X"}}), compiled({"conditions": {"c": "Card Y"}})
    rows = compare(a, b, "A", "B", mode="mc", hands=40_000, seed=4).rows
    truth = compare(a, b, "A", "B").rows
    for row, exact in zip(rows, truth, strict=True):
        assert row.method == "monte-carlo" and row.low <= exact.difference <= row.high
        assert row.high - row.low < 0.015  # paired: narrower than two separate intervals


def test_compare_text_rows_after_the_sensitivity_table() -> None:
    a = odds(compiled({"conditions": {"c": "Card X"}}), seed=1, seats=(False,))
    a.compare = compare(compiled({"conditions": {"c": "Card X"}}),
                        compiled({"conditions": {"c": "Card Y"}}), "A", "B", seats=(False,))
    text = render_text(a)
    pa, pb = 1 - comb(37, 5) / comb(40, 5), 1 - comb(38, 5) / comb(40, 5)
    assert "Effect of one copy more / fewer" in text
    assert text.endswith("\nA/B: A = A, B = B (Monte Carlo rows: the same hands for A and B, "
                         "[95% interval of B-A])\n"
                         f"  going first  turn 1:  A {pa * 100:6.2f}%  B {pb * 100:6.2f}%  "
                         f"B-A {(pb - pa) * 100:+.2f} pp (exact)\n")


def test_sensitivity_by_monte_carlo_has_paired_intervals() -> None:
    cp = compiled({"conditions": {"c": "Card X"}})
    rows = {d.card: d for d in sensitivity(cp, False, "mc", 30_000, 2)}
    exact = {d.card: d for d in sensitivity(cp, False, "auto", None, 2)}
    x = rows["Card X"]
    assert x.method == "monte-carlo" and x.hands == 30_000
    assert x.minus_low is not None and x.minus_high is not None
    truth = exact["Card X"].minus_one - exact["Card X"].base  # type: ignore[operator]
    assert x.minus_low <= truth <= x.minus_high


def test_plus_minus_one_by_monte_carlo_deals_the_same_hands() -> None:
    cp = compiled({"conditions": {"c": "Card X"}})
    base = sensitivity(cp, False, "mc", 40_000, 5)
    exact = {d.card: d for d in sensitivity(cp, False, "auto", None, 5)}
    x = next(d for d in base if d.card == "Card X")
    truth = exact["Card X"].minus_one - exact["Card X"].base  # type: ignore[operator]
    assert x.minus_low is not None and x.minus_high is not None
    assert x.minus_low <= truth <= x.minus_high
    # only hands holding the removed copy can change: far narrower than two separate runs
    assert x.minus_high - x.minus_low < 0.008

"""The Monte Carlo engine: Wilson intervals, agreement with the exact engine (including a
hypothesis property test on random profiles), draw and excavate cards, turns, deck-out."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simkit import expand, fillers, make_pool, monster, spell

from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.exact import exact_odds
from deckcheck.sim.goldfish.montecarlo import simulate, wilson
from deckcheck.sim.goldfish.play import discard_order as _discard_order
from deckcheck.sim.goldfish.profile import parse_profile

X = monster(1, "Card X")
S = monster(2, "Searcher")
POT = spell(3, "Pot")
NAMED = [monster(10 + i, f"Named {i}") for i in range(4)]
POOL = make_pool(X, S, POT, NAMED)


def compiled(data: dict, spec: list, strict: bool = True):  # type: ignore[no-untyped-def]
    return compile_profile(parse_profile(data), expand(spec), POOL, "t", strict=strict)


def inside(k: int, n: int, p: float, z: float = 3.3) -> bool:
    """Whether p lies in the Wilson interval (99.9% by default: tests must not flake)."""
    lo, hi = wilson(k, n, z)
    return lo <= p <= hi


def test_wilson_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_same_seed_same_result_and_different_seed_differs() -> None:
    cp = compiled({"conditions": {"c": "Card X"}}, [(X, 3), *[(c, 1) for c in fillers(37)]])
    a = simulate(cp, 50_000, seed=1)
    assert a.by_turn == simulate(cp, 50_000, seed=1).by_turn
    assert a.by_turn != simulate(cp, 50_000, seed=2).by_turn
    exact = 1 - comb(37, 5) / comb(40, 5)
    assert inside(a.by_turn["success"][0], a.hands, exact)


def test_failing_hands_match_exact_ranking() -> None:
    spec = [(X, 3), *[(c, 1) for c in fillers(7)]]
    cp = compiled({"conditions": {"c": "Card X == 1"}}, spec)
    mc = simulate(cp, 200_000, seed=5, failing=3)
    exact = exact_odds(cp, 5, failing=3).failing
    # 2 copies (3 * C(7,3) = 105 hands), then 0 or 3 copies (21 hands each)
    assert [k for k, _ in exact] == [(2, 3), (0, 5), (3, 2)]
    assert mc.failing[0][0] == (2, 3) and {k for k, _ in mc.failing} == {k for k, _ in exact}
    for k, p in exact:
        assert inside(dict(mc.failing)[k], mc.hands, float(p))


@pytest.mark.parametrize("second", [False, True])
def test_turn_loop_draws_match_the_hypergeometric(second: bool) -> None:
    # "at least" only, no draw cards: success by turn 3 is a hand of 7 (8 going second)
    spec = [(X, 3), *[(c, 1) for c in fillers(37)]]
    cp = compiled({"conditions": {"c": "Card X >= 2"}}, spec)
    mc = simulate(cp, 100_000, seed=11, going_second=second, turns=3)
    for turn in (1, 2, 3):
        n = 5 + (turn if second else turn - 1)
        exact = float(exact_odds(cp, n).probabilities["success"])
        assert inside(mc.by_turn["success"][turn - 1], mc.hands, exact, z=3.3), turn


def test_turn_loop_searchers_match_exact_at_turn_one() -> None:
    spec = [(S, 2), (X, 2), *[(c, 1) for c in fillers(36)]]
    cp = compiled({"conditions": {"c": {"all": ["Card X", "Searcher <= 1"]}},
                   "cards": {"Searcher": {"search": "Card X"}}}, spec)
    exact = float(exact_odds(cp, 5).probabilities["success"])
    mc = simulate(cp, 100_000, seed=3, turns=2)
    assert inside(mc.by_turn["success"][0], mc.hands, exact, z=3.3)


def _pot_expectation(look: int) -> float:
    p_x = 1 - Fraction(comb(37, 5), comb(40, 5))
    p_pot_no_x = Fraction(comb(36, 4), comb(40, 5))
    hit = 1 - Fraction(comb(32, look), comb(35, look))
    return float(p_x + p_pot_no_x * hit)


@pytest.mark.parametrize("behaviour, look", [
    ({"draw": 2}, 2),
    ({"draw": 2, "banish_top": 10}, 2),  # banishing random cards first changes nothing
    ({"excavate": 6}, 6),
    ({"excavate": 3, "excavate_rest": "shuffle"}, 3),
])
def test_draw_and_excavate_cards(behaviour: dict, look: int) -> None:
    spec = [(X, 3), (POT, 1), *[(c, 1) for c in fillers(36)]]
    cp = compiled({"conditions": {"c": "Card X"}, "cards": {"Pot": behaviour}}, spec)
    mc = simulate(cp, 100_000, seed=17)
    assert inside(mc.by_turn["success"][0], mc.hands, _pot_expectation(look), z=3.3)


def test_draw_cost_that_cannot_be_paid_is_never_played() -> None:
    spec = [(X, 3), (POT, 3), *[(c, 1) for c in fillers(34)]]
    base = compiled({"conditions": {"c": "Card X"}}, spec)
    with_cost = compiled({"roles": {"eight": ["Named 0"]}, "conditions": {"c": "Card X"},
                          "cards": {"Pot": {"draw": 2, "discard_cost": "eight"}}}, spec,
                         strict=False)
    exact = float(exact_odds(base, 5).probabilities["success"])
    mc = simulate(with_cost, 100_000, seed=2)
    assert inside(mc.by_turn["success"][0], mc.hands, exact, z=3.3)
    free = simulate(compiled({"conditions": {"c": "Card X"}, "cards": {"Pot": {"draw": 2}}},
                             spec), 100_000, seed=2)
    assert free.by_turn["success"][0] > mc.by_turn["success"][0] + 2000


def test_then_banish_without_a_target_discards_the_hand() -> None:
    # Allure-like: after drawing 2 the hand must banish a Named 0 or lose the whole hand;
    # there is none, so a hand that plays it never holds Card X afterwards.
    spec = [(X, 3), (POT, 3), *[(c, 1) for c in fillers(34)]]
    cp = compiled({"roles": {"dark": ["Named 0"]}, "conditions": {"c": "Card X"},
                   "cards": {"Pot": {"draw": 2, "then_banish": "dark"}}}, spec, strict=False)
    exact = float(exact_odds(compiled({"conditions": {"c": "Card X"}}, spec), 5)
                  .probabilities["success"])
    mc = simulate(cp, 100_000, seed=8)
    assert inside(mc.by_turn["success"][0], mc.hands, exact, z=3.3)


def test_deck_out_loses() -> None:
    cp = compiled({"conditions": {"c": "Card X >= 2"}}, [(X, 1), *[(c, 1) for c in fillers(5)]])
    mc = simulate(cp, 1000, seed=1, turns=4)
    assert mc.deck_outs == 1000  # 6 cards: turn 2 draws the last, turn 3 cannot draw
    assert mc.by_turn["success"] == [0, 0, 0, 0]


def test_hand_limit_discards_at_most_cards_first() -> None:
    spec = [(X, 3), (POT, 2), *[(c, 1) for c in fillers(35)]]
    cp = compiled({"roles": {"brick": ["Pot"]},
                   "conditions": {"c": {"all": ["Card X >= 3", "brick <= 2"]}}}, spec)
    order = _discard_order(cp, {"success": cp.success})
    labels = [cp.classes[i].label for i in order]
    assert labels == ["Pot", "other", "Card X"]  # a brick is discarded before a blank
    # X is never discarded, so "3 copies of X by turn T" is the hypergeometric of all cards
    # seen, even after the hand size limit bites (turn 5 going second: 10 cards seen)
    mc = simulate(cp, 100_000, seed=4, going_second=True, turns=5)
    exact = float(exact_odds(compiled({"conditions": {"c": "Card X >= 3"}}, spec), 10)
                  .probabilities["success"])
    assert inside(mc.by_turn["success"][4], mc.hands, exact, z=3.3)


# -- exact vs Monte Carlo on random profiles ----------------------------------------------
_OPS = [">=", "<=", "==", "!=", ">", "<"]


@st.composite
def profiles(draw: st.DrawFn) -> tuple[dict, list, bool]:
    named = draw(st.integers(1, 4))
    copies = [draw(st.integers(1, 3)) for _ in range(named)]
    deck_size = draw(st.integers(max(sum(copies) + 6, 20), 40))
    spec = [(NAMED[i], copies[i]) for i in range(named)]
    spec += [(c, 1) for c in fillers(deck_size - sum(copies))]
    names = [f"Named {i}" for i in range(named)]
    roles = {f"r{j}": draw(st.lists(st.sampled_from(names), min_size=1, max_size=named,
                                    unique=True))
             for j in range(draw(st.integers(1, 3)))}
    atom = st.builds(lambda who, op, n: f"{who} {op} {n}",
                     st.sampled_from([*roles, *names]), st.sampled_from(_OPS),
                     st.integers(0, 3))
    cond = st.recursive(atom, lambda inner: st.one_of(
        st.builds(lambda xs: {"all": xs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda xs: {"any": xs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda x: {"not": x}, inner)), max_leaves=5)
    data: dict = {"roles": roles, "conditions": {"c": draw(cond)},
                  "options": {"overlap": draw(st.booleans())}}
    if draw(st.booleans()):
        data["cards"] = {names[0]: {"search": draw(st.sampled_from(list(roles))),
                                    "spent": draw(st.booleans())}}
    return data, spec, draw(st.booleans())


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(profiles())
def test_exact_and_monte_carlo_agree(case: tuple[dict, list, bool]) -> None:
    data, spec, second = case
    cp = compiled(data, spec)
    exact = float(exact_odds(cp, 6 if second else 5).probabilities["success"])
    mc = simulate(cp, 20_000, seed=123, going_second=second)
    assert inside(mc.by_turn["success"][0], mc.hands, exact, z=4.0), (data, exact)


def test_two_profiles_of_one_deck_see_the_same_hands() -> None:
    spec = [(X, 3), (S, 2), *[(c, 1) for c in fillers(35)]]
    # "Filler 7 <= 5" always holds but gives Filler 7 a class of its own, sorted first:
    # B's classes are laid out differently from C's
    b = compiled({"roles": {"both": ["Card X", "Searcher"]},
                  "conditions": {"c": "both >= 1", "f": "Filler 7 <= 5"}}, spec)
    c = compiled({"conditions": {"c": {"not": {"any": ["Card X", "Searcher"]}}}}, spec)
    assert [k.label for k in b.classes] == ["Filler 7", "both", "other"]
    assert [k.label for k in c.classes] == ["Card X", "Searcher", "other"]
    rb = simulate(b, 30_000, seed=6, failing=10)
    rc = simulate(c, 30_000, seed=6)
    # C succeeds exactly on the hands where B fails: the very same hands, not just hands
    # from the same distribution (which would only agree within the interval)
    assert rb.hands - rb.by_turn["success"][0] == rc.by_turn["success"][0]
    assert sum(n for _, n in rb.failing) == rc.by_turn["success"][0]


def test_end_phase_discard_keeps_what_serves_the_goal(monkeypatch: pytest.MonkeyPatch) -> None:
    # "a starter and no brick" by turn 6 going first: the hand limit lets the player throw
    # bricks away; keeping bricks (discarding blanks first) fails far more often
    brick = monster(40, "Brick Card", 8)
    spec = [(X, 4), (brick, 8), *[(c, 1) for c in fillers(28)]]
    pool = make_pool(X, brick, fillers(28))
    cp = compile_profile(parse_profile({"roles": {"brick": ["Brick Card"]},
                                        "conditions": {"c": {"all": ["Card X", "brick <= 0"]}}}),
                         expand(spec), pool, "t")
    order = _discard_order(cp, {"success": cp.success})
    assert cp.classes[order[0]].label == "Brick Card"
    good = simulate(cp, 50_000, seed=9, turns=6).by_turn["success"][5]
    from deckcheck.sim.goldfish import play

    by_label = {cp.classes[i].label: i for i in order}
    blanks_first = [by_label["other"], by_label["Brick Card"], by_label["Card X"]]
    monkeypatch.setattr(play, "discard_order", lambda cp, goals: blanks_first)
    kept = simulate(cp, 50_000, seed=9, turns=6).by_turn["success"][5]
    assert good > kept + 2_500


def test_turn_loop_opening_sampler_is_hypergeometric() -> None:
    from math import comb

    import numpy as np

    from deckcheck.sim.goldfish.deal import _sample_opening

    K = np.array([3, 5, 32])
    H = _sample_opening(np.random.default_rng(4), K, 5, 200_000)
    assert H.dtype == np.int8 and (H.sum(axis=1) == 5).all() and (H <= K).all()
    for c, size in enumerate(K.tolist()):
        for j in range(4):
            p = comb(size, j) * comb(40 - size, 5 - j) / comb(40, 5)
            assert inside(int((H[:, c] == j).sum()), len(H), p, z=4.0), (c, j)

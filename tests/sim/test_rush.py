"""Rush Duel hands: 4 cards dealt, every Draw Phase (turn 1 going first included) draws
until the hand holds 5 (at least 1), no hand size limit, any number of Normal Summons."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from simkit import expand, fillers, monster

from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.montecarlo import simulate, wilson
from deckcheck.sim.goldfish.profile import parse_profile
from deckcheck.sim.goldfish.report import odds
from deckcheck.sim.state import DuelState
from deckcheck.sim.turnrules import RUSH_RULES, rules_for

X = monster(1, "Card X")


def test_the_rush_turn() -> None:
    r = RUSH_RULES
    assert rules_for("rush", 4) is RUSH_RULES and rules_for("speed", 4).draw_to == 0
    assert [r.cards_by(t, False) for t in (1, 2, 3)] == [5, 6, 7]
    assert [r.cards_by(t, True) for t in (1, 2, 3)] == [5, 6, 7]  # both seats draw turn 1
    assert r.draws_in(2, False, in_hand=2) == 3 and r.draws_in(2, False, in_hand=7) == 1
    assert r.excess(12) == 0 and not r.discards_possible_by(9, False)


def test_a_rush_duel_draws_until_five() -> None:
    deck = fillers(40)
    s = DuelState(deck, seed=1, rules=RUSH_RULES)
    assert len(s.hand) == 4
    assert len(s.start_turn()) == 1 and len(s.hand) == 5  # going first, turn 1
    s.end_turn()
    del s.hand[:3]  # (as if three cards were played)
    assert len(s.start_turn()) == 3 and len(s.hand) == 5


def test_monte_carlo_turn_loop_draws_as_the_rush_rules_say() -> None:
    cards = expand([(X, 3)]) + fillers(37)
    cp = compile_profile(parse_profile({"conditions": {"c": "Card X"}}), cards, None, "t",
                         rules=RUSH_RULES)
    rep = odds(cp, mode="auto", seed=1, turns=3, with_sensitivity=False)
    assert rep.engine == "exact"  # no hand limit: every turn is a plain hand of 5, 6, 7
    for t, n in enumerate((5, 6, 7), 1):
        p = 1 - Fraction(comb(37, n), comb(40, n))
        assert rep.results[0].goal().by_turn[t - 1].fraction == str(p)
        mc = simulate(cp, 60_000, seed=t, turns=3)
        lo, hi = wilson(mc.by_turn["c"][t - 1], mc.hands, 3.5)
        assert lo <= float(p) <= hi


def test_rush_allows_more_than_one_normal_summon() -> None:
    cards = expand([(X, 3)]) + fillers(37)
    cp = compile_profile(parse_profile({"conditions": {"c": "summon Card X >= 2"}}), cards,
                         None, "t", rules=RUSH_RULES)
    assert cp.conditions["c"]  # (a Master Rule duel: an error, one Normal Summon a turn)

"""The exact engine against hypergeometric values computed by hand."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from simkit import expand, fillers, monster, spell

from deckcheck.errors import ExactTooLarge, SimError
from deckcheck.sim.goldfish.checks import count_vectors
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.exact import Evaluator, exact_odds, hand_vectors
from deckcheck.sim.goldfish.profile import parse_profile

X = monster(1, "Card X")
Y = monster(2, "Card Y")
D = monster(3, "Dual")
S = monster(4, "Searcher")
T = monster(5, "Target")
POT = spell(6, "Pot")


def odds(data: dict, spec: list, n: int, **kw: object) -> dict[str, Fraction]:
    cp = compile_profile(parse_profile(data), expand(spec), None, "t")
    return exact_odds(cp, n, **kw).probabilities  # type: ignore[arg-type]


def test_exactly_one_of_three_in_two_from_ten_is_seven_fifteenths() -> None:
    p = odds({"conditions": {"one": "Card X == 1"}}, [(X, 3), *[(c, 1) for c in fillers(7)]], 2)
    assert p["one"] == Fraction(7, 15) == p["success"]


def test_at_least_and_at_most_in_forty() -> None:
    spec = [(X, 3), *[(c, 1) for c in fillers(37)]]
    p = odds({"conditions": {"least": "Card X >= 1", "most": "Card X <= 1",
                             "none": {"not": "Card X"}}}, spec, 5)
    assert p["least"] == 1 - Fraction(comb(37, 5), comb(40, 5))
    assert p["most"] == Fraction(comb(37, 5) + 3 * comb(37, 4), comb(40, 5))
    assert p["none"] == Fraction(comb(37, 5), comb(40, 5))


def test_at_most_is_enforced_with_at_least() -> None:
    # "between 1 and 2 copies of X": the at-most limit must cut off 3 copies
    spec = [(X, 3), *[(c, 1) for c in fillers(37)]]
    p = odds({"conditions": {"c": {"role": "x", "at_least": 1, "at_most": 2}},
              "roles": {"x": ["Card X"]}}, spec, 5)
    expect = Fraction(3 * comb(37, 4) + 3 * comb(37, 3), comb(40, 5))
    assert p["c"] == expect
    assert p["c"] < 1 - Fraction(comb(37, 5), comb(40, 5))


def test_any_is_inclusion_exclusion() -> None:
    spec = [(X, 3), (Y, 2), *[(c, 1) for c in fillers(35)]]
    p = odds({"conditions": {"any": {"any": ["Card X", "Card Y"]},
                             "all": {"all": ["Card X", "Card Y"]}}}, spec, 5)
    none_x = comb(37, 5)
    none_y = comb(38, 5)
    neither = comb(35, 5)
    total = comb(40, 5)
    assert p["all"] == Fraction(total - none_x - none_y + neither, total)
    assert p["any"] == 1 - Fraction(neither, total)


def test_no_overlap_is_a_matching_and_overlap_is_not() -> None:
    # Dual fills roles a and b; Card X fills a. Hand of 2 from 10.
    spec = [(D, 2), (X, 2), *[(c, 1) for c in fillers(6)]]
    roles = {"a": ["Dual", "Card X"], "b": ["Dual"]}
    need = {"c": {"all": ["a >= 1", "b >= 1"]}}
    strict = odds({"roles": roles, "conditions": need}, spec, 2)
    loose = odds({"roles": roles, "conditions": need, "options": {"overlap": True}}, spec, 2)
    assert strict["c"] == Fraction(1 + 2 * 2, 45)          # {D,D} or {D,X}
    assert loose["c"] == 1 - Fraction(comb(8, 2), 45)       # any D


def test_matching_is_not_greedy() -> None:
    # P fills x; Q fills x or y. Need x>=1 and y>=1: only {P, Q} works, which a greedy
    # assignment of Q to x would miss.
    p_card, q_card = monster(10, "P"), monster(11, "Q")
    spec = [(p_card, 1), (q_card, 1), *[(c, 1) for c in fillers(2)]]
    p = odds({"roles": {"x": ["P", "Q"], "y": ["Q"]},
              "conditions": {"c": {"all": ["y >= 1", "x >= 1"]}}}, spec, 2)
    assert p["c"] == Fraction(1, 6)


def test_searcher_adds_its_target() -> None:
    spec = [(S, 1), (T, 2), *[(c, 1) for c in fillers(7)]]
    data = {"roles": {"t": ["Target"]}, "conditions": {"c": "t >= 1"},
            "cards": {"Searcher": {"search": "t"}}}
    # a Target in hand, or the Searcher without one (both Targets are still in the Deck)
    assert odds(data, spec, 2)["c"] == Fraction(17, 45) + Fraction(7, 45)


def test_searcher_depends_on_what_is_left_in_the_deck() -> None:
    spec = [(S, 1), (T, 1), *[(c, 1) for c in fillers(8)]]
    data = {"roles": {"t": ["Target"]}, "conditions": {"one": "t >= 1", "two": "t >= 2"},
            "cards": {"Searcher": {"search": "t"}}}
    p = odds(data, spec, 3, one_game=False)  # each row searched for on its own
    assert p["two"] == 0  # the only Target is in the hand: nothing left to search
    assert p["one"] == Fraction(3, 10) + Fraction(comb(8, 2), comb(10, 3))
    # one game per hand, played for success ("one and two": never met), searches nothing:
    # "one" is then measured on the hand as dealt
    assert odds(data, spec, 3)["one"] == Fraction(3, 10)
    # ... and played for "one", the search is made and measured
    assert odds({**data, "success": "one"}, spec, 3)["one"] == p["one"]


def test_rows_are_measured_after_the_searches_made_for_success() -> None:
    # a row and its NOT add up with a searcher too (each row searching on its own, the
    # row "t" was met by a search while "not t" was met by the same hand without it)
    spec = [(S, 3), (T, 3), *[(c, 1) for c in fillers(34)]]
    data = {"success": "Target", "conditions": {"t": "Target", "not t": {"not": "t"}},
            "cards": {"Searcher": {"search": "Target"}}}
    p = odds(data, spec, 5)
    assert p["t"] == p["success"] and p["t"] + p["not t"] == 1
    alone = odds(data, spec, 5, one_game=False)
    assert alone["t"] + alone["not t"] > 1


def test_spent_searcher_loses_its_own_role() -> None:
    spec = [(S, 2), (T, 2), *[(c, 1) for c in fillers(6)]]
    both = {"all": ["Searcher >= 1", "Target >= 1"]}
    kept = odds({"conditions": {"c": both}, "cards": {"Searcher": {"search": "Target"}}},
                spec, 2)
    spent = odds({"conditions": {"c": both},
                  "cards": {"Searcher": {"search": "Target", "spent": True}}}, spec, 2)
    # kept: any hand with a Searcher; spent: needs a Searcher and a Target, or two Searchers
    assert kept["c"] == 1 - Fraction(comb(8, 2), 45)
    assert spent["c"] == Fraction(2 * 2 + 1, 45)


def test_vectors_and_weights() -> None:
    K = (3, 2, 4, 31)
    vecs = list(hand_vectors(K, 5))
    assert len(vecs) == count_vectors(K, 5)
    assert sum(w for _, w in vecs) == comb(40, 5)
    assert all(sum(k) == 5 and all(a <= b for a, b in zip(k, K, strict=True)) for k, _ in vecs)


def test_budget_and_draw_cards_need_monte_carlo() -> None:
    spec = [(X, 3), *[(c, 1) for c in fillers(37)]]
    cp = compile_profile(parse_profile({"conditions": {"c": "Card X"}}), expand(spec), None)
    with pytest.raises(ExactTooLarge, match="use --hands N"):
        exact_odds(cp, 5, budget=2)
    with pytest.raises(SimError, match="more than|cannot be dealt"):
        exact_odds(cp, 41)
    spec2 = [(POT, 3), *spec]
    # an excavation to the bottom that other draw cards may follow: Monte Carlo only
    cp2 = compile_profile(parse_profile({"conditions": {"c": "Card X"},
                                         "cards": {"Pot": {"excavate": 3},
                                                   "Filler 0": {"draw": 1}}}),
                          expand(spec2), None)
    with pytest.raises(SimError, match="Monte Carlo"):
        exact_odds(cp2, 5)


def test_failing_hands_are_most_likely_first() -> None:
    spec = [(X, 3), *[(c, 1) for c in fillers(7)]]
    cp = compile_profile(parse_profile({"conditions": {"c": "Card X == 1"}}), expand(spec),
                         None)
    res = exact_odds(cp, 2, failing=5)
    assert res.failing == [((0, 2), Fraction(21, 45)), ((2, 0), Fraction(3, 45))]


def test_compiled_checks_agree_with_the_interpreted_ones() -> None:
    # Evaluator.ok is compiled to one Python expression; the interpreted method it shadows
    # must give the same answer on every hand vector.
    spec = [(X, 3), (Y, 2), (D, 2), *[(c, 1) for c in fillers(13)]]
    data = {"roles": {"a": ["Card X", "Dual"], "b": ["Card Y", "Dual"]},
            "conditions": {"c": {"any": [{"all": ["a >= 1", "b >= 1"]}, "Card X >= 2"]},
                           "d": {"all": ["Card Y <= 1", {"not": "Dual"}]}}}
    cp = compile_profile(parse_profile(data), expand(spec), None, "t")
    for terms in (cp.success, *cp.conditions.values()):
        ev = Evaluator(cp, terms)
        answers = [ev.ok(k) for k, _ in hand_vectors(cp.K, 5)]
        assert answers == [Evaluator.ok(ev, k) for k, _ in hand_vectors(cp.K, 5)]
        assert True in answers and False in answers


# -- the work limit bounds every inner loop ------------------------------------------------
DESIRES = spell(11, "Pot of Desires")
ROLES = [monster(60 + i, f"Role {i}") for i in range(4)]


def _desires(roles: int):  # type: ignore[no-untyped-def]
    spec = [(DESIRES, 2), (T, 3), *[(r, 3) for r in ROLES[:roles]]]
    cards = expand(spec)
    cards += fillers(40 - len(cards))
    data = {"roles": {f"r{i}": [f"Role {i}"] for i in range(roles)},
            "success": "Target", "conditions": {"t": "Target"}}
    return compile_profile(parse_profile(data), cards, None, "t")


def test_desires_with_four_unused_roles_stops_at_the_work_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Pot of Desires banishes 10 cards face-down: with four roles no goal uses, the classes
    # of the banished cards alone are tens of thousands of combinations per hand state
    from deckcheck.sim.goldfish import exact

    seen = {"combinations": 0}
    real = exact.iter_vectors

    def counted(K: tuple[int, ...], n: int):  # type: ignore[no-untyped-def]
        for v in real(K, n):
            seen["combinations"] += 1
            yield v

    monkeypatch.setattr(exact, "iter_vectors", counted)
    with pytest.raises(ExactTooLarge, match="work limit"):
        exact_odds(_desires(4), 5, draw_work=20_000)
    assert seen["combinations"] <= 20_000  # counted before the loop: never gone through
    # one role: the same fraction, well inside the limit
    res = exact_odds(_desires(1), 5, draw_work=20_000)
    assert 0 < res.work <= 20_000
    assert res.probabilities["success"] == exact_odds(_desires(0), 5).probabilities["success"]


def test_past_the_work_limit_auto_mode_says_why_and_uses_monte_carlo() -> None:
    from deckcheck.sim.goldfish.report import odds as report_odds

    rep = report_odds(_desires(4), mode="auto", hands=2_000, seed=1, seats=(False,),
                      with_sensitivity=False)
    assert rep.engine == "monte-carlo"
    assert any("work limit" in n and "Monte Carlo" in n for n in rep.notes)
    with pytest.raises(ExactTooLarge, match="drop --exact"):
        report_odds(_desires(4), mode="exact", seats=(False,), with_sensitivity=False)


@pytest.mark.parametrize("K", [(3, 0, 2, 1), (1,), (0, 5), (2, 2, 2, 2, 2, 2, 2), (1, 1)])
def test_few_vectors_is_hand_vectors(K: tuple[int, ...]) -> None:
    from deckcheck.sim.goldfish.exact import few_vectors

    for n in range(min(3, sum(K) + 1)):
        assert sorted(few_vectors(K, n)) == sorted(hand_vectors(K, n))

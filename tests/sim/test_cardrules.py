"""Draw cards with their real restrictions (the built-in table, `cardrules`), NOT as a
complement, and the exact engine against Monte Carlo on every card behaviour."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simkit import arrangements, expand, fillers, make_pool, monster, spell

from deckcheck.errors import ProfileError, SimError
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.exact import exact_odds
from deckcheck.sim.goldfish.montecarlo import simulate, wilson
from deckcheck.sim.goldfish.profile import parse_profile

PROSPERITY = spell(1, "Pot of Prosperity")
UPSTART = spell(2, "Upstart Goblin")
TARGET = monster(3, "Target")
EXTRAVAGANCE = spell(4, "Pot of Extravagance")
ALLURE = spell(5, "Allure of Darkness")
DARK = monster(6, "Dark One", attribute="DARK")
DESTRUCTION = spell(7, "Card Destruction")
TRADE_IN = spell(8, "Trade-In")
BIG = monster(9, "Big Eight", 8)
DUALITY = spell(10, "Pot of Duality")
DESIRES = spell(11, "Pot of Desires")
SAGE = monster(12, "Searcher Sage")
BLANKS = fillers(40)
NAMED = [monster(20 + i, f"Named {i}", level=3 + i, attribute=("DARK", "LIGHT")[i % 2])
         for i in range(4)]
POOL = make_pool(PROSPERITY, UPSTART, TARGET, EXTRAVAGANCE, ALLURE, DARK, DESTRUCTION,
                 TRADE_IN, BIG, DUALITY, DESIRES, SAGE, BLANKS, NAMED)


def deck(spec: list, size: int = 40) -> list:  # type: ignore[type-arg]
    cards = expand(spec)
    return cards + BLANKS[:size - len(cards)]


def compiled(data: dict, cards: list, extra: int = 0):  # type: ignore[no-untyped-def]
    return compile_profile(parse_profile(data), cards, POOL, "t", extra=extra)


def inside(k: int, n: int, p: float, z: float = 3.5) -> bool:
    lo, hi = wilson(k, n, z)
    return lo <= p <= hi


# -- Pot of Prosperity and Upstart Goblin: an independent enumeration ---------------------


def _play_by_hand(order: tuple[str, ...], excavate: int) -> bool:
    """One duel turn 1 going first, played as the card texts say: P = Pot of Prosperity
    (excavate, add 1; no card draws before or after it in the turn), U = Upstart Goblin
    (draw 1), T = the card the hand needs, X = a blank."""
    hand, rest = list(order[:5]), list(order[5:])
    drew = locked = used = False
    while "T" not in hand:
        if "P" in hand and not used and not drew and len(rest) >= excavate:
            hand.remove("P")
            used = locked = True
            seen, rest = rest[:excavate], rest[excavate:]
            if "T" in seen:
                hand.append("T")
        elif "U" in hand and not locked and rest:
            hand.remove("U")
            hand.append(rest.pop(0))
            drew = True
        else:
            return False
    return True


@pytest.mark.parametrize("extra, excavate, written", [
    (6, 6, Fraction(243, 286)),   # 6+ cards in the Extra Deck: banish 6, excavate 6
    (4, 3, Fraction(114, 143)),   # 3 to 5: banish 3, excavate 3
])
def test_prosperity_and_upstart_match_an_independent_enumeration(
        extra: int, excavate: int, written: Fraction) -> None:
    # 13 cards: 1 Prosperity, 2 Upstart, 2 Target, 8 blanks; 38,610 equally likely orders
    orders = arrangements({"P": 1, "U": 2, "T": 2, "X": 8})
    assert len(orders) == 38_610
    by_hand = Fraction(sum(_play_by_hand(o, excavate) for o in orders), len(orders))
    assert by_hand == written
    cp = compiled({"conditions": {"c": "Target"}},
                  deck([(PROSPERITY, 1), (UPSTART, 2), (TARGET, 2)], 13), extra=extra)
    assert exact_odds(cp, 5).probabilities["success"] == written
    mc = simulate(cp, 100_000, seed=5)
    assert inside(mc.by_turn["success"][0], mc.hands, float(written))


def test_desires_banishes_what_a_searcher_needed() -> None:
    # a searcher needs the Target in the Deck: Desires' 10 banished cards can take it away
    cards = deck([(DESIRES, 3), (SAGE, 3), (TARGET, 1)], 20)
    cp = compiled({"conditions": {"c": "Target"}, "cards": {"Searcher Sage": {
        "search": "Target"}}}, cards)
    p = exact_odds(cp, 5).probabilities["success"]
    mc = simulate(cp, 60_000, seed=6)
    assert inside(mc.by_turn["success"][0], mc.hands, float(p))


def test_prosperity_locks_both_ways() -> None:
    cards = deck([(PROSPERITY, 1), (UPSTART, 2), (TARGET, 2)], 13)
    locked = compiled({"conditions": {"c": "Target"}}, cards, extra=6)
    free = compiled({"conditions": {"c": "Target"},
                     "cards": {"Pot of Prosperity": {"no_draw_before": False,
                                                     "no_draw_after": False}}}, cards, extra=6)
    p_locked = exact_odds(locked, 5).probabilities["success"]
    p_free = simulate(free, 100_000, seed=2)
    # without the lock a hand may draw with Upstart after Prosperity (or activate
    # Prosperity after an Upstart): more hands find the Target
    assert not inside(p_free.by_turn["success"][0], p_free.hands, float(p_locked))
    assert p_free.rate() > float(p_locked)


def test_prosperity_needs_an_extra_deck() -> None:
    cards = deck([(PROSPERITY, 3), (TARGET, 3)])
    none = compiled({"conditions": {"c": "Target"}}, cards, extra=2)
    plain = compiled({"conditions": {"c": "Target"}}, deck([(TARGET, 3)]))
    assert exact_odds(none, 5).probabilities == exact_odds(plain, 5).probabilities
    six = compiled({"conditions": {"c": "Target"}}, cards, extra=15)
    assert exact_odds(six, 5).probabilities["success"] > exact_odds(
        plain, 5).probabilities["success"]


def test_upstart_is_not_once_per_turn() -> None:
    cards = deck([(UPSTART, 3), (TARGET, 3)])
    many = compiled({"conditions": {"c": "Target"}}, cards)
    once = compiled({"conditions": {"c": "Target"},
                     "cards": {"Upstart Goblin": {"once_per_turn": True}}}, cards)
    assert exact_odds(many, 5).probabilities["success"] > exact_odds(
        once, 5).probabilities["success"]


def test_a_profile_can_leave_a_card_unplayed() -> None:
    cards = deck([(UPSTART, 3), (TARGET, 3)])
    cp = compiled({"conditions": {"c": "Target"},
                   "cards": {"Upstart Goblin": {"play": False}}}, cards)
    assert not cp.has_draws


@pytest.mark.parametrize("spec, extra, second", [
    ([(PROSPERITY, 2), (UPSTART, 3), (TARGET, 3)], 15, False),
    ([(PROSPERITY, 2), (UPSTART, 3), (TARGET, 3)], 4, True),
    ([(EXTRAVAGANCE, 2), (PROSPERITY, 1), (UPSTART, 2), (TARGET, 3)], 15, False),
    ([(EXTRAVAGANCE, 2), (TARGET, 3)], 3, True),
    ([(ALLURE, 3), (DARK, 2), (TARGET, 3)], 0, False),
    ([(DESTRUCTION, 2), (TARGET, 3), (BIG, 3)], 0, True),
    ([(TRADE_IN, 3), (TARGET, 3), (BIG, 3)], 0, False),
    ([(DUALITY, 3), (TARGET, 3), (UPSTART, 2)], 0, True),
    ([(DESIRES, 2), (TARGET, 3)], 0, False),
])
def test_exact_and_monte_carlo_agree_on_each_card(spec: list, extra: int,  # type: ignore
                                                  second: bool) -> None:
    size = 24 if any(c is DESIRES for c, _ in spec) else 40  # Desires: fewer to enumerate
    cp = compiled({"conditions": {"c": "Target"}}, deck(spec, size), extra=extra)
    assert cp.has_draws
    p = float(exact_odds(cp, 6 if second else 5).probabilities["success"])
    mc = simulate(cp, 60_000, seed=11, going_second=second)
    assert inside(mc.by_turn["success"][0], mc.hands, p), p


# -- NOT is the complement of the whole condition -----------------------------------------
def test_not_both_is_the_complement_without_overlap() -> None:
    cards = deck([(NAMED[0], 3)])
    data = {"roles": {"a": ["Named 0"], "b": ["Named 0"]},
            "conditions": {"both": {"all": ["a >= 1", "b >= 1"]},
                           "not both": {"not": {"all": ["a >= 1", "b >= 1"]}}}}
    res = exact_odds(compiled(data, cards), 5).probabilities
    assert res["both"] + res["not both"] == 1
    # exactly one copy in hand: neither "both" (one card cannot fill two roles) ...
    one = compiled({"roles": data["roles"], "conditions": {"one": "Named 0 == 1"}}, cards)
    assert res["not both"] > exact_odds(one, 5).probabilities["one"]  # ... but "not both"


_OPS = [">=", "<=", "==", "!=", ">", "<"]


@st.composite
def conditions(draw: st.DrawFn) -> tuple[dict, list, bool]:  # type: ignore[type-arg]
    named = draw(st.integers(1, 4))
    copies = [draw(st.integers(1, 3)) for _ in range(named)]
    spec = [(NAMED[i], copies[i]) for i in range(named)]
    names = [f"Named {i}" for i in range(named)]
    roles = {f"r{j}": draw(st.lists(st.sampled_from(names), min_size=1, max_size=named,
                                    unique=True))
             for j in range(draw(st.integers(1, 3)))}
    props = ["DARK", "LIGHT", "Level 3", "2 different r0"]
    atom = st.one_of(
        st.builds(lambda who, op, n: f"{who} {op} {n}", st.sampled_from([*roles, *names,
                                                                          "DARK"]),
                  st.sampled_from(_OPS), st.integers(0, 3)),
        st.sampled_from(props))
    cond = st.recursive(atom, lambda inner: st.one_of(
        st.builds(lambda xs: {"all": xs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda xs: {"any": xs}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda x: {"not": x}, inner)), max_leaves=6)
    c = draw(cond)
    data = {"roles": roles, "conditions": {"c": c, "not c": {"not": c}},
            "options": {"overlap": draw(st.booleans())}}
    return data, spec, draw(st.booleans())


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(conditions())
def test_p_c_plus_p_not_c_is_one(case: tuple[dict, list, bool]) -> None:  # type: ignore
    data, spec, second = case
    cp = compiled(data, deck(spec, 20))
    res = exact_odds(cp, 6 if second else 5).probabilities
    assert res["c"] + res["not c"] == 1, data
    for turns in (1, 2):  # the opening-hand path and the turn loop
        mc = simulate(cp, 5_000, seed=3, going_second=second, turns=turns)
        # the same hands for both goals: the turn-1 counts add up exactly
        assert mc.by_turn["c"][0] + mc.by_turn["not c"][0] == mc.hands


# -- the language -------------------------------------------------------------------------
def test_different_names_and_card_properties() -> None:
    cards = deck([(NAMED[0], 3), (NAMED[1], 3), (NAMED[2], 2)])
    cp = compiled({"roles": {"starter": ["Named 0", "Named 1", "Named 2"]},
                   "conditions": {"two": "2 different starters", "dark": "DARK >= 2",
                                  "l3": "Level 3", "monsters": "monster >= 4"}}, cards)
    res = exact_odds(cp, 5).probabilities
    mc = simulate(cp, 50_000, seed=4)
    for goal in ("two", "dark", "l3", "monsters"):
        assert inside(mc.by_turn[goal][0], mc.hands, float(res[goal])), goal
    # "2 different starters" = a pair of different names, written out as 3 pairs
    pairs = compiled({"conditions": {"two": {"any": [
        {"all": ["Named 0", "Named 1"]}, {"all": ["Named 0", "Named 2"]},
        {"all": ["Named 1", "Named 2"]}]}}}, cards)
    assert exact_odds(pairs, 5).probabilities["two"] == res["two"]
    # classes counted by an Attribute are labelled by it: failing hands never merge two
    # different classes under "other"
    by_attr = compiled({"conditions": {"d": "DARK >= 2"}},
                       deck([(NAMED[0], 2), (NAMED[1], 2), (NAMED[2], 2)]))
    assert sorted(c.label for c in by_attr.classes) == ["DARK", "other"]
    fails = exact_odds(by_attr, 5, failing=50).failing
    assert all(sum(k) == 5 for k, _ in fails)


def test_normal_summon_counts_monsters_that_need_no_tribute() -> None:
    cards = deck([(NAMED[0], 3), (BIG, 3)])
    cp = compiled({"roles": {"starter": ["Named 0", "Big Eight"]},
                   "conditions": {"s": "summon starter"}}, cards)
    feat = next(f for f in cp.features if f.kind == "summon")
    assert feat.members == {"Named 0"}
    with pytest.raises(ProfileError, match="only one Normal Summon is allowed per turn"):
        compiled({"roles": {"starter": ["Named 0"]},
                  "conditions": {"s": "summon starter >= 2"}}, cards)


def test_per_seat_goals() -> None:
    cards = deck([(NAMED[0], 3), (NAMED[1], 3)])
    cp = compiled({"success_first": "Named 0", "success_second": "Named 1 >= 2"}, cards)
    first = exact_odds(cp, 5, goals=cp.goals(False)).probabilities["success"]
    second = exact_odds(cp, 6, goals=cp.goals(True)).probabilities["success"]
    assert first > 0.3 > second


def test_plus_minus_one_with_draw_cards_is_paired_and_tight() -> None:
    from deckcheck.sim.goldfish.report import sensitivity

    cp = compiled({"conditions": {"c": "Target"}}, deck([(UPSTART, 3), (TARGET, 3)]))
    exact = {d.card: d for d in sensitivity(cp, False, "exact", None, 1)}
    mc = {d.card: d for d in sensitivity(cp, False, "mc", 20_000, 1)}
    for card in ("Target", "Upstart Goblin"):
        e, m = exact[card], mc[card]
        assert m.method == "monte-carlo" and e.method == "exact"
        assert m.minus_low is not None and m.minus_high is not None
        truth = e.minus_one - e.base  # type: ignore[operator]
        assert m.minus_low <= truth <= m.minus_high, card
        # the same Deck orders with and without the copy: only hands that meet the removed
        # copy can differ, so the interval is narrow (two separate runs of 20,000 hands
        # would give one about 0.019 wide)
        assert m.minus_high - m.minus_low < 0.011, card


def test_small_world_by_an_independent_count() -> None:
    from itertools import product
    from math import comb

    world = spell(30, "Small World")
    # the revealed card shares only its Type with the bridge; the bridge only its DEF with
    # the target; the revealed card and the target share nothing (no direct link)
    shown = monster(31, "Shown", 3, attribute="LIGHT", race="Warrior", atk=1000, defense=500)
    bridge = monster(32, "Bridge", 7, attribute="FIRE", race="Warrior", atk=2000,
                     defense=1000)
    target = monster(33, "Goal", 4, attribute="DARK", race="Dragon", atk=1800, defense=1000)
    blanks = [spell(100 + i, f"Blank {i}") for i in range(30)]
    pool = make_pool(world, shown, bridge, target, blanks)
    cards = expand([(world, 3), (shown, 3), (bridge, 2), (target, 2)]) + blanks
    cp = compile_profile(parse_profile({"conditions": {"c": "Goal"}}), cards, pool, "t")
    assert cp.small_world  # built in: Small World needs no profile entry
    # by hand: the Goal in hand, or Small World + Shown in hand with a Bridge left in the Deck
    good = 0
    for w, s, b, t in product(range(4), range(4), range(3), range(3)):
        x = 5 - w - s - b - t
        if x < 0:
            continue
        if t >= 1 or (w >= 1 and s >= 1 and b < 2):
            good += comb(3, w) * comb(3, s) * comb(2, b) * comb(2, t) * comb(30, x)
    written = Fraction(good, comb(40, 5))
    assert exact_odds(cp, 5).probabilities["success"] == written
    mc = simulate(cp, 100_000, seed=12)
    assert inside(mc.by_turn["success"][0], mc.hands, float(written))
    plain = compile_profile(parse_profile({"conditions": {"c": "Goal"},
                                           "cards": {"Small World": {"play": False}}}),
                            cards, pool, "t")
    assert exact_odds(plain, 5).probabilities["success"] < written


def test_one_normal_summon_a_turn() -> None:
    cards = deck([(NAMED[0], 3), (NAMED[1], 3)])  # levels 3 and 4: no Tribute needed
    roles = {"a": ["Named 0"], "b": ["Named 1"], "both": ["Named 0", "Named 1"]}
    two = compiled({"roles": roles, "conditions": {
        "c": {"all": ["summon a", "summon b"]}}}, cards)
    assert two.conditions["c"] == []  # two Normal Summons never happen in one turn
    one = compiled({"roles": roles, "options": {"overlap": True}, "conditions": {
        "c": {"all": ["summon both", "summon a"]}}}, cards)
    # with overlap one card may be both: the summon must be of a card in both roles
    p = exact_odds(one, 5).probabilities["c"]
    only_a = compiled({"roles": roles, "conditions": {"c": "summon a"}}, cards)
    assert p == exact_odds(only_a, 5).probabilities["c"]


def test_graveyard_conditions_by_monte_carlo() -> None:
    from math import comb

    # Trade-In's cost sends a Level 8 to the GY: "GY: Level 8" holds exactly when a hand
    # holds Trade-In and a Level 8 (the Deck always has 2 cards to draw)
    cards = deck([(TRADE_IN, 3), (BIG, 3)])
    cp = compiled({"conditions": {"c": "GY: Level 8 >= 1"}}, cards)
    assert cp.zones
    p = 1 - (comb(37, 5) + comb(37, 5) - comb(34, 5)) / comb(40, 5)  # 1 - P(no TI or no L8)
    mc = simulate(cp, 60_000, seed=7)
    assert inside(mc.by_turn["c"][0], mc.hands, p)
    with pytest.raises(SimError, match="GY or banished cards need the Monte Carlo engine"):
        exact_odds(cp, 5)
    # the End Phase discards what a condition wants in the GY first: going second, turn 2
    # ends with 7 cards, so a Big Eight among them is in the GY by turn 3
    plain = deck([(BIG, 3)])
    gy = compiled({"conditions": {"c": "GY: Big Eight"}}, plain)
    run = simulate(gy, 60_000, seed=8, going_second=True, turns=3)
    assert run.by_turn["c"][:2] == [0, 0]
    assert inside(run.by_turn["c"][2], run.hands, 1 - comb(37, 7) / comb(40, 7))


def test_banished_conditions_and_zone_errors() -> None:
    cards = deck([(ALLURE, 3), (DARK, 3)])
    cp = compiled({"conditions": {"c": "banished: DARK"}}, cards)
    mc = simulate(cp, 20_000, seed=3)
    assert 0 < mc.by_turn["c"][0] < mc.hands  # Allure banishes a DARK monster
    with pytest.raises(ProfileError, match="not in the GY or banished"):
        compiled({"conditions": {"c": "Target"},
                  "cards": {"Trade-In": {"discard_cost": "GY: Big Eight"}}},
                 deck([(TRADE_IN, 3), (BIG, 3), (TARGET, 1)]))


# -- what the cards cannot do --------------------------------------------------------------
def test_a_draw_card_that_can_never_be_played_gets_a_note() -> None:
    cards = deck([(PROSPERITY, 1), (TRADE_IN, 2), (TARGET, 3)])
    data = {"conditions": {"c": "Target"}}
    notes = compiled(data, cards, extra=2).notes
    assert ("Pot of Prosperity can never be played here: its cost banishes 3 or 6 face-down "
            "cards from the Extra Deck, and the Extra Deck holds 2.") in notes
    assert ("Trade-In can never be played here: its cost discards Level 8, and the deck has "
            "no such card.") in notes
    # with the cards to pay for them, no note
    fine = compiled(data, deck([(PROSPERITY, 1), (TRADE_IN, 2), (TARGET, 3), (BIG, 2)]),
                    extra=3).notes
    assert not [n for n in fine if "never" in n]


def test_the_library_takes_the_real_extra_deck_size_from_a_deck() -> None:
    from simkit import extra_monster, make_deck

    fusions = [extra_monster(500 + i, f"Fusion {i}") for i in range(6)]
    main = [(PROSPERITY, 1), (TARGET, 3), *[(b, 1) for b in BLANKS[:36]]]
    d = make_deck(main, [(f, 1) for f in fusions])
    pool = make_pool(PROSPERITY, TARGET, BLANKS, fusions)
    cp = compile_profile(parse_profile({"conditions": {"c": "Target"}}), d, pool, "t")
    assert cp.extra_size == 6
    assert not [n for n in cp.notes if "never" in n]
    from_list = compile_profile(parse_profile({"conditions": {"c": "Target"}}),
                                deck([(PROSPERITY, 1), (TARGET, 3)]), POOL, "t")
    assert any("Extra Deck size was not given" in n for n in from_list.notes)
    assert exact_odds(cp, 5).probabilities["success"] > \
        exact_odds(from_list, 5).probabilities["success"]


# -- ties by intent ------------------------------------------------------------------------
ALPHA = monster(30, "Alpha Dragon", 8)
ZETA = monster(31, "Zeta Dragon", 8)
KEY = monster(32, "Key Card")


def test_trade_in_discards_the_level_8_the_goal_needs_least() -> None:
    # "Alpha Dragon" comes first by label, but the goal names it: Trade-In gives up the
    # plain Level 8 ("Zeta Dragon") and keeps Alpha, exact and Monte Carlo alike
    from deckcheck.sim.goldfish.exact import DrawEvaluator
    from deckcheck.sim.goldfish.play import TurnState

    pool = make_pool(TRADE_IN, ALPHA, ZETA, KEY, BLANKS)
    cards = expand([(TRADE_IN, 1), (ALPHA, 2), (ZETA, 2), (KEY, 3)]) + BLANKS[:32]
    cp = compile_profile(parse_profile({"success": {"all": ["Alpha Dragon", "Key Card"]},
                                        "conditions": {"alpha": "Alpha Dragon"}}),
                         cards, pool, "t")
    c = cp.class_of_name
    k = [0] * len(cp.classes)
    for name, n in (("Trade-In", 1), ("Alpha Dragon", 1), ("Zeta Dragon", 1)):
        k[c[name]] = n
    k[c[BLANKS[0].name]] += 2
    rest = tuple(a - b for a, b in zip(cp.K, k, strict=True))
    ev = DrawEvaluator(cp, cp.success, measure={"alpha": cp.conditions["alpha"]})
    v = ev.value(tuple(k), rest, TurnState())
    assert v[1] == v[0]  # (denominator, numerators): P(Alpha held when play stops) = 1
    exact = exact_odds(cp, 5).probabilities
    mc = simulate(cp, 100_000, seed=3)
    assert inside(mc.by_turn["success"][0], mc.hands, float(exact["success"]))
    assert inside(mc.by_turn["alpha"][0], mc.hands, float(exact["alpha"]))

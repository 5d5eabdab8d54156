"""One game per hand: draw cards are played once, for success, and every row (NOTs
included) is measured on the hand that game left — checked against an independent
enumeration of every order of a small deck with Trade-In and Pot of Prosperity, played by
hand as the card texts say (not by the engine)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from simkit import arrangements, expand, make_pool, monster, spell

from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.exact import exact_odds
from deckcheck.sim.goldfish.montecarlo import simulate, wilson
from deckcheck.sim.goldfish.profile import parse_profile

PROSPERITY = spell(1, "Pot of Prosperity")
TRADE_IN = spell(8, "Trade-In")
BIG = monster(9, "Big Eight", 8)
TARGET = monster(3, "Target")
BLANK = monster(40, "Blank")
POOL = make_pool(PROSPERITY, TRADE_IN, BIG, TARGET, BLANK)
#: Card letters of the enumeration: P Prosperity, T Trade-In, A the target, L a Level 8,
#: X a blank.
CARDS = {"P": (PROSPERITY, 1), "T": (TRADE_IN, 2), "A": (TARGET, 2), "L": (BIG, 3),
         "X": (BLANK, 2)}
PROFILE = {"success": "Target",
           "conditions": {"two big": "Big Eight >= 2", "not two big": {"not": "two big"},
                          "a target": "Target"},
           "rows": {"two big given a target": {"row": "two big", "given": "a target"},
                    "bigs": {"count": "Big Eight"}}}


def _game(order: tuple[str, ...]) -> list[str]:
    """Turn 1 going first, played for "a target in hand" as the card texts say; the hand
    it ends with. Prosperity (3 Extra Deck cards: excavate 3, add 1, the rest to the
    bottom; not after a card drew, and nothing draws after it) comes first; Trade-In
    (discard a Level 8, draw 2) as long as there is one to play."""
    hand, rest = list(order[:5]), list(order[5:])
    drew = locked = False
    while "A" not in hand:
        if "P" in hand and not drew and not locked and len(rest) >= 3:
            hand.remove("P")
            locked = True
            seen, rest = rest[:3], rest[3:]
            # the card that makes the hand succeed, else the one the profile names most
            hand.append(next(c for c in ("A", "L", "T", "X", "P") if c in seen))
        elif "T" in hand and "L" in hand and not locked and len(rest) >= 2:
            hand.remove("T")
            hand.remove("L")
            hand.extend(rest[:2])
            rest = rest[2:]
            drew = True
        else:
            break
    return hand


ROWS: dict[str, Callable[[list[str]], bool]] = {
    "success": lambda h: "A" in h,
    "a target": lambda h: "A" in h,
    "two big": lambda h: h.count("L") >= 2,
    "not two big": lambda h: h.count("L") < 2,
}


@pytest.fixture(scope="module")
def by_hand() -> dict[str, Fraction]:
    orders = arrangements({k: n for k, (_, n) in CARDS.items()})
    assert len(orders) == 75_600  # 10! / (1! 2! 2! 3! 2!)
    hands = [_game(o) for o in orders]
    return {name: Fraction(sum(row(h) for h in hands), len(hands))
            for name, row in ROWS.items()}


def _compiled():  # type: ignore[no-untyped-def]
    cards = expand(list(CARDS.values()))
    return compile_profile(parse_profile(PROFILE), cards, POOL, "t", extra=3)


def test_the_enumeration_is_not_trivial(by_hand: dict[str, Fraction]) -> None:
    # draw cards move the Level 8 count: measured before play "two big" would differ
    assert 0 < by_hand["two big"] < 1
    assert by_hand["two big"] + by_hand["not two big"] == 1


def test_exact_rows_are_measured_on_the_one_game(by_hand: dict[str, Fraction]) -> None:
    res = exact_odds(_compiled(), 5).probabilities
    assert res == by_hand
    assert res["two big"] + res["not two big"] == 1


def test_each_row_alone_is_still_there_and_differs() -> None:
    # the explicit option: "two big" played for on its own never plays Trade-In's cost
    # away, so the row and its NOT no longer add up
    res = exact_odds(_compiled(), 5, one_game=False).probabilities
    assert res["two big"] + res["not two big"] != 1


def test_monte_carlo_rows_are_measured_on_the_one_game(by_hand: dict[str, Fraction]) -> None:
    mc = simulate(_compiled(), 200_000, seed=11)
    n = mc.hands
    assert mc.by_turn["two big"][0] + mc.by_turn["not two big"][0] == n
    assert mc.by_turn["success"] == mc.by_turn["a target"]
    for name, p in by_hand.items():
        lo, hi = wilson(mc.by_turn[name][0], n, 3.5)
        assert lo <= float(p) <= hi, name


def test_played_draw_cards_are_reported() -> None:
    res = exact_odds(_compiled(), 5)
    cp = _compiled()
    played = {cp.classes[d].label: p for d, p in res.played.items()}
    assert set(played) == {"Pot of Prosperity", "Trade-In"}
    # by hand: Prosperity is played whenever it is in the opening hand without a target
    orders = arrangements({k: n for k, (_, n) in CARDS.items()})
    plays = sum("P" in o[:5] and "A" not in o[:5] for o in orders)
    assert played["Pot of Prosperity"] == Fraction(plays, len(orders))


def test_derived_rows_match_the_enumeration() -> None:
    from deckcheck.sim.goldfish.report import going_result

    orders = arrangements({k: n for k, (_, n) in CARDS.items()})
    hands = [_game(o) for o in orders]
    with_target = [h for h in hands if "A" in h]
    given = Fraction(sum(h.count("L") >= 2 for h in with_target), len(with_target))
    bigs = Fraction(sum(h.count("L") for h in hands), len(hands))
    assert 0 < given < 1
    exact = going_result(_compiled(), False, mode="exact", turns=1, hands=None, seed=0)
    rows = {r.name: r.by_turn[0] for r in exact.rows}
    assert Fraction(rows["two big given a target"].fraction) == given
    assert Fraction(rows["bigs"].fraction) == bigs
    assert [g.name for g in exact.goals] == ["success", "two big", "not two big", "a target"]
    mc = going_result(_compiled(), False, mode="mc", turns=1, hands=200_000, seed=4)
    for r in mc.rows:
        rate = r.by_turn[0]
        truth = given if r.kind == "given" else bigs
        assert rate.low is not None and rate.high is not None
        assert rate.low <= float(truth) <= rate.high, r.name


SAGE = monster(50, "Sage")


@pytest.mark.parametrize("turns", [1, 2])  # the opening-hand path and the turn loop
def test_monte_carlo_rows_are_measured_after_the_searches(turns: int) -> None:
    cards = expand([(SAGE, 3), (TARGET, 3), (BIG, 3), (BLANK, 31)])
    data = {"success": {"all": ["Target", "Big Eight <= 1"]},
            "conditions": {"t": "Target", "not t": {"not": "t"}, "sage": "Sage"},
            "cards": {"Sage": {"search": "Target", "spent": True}}}
    cp = compile_profile(parse_profile(data), cards, make_pool(SAGE, TARGET, BIG, BLANK),
                         "t")
    exact = exact_odds(cp, 5).probabilities
    assert exact["t"] + exact["not t"] == 1
    mc = simulate(cp, 100_000, seed=6, turns=turns)
    n = mc.hands
    assert mc.by_turn["t"][0] + mc.by_turn["not t"][0] == n
    for name, p in exact.items():
        lo, hi = wilson(mc.by_turn[name][0], n, 3.5)
        assert lo <= float(p) <= hi, name

"""Derived rows: an expected count is the hypergeometric mean; a conditional row is the
ratio of two exact fractions; a `given` no hand meets is said, not divided by zero."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from simkit import expand, fillers, monster

from deckcheck.errors import ProfileError
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.derived import render_derived
from deckcheck.sim.goldfish.profile import parse_profile
from deckcheck.sim.goldfish.report import going_result

X = monster(1, "Card X")
Y = monster(2, "Card Y")


def _cp(rows: dict):  # type: ignore[no-untyped-def, type-arg]
    cards = expand([(X, 3), (Y, 2)]) + fillers(35)
    data = {"roles": {"x": ["Card X"]}, "conditions": {"c": "x >= 1"}, "rows": rows}
    return compile_profile(parse_profile(data), cards, None, "t")


def test_expected_count_and_conditional_row_exact_and_monte_carlo() -> None:
    cp = _cp({"xs": {"count": "x"}, "x given y": {"row": "x >= 1", "given": "Card Y"},
              "never": {"row": "c", "given": "Card Y >= 3"}})
    res = going_result(cp, False, mode="exact", turns=1, hands=None, seed=0)
    rows = {r.name: r.by_turn[0] for r in res.rows}
    assert Fraction(rows["xs"].fraction) == Fraction(5 * 3, 40)  # n K / N
    # P(x | at least one Y): hands with a Y, and among them those with an X
    with_y = 1 - Fraction(comb(38, 5), comb(40, 5))
    neither = Fraction(comb(35, 5), comb(40, 5))
    no_x = Fraction(comb(37, 5), comb(40, 5))
    both = with_y - (no_x - neither)
    assert Fraction(rows["x given y"].fraction) == both / with_y
    assert rows["never"].value is None and render_derived(rows["never"], "given") == "no hand"
    assert [g.name for g in res.goals] == ["success", "c"]  # hidden goals stay hidden
    mc = going_result(cp, False, mode="mc", turns=1, hands=50_000, seed=2)
    got = {r.name: r.by_turn[0] for r in mc.rows}
    lo, hi = got["xs"].low, got["xs"].high
    assert lo is not None and hi is not None and lo <= 0.375 <= hi
    assert got["never"].value is None


@pytest.mark.parametrize("row, message", [
    ({"count": "x", "given": "c"}, "a row is { row = CONDITION, given = CONDITION }"),
    ({"count": "Nope"}, "'Nope' is neither a role"),
])
def test_a_bad_row_is_one_sentence(row: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ProfileError, match=message.replace("{", r"\{").replace("}", r"\}")):
        _cp({"bad": row})


def test_a_row_cannot_take_a_condition_name() -> None:
    with pytest.raises(ProfileError, match="has the name of a condition"):
        _cp({"c": {"count": "x"}})

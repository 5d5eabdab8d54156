"""Derived rows (a profile's `[rows]`): conditional probabilities P(row | given) and expected
counts of cards, computed from the hidden goals `compiled` adds for them — measured, like
every row, on the one game per hand — exactly (fractions) or from Monte Carlo counts with a
95% interval."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from deckcheck.plain import Plain

if TYPE_CHECKING:
    from deckcheck.sim.goldfish.compiled import Derived
    from deckcheck.sim.goldfish.results import Rate


class DerivedRate(Plain):
    """A derived row by one turn: a conditional probability (`value` in 0..1) or an expected
    count of cards; exact (`fraction`) or Monte Carlo (95% interval `low`..`high`; `hands`:
    the hands it is estimated from — for a conditional row, those meeting `given`). `value`
    is None when no hand meets `given`."""

    __slots__ = ("turn", "value", "method", "fraction", "low", "high", "hands")

    def __init__(self, turn: int, value: float | None,
                 method: Literal["exact", "monte-carlo"], fraction: str | None = None,
                 low: float | None = None, high: float | None = None,
                 hands: int | None = None) -> None:
        self.turn = turn
        self.value = value
        self.method = method
        self.fraction = fraction
        self.low = low
        self.high = high
        self.hands = hands


class DerivedResult(Plain):
    """A `[rows]` entry: `kind` "given" (P(row | given)) or "count" (expected cards)."""

    __slots__ = ("name", "kind", "by_turn")

    def __init__(self, name: str, kind: Literal["given", "count"],
                 by_turn: list[DerivedRate]) -> None:
        self.name = name
        self.kind = kind
        self.by_turn = by_turn


def derived_result(dv: Derived, rates: dict[str, list[Rate]]) -> DerivedResult:
    """A derived row from the rates of its hidden goals, turn by turn: exact fractions, or
    Monte Carlo counts (a conditional row: a Wilson interval over the hands meeting
    `given`; an expected count: mean +- 1.96 standard errors)."""
    from fractions import Fraction
    from math import sqrt

    out = []
    for t, first in enumerate(rates[dv.goals[0]]):
        at = [rates[g][t] for g in dv.goals]
        if first.method == "exact":
            ps = [Fraction(r.fraction or "0") for r in at]
            if dv.kind == "given":
                v = ps[0] / ps[1] if ps[1] else None
            else:
                v = sum(ps, Fraction(0))
            out.append(DerivedRate(turn=t + 1, value=None if v is None else float(v),
                                   method="exact", fraction=None if v is None else
                                   f"{v.numerator}/{v.denominator}"))
            continue
        n = first.hands or 1
        ks = [round(r.probability * n) for r in at]
        if dv.kind == "given":
            from deckcheck.sim.goldfish.montecarlo import wilson

            if not ks[1]:
                out.append(DerivedRate(turn=t + 1, value=None, method="monte-carlo", hands=0))
                continue
            lo, hi = wilson(ks[0], ks[1])
            out.append(DerivedRate(turn=t + 1, value=ks[0] / ks[1], method="monte-carlo",
                                   low=lo, high=hi, hands=ks[1]))
        else:
            mean = sum(ks) / n
            square = sum((2 * j - 1) * k for j, k in enumerate(ks, 1)) / n
            half = 1.96 * sqrt(max(square - mean * mean, 0.0) / n)
            out.append(DerivedRate(turn=t + 1, value=mean, method="monte-carlo",
                                   low=mean - half, high=mean + half, hands=n))
    kind: Literal["given", "count"] = "given" if dv.kind == "given" else "count"
    return DerivedResult(name=dv.name, kind=kind, by_turn=out)


def render_derived(r: DerivedRate, kind: str) -> str:
    """One cell of a derived row for people: a percentage or a count, with its interval."""
    if r.value is None:
        return "no hand"
    s = f"{r.value * 100:6.2f}%" if kind == "given" else f"{r.value:6.3f}"
    if r.low is not None and r.high is not None:
        half = (r.high - r.low) / 2
        s += f" ±{half * 100:.2f}" if kind == "given" else f" ±{half:.3f}"
    elif r.fraction and len(r.fraction) <= 9:
        s += f" ({r.fraction})"
    return s

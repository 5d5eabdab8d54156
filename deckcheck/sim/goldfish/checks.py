"""A goal as checks on a hand's class-count vector: the form both engines evaluate (`exact`
compiles it to Python, `npeval` to NumPy), with the plain reference `interpret`, and how many
hand vectors a deck has (what decides whether the exact engine is tried). Light to import:
the Monte Carlo path loads this, not the exact engine."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term

#: Hand vectors the exact engine enumerates at most (per hand size) before giving up.
DEFAULT_BUDGET = 200_000

Checks = tuple[tuple[tuple[int, ...], int], ...]
#: (class indices, at least, at most) on the number of those classes present in the hand.
Distinct = tuple[tuple[tuple[int, ...], int | None, int | None], ...]
#: One term: (upper checks, lower checks, different-name checks, negated sub-goals).
TermChecks = tuple[Checks, Checks, Distinct, tuple[tuple[Any, ...], ...]]


def goal_checks(cp: CompiledProfile, terms: list[Term]) -> tuple[TermChecks, ...]:
    return tuple(term_checks(cp, t) for t in terms)


def term_checks(cp: CompiledProfile, term: Term) -> TermChecks:
    """A term as (upper checks, lower checks, distinct checks, negated goals): each check is
    (class indices, bound).

    Upper: the hand holds at most `bound` cards of those classes. Lower: at least `bound`.
    Without overlap the lower checks are Hall's condition for the matching of hand cards to
    the term's "at least" requirements: every set of requirements together needs no more
    cards than the hand holds of the classes that can fill any of them. Distinct: how many
    of those (one-name) classes are in the hand. Negated: goals that must not hold."""
    highs = tuple((tuple(cp.class_members(f)), hi) for f, hi in sorted(term.highs.items()))
    distinct = tuple((tuple(cp.class_members(f)), lo, hi)
                     for f, (lo, hi) in sorted(term.distinct.items()))
    nots = tuple(goal_checks(cp, sub) for sub in term.nots)
    feats = sorted(term.lows)
    lows: dict[tuple[int, ...], int] = {}
    if cp.overlap:
        for f in feats:
            key = tuple(cp.class_members(f))
            lows[key] = max(lows.get(key, 0), term.lows[f])
    else:
        for size in range(1, len(feats) + 1):
            for subset in combinations(feats, size):
                key = tuple(sorted({c for f in subset for c in cp.class_members(f)}))
                demand = sum(term.lows[f] for f in subset)
                lows[key] = max(lows.get(key, 0), demand)
    return highs, tuple(sorted(lows.items())), distinct, nots


def interpret(terms: tuple[TermChecks, ...], k: tuple[int, ...]) -> bool:
    """Whether the hand `k` meets one of the terms (the reference the compiled checks and
    the NumPy engine are tested against)."""
    for highs, lows, distinct, nots in terms:
        if any(sum(k[i] for i in idx) > hi for idx, hi in highs):
            continue
        if any(sum(k[i] for i in idx) < lo for idx, lo in lows):
            continue
        if any(not _in(sum(1 for i in idx if k[i]), lo, hi) for idx, lo, hi in distinct):
            continue
        if any(interpret(sub, k) for sub in nots):
            continue
        return True
    return False


def _in(n: int, lo: int | None, hi: int | None) -> bool:
    return (lo is None or n >= lo) and (hi is None or n <= hi)


def count_vectors(K: tuple[int, ...], n: int) -> int:
    """How many hand vectors k (0 <= k_i <= K_i, sum n) there are."""
    ways = [1] + [0] * n
    for cap in K:
        new = [0] * (n + 1)
        for total, w in enumerate(ways):
            if w:
                for x in range(min(cap, n - total) + 1):
                    new[total + x] += w
        ways = new
    return ways[n]

"""The exact engine: multivariate hypergeometric enumeration over class-count vectors.

The deck is grouped into classes of interchangeable cards (same roles, same behaviour);
a hand is a count vector k over the classes; its probability is
``prod(C(K_i, k_i)) / C(N, n)``. Every vector is evaluated (searchers included: a searcher
in hand adds one card of its target class if the rest of the Deck still holds one — the
remaining deck is ``K - k``), and the probabilities of the successful ones are summed as an
exact `fractions.Fraction`. Pure Python, no NumPy: it is the fast path of the CLI.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb

from deckcheck.errors import ExactTooLarge, SimError
from deckcheck.sim.goldfish.profile import CompiledProfile, Term

#: Hand vectors the exact engine enumerates at most (per hand size) before giving up.
DEFAULT_BUDGET = 200_000

Checks = tuple[tuple[tuple[int, ...], int], ...]


def term_checks(cp: CompiledProfile, term: Term) -> tuple[Checks, Checks]:
    """A term as (upper checks, lower checks): each check is (class indices, bound).

    Upper: the hand holds at most `bound` cards of those classes. Lower: at least `bound`.
    Without overlap the lower checks are Hall's condition for the matching of hand cards to
    the term's "at least" requirements: every set of requirements together needs no more
    cards than the hand holds of the classes that can fill any of them."""
    highs = tuple((tuple(cp.class_members(f)), hi) for f, hi in sorted(term.highs.items()))
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
    return highs, tuple(sorted(lows.items()))


class Evaluator:
    """Decides whether a hand (class-count vector) meets one goal, searchers included."""

    def __init__(self, cp: CompiledProfile, terms: list[Term]) -> None:
        self.cp = cp
        self.terms = [term_checks(cp, t) for t in terms]
        # deliberately shadows the interpreted `ok` method below with its compiled twin
        self.ok = _compile_checks(tuple(self.terms))  # type: ignore[assignment]
        self.searchers = sorted(s for s, b in cp.behaviours.items() if b.kind == "search")
        self.spent = {s: cp.behaviours[s].is_spent for s in self.searchers}
        self.targets = {s: cp.class_members(cp.targets[s]) for s in self.searchers}
        self._memo: dict[tuple[tuple[int, ...], tuple[int, ...], frozenset[int]], bool] = {}

    def ok(self, k: tuple[int, ...]) -> bool:
        """Whether the hand meets one of the terms (replaced by a compiled version)."""
        for highs, lows in self.terms:
            for idx, hi in highs:
                if sum(k[i] for i in idx) > hi:
                    break
            else:
                for idx, lo in lows:
                    if sum(k[i] for i in idx) < lo:
                        break
                else:
                    return True
        return False

    def succeeds(self, k: tuple[int, ...], rest: tuple[int, ...],
                 used: frozenset[int] = frozenset()) -> bool:
        """Whether the hand `k` meets the goal, using searchers with `rest` left in the Deck."""
        if self.ok(k):
            return True
        if not self.searchers:
            return False
        key = (k, rest, used)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        result = False
        for s in self.searchers:
            if s in used or k[s] == 0:
                continue
            for t in self.targets[s]:
                if rest[t] == 0:
                    continue
                k2 = list(k)
                k2[t] += 1
                if self.spent[s]:
                    k2[s] -= 1
                r2 = list(rest)
                r2[t] -= 1
                if self.succeeds(tuple(k2), tuple(r2), used | {s}):
                    result = True
                    break
            if result:
                break
        self._memo[key] = result
        return result


@lru_cache(maxsize=256)
def _compile_checks(terms: tuple[tuple[Checks, Checks], ...]) -> Callable[[tuple[int, ...]], bool]:
    """The checks as one Python expression over the count vector `k`, compiled once: about
    ten times faster than interpreting them. Only integers go into the source text."""
    def total(idx: tuple[int, ...]) -> str:
        return " + ".join(f"k[{int(i)}]" for i in idx) or "0"

    alts = []
    for highs, lows in terms:
        parts = [f"{total(idx)} <= {int(hi)}" for idx, hi in highs]
        parts += [f"{total(idx)} >= {int(lo)}" for idx, lo in lows]
        alts.append("(" + (" and ".join(parts) or "True") + ")")
    expr = " or ".join(alts) or "False"
    fn: Callable[[tuple[int, ...]], bool] = eval(  # noqa: S307
        f"lambda k: bool({expr})", {"__builtins__": {"bool": bool}})
    return fn


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


@lru_cache(maxsize=256)
def hand_vectors(K: tuple[int, ...], n: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every hand vector of `n` cards with its number of card combinations prod C(K_i, k_i).

    Built class by class as lists of (partial vector, weight); cached per (K, n)."""
    m = len(K)
    if m == 0:
        return ()
    suffix = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        suffix[i] = suffix[i + 1] + K[i]
    partial: list[tuple[tuple[int, ...], int, int]] = [((), 1, n)]  # (vector, weight, left)
    for i, cap in enumerate(K[:-1]):
        combs = [comb(cap, x) for x in range(min(cap, n) + 1)]
        rest_cap = suffix[i + 1]
        nxt = []
        for vec, w, left in partial:
            for x in range(max(0, left - rest_cap), min(cap, left) + 1):
                nxt.append((vec + (x,), w * combs[x], left - x))
        partial = nxt
    last = [comb(K[-1], x) for x in range(min(K[-1], n) + 1)]
    return tuple((vec + (left,), w * last[left]) for vec, w, left in partial)


@dataclass
class ExactResult:
    """Exact probabilities for one hand size: goal name -> Fraction; failing hands."""

    hand_size: int
    probabilities: dict[str, Fraction]
    #: (class-count vector, probability) of hands failing "success", most likely first.
    failing: list[tuple[tuple[int, ...], Fraction]] = field(default_factory=list)
    vectors: int = 0


def exact_odds(cp: CompiledProfile, hand_size: int, *, goals: dict[str, list[Term]] | None = None,
               K: tuple[int, ...] | None = None, budget: int = DEFAULT_BUDGET,
               failing: int = 0) -> ExactResult:
    """Exact probability that a `hand_size`-card hand meets each goal (default: "success"
    and every named condition). `K` overrides the class sizes (for +-1 copy questions)."""
    if cp.has_draws:
        raise SimError("Draw and excavate cards need the Monte Carlo engine; use --hands N.")
    sizes = K if K is not None else cp.K
    N = sum(sizes)
    if hand_size > N:
        raise SimError(f"A hand of {hand_size} cannot be dealt from a Main Deck of {N} cards.")
    nvec = count_vectors(sizes, hand_size)
    if nvec > budget:
        raise ExactTooLarge(f"The exact calculation would enumerate {nvec} hands (budget "
                            f"{budget}); use --hands N for Monte Carlo.")
    goals = goals if goals is not None else {"success": cp.success, **cp.conditions}
    evals = {name: Evaluator(cp, terms) for name, terms in goals.items()}
    nums = dict.fromkeys(goals, 0)
    fails: list[tuple[tuple[int, ...], int]] = []
    first = next(iter(goals))
    searchers = any(ev.searchers for ev in evals.values())
    for k, w in hand_vectors(sizes, hand_size):
        rest = tuple(a - b for a, b in zip(sizes, k, strict=True)) if searchers else sizes
        for name, ev in evals.items():
            if ev.succeeds(k, rest):
                nums[name] += w
            elif failing and name == first:
                fails.append((k, w))
    total = comb(N, hand_size)
    fails.sort(key=lambda kw: (-kw[1], kw[0]))
    return ExactResult(hand_size, {n: Fraction(v, total) for n, v in nums.items()},
                       [(k, Fraction(w, total)) for k, w in fails[:failing]], nvec)

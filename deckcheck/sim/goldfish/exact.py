"""The exact engine: multivariate hypergeometric enumeration over class-count vectors.

The deck is grouped into classes of interchangeable cards (same roles, same behaviour);
a hand is a count vector k over the classes; its probability is
``prod(C(K_i, k_i)) / C(N, n)``. Every vector is evaluated (searchers included: a searcher
in hand adds one card of its target class if the rest of the Deck still holds one — the
remaining deck is ``K - k``), and the probabilities of the successful ones are summed as an
exact `fractions.Fraction`. Pure Python, no NumPy: it is the fast path of the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, gcd, lcm
from typing import Any

from deckcheck.errors import ExactTooLarge, SimError
from deckcheck.sim.goldfish.checks import (
    DEFAULT_BUDGET,
    TermChecks,
    count_vectors,
    goal_checks,
    interpret,
)
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term


class Evaluator:
    """Decides whether a hand (class-count vector) meets one goal, searchers included."""

    def __init__(self, cp: CompiledProfile, terms: list[Term]) -> None:
        self.cp = cp
        self.terms = goal_checks(cp, terms)
        # deliberately shadows the interpreted `ok` method below with its compiled twin
        self.ok = _compile_checks(self.terms)  # type: ignore[assignment]
        self.searchers = sorted(s for s, b in cp.behaviours.items() if b.kind == "search")
        self.worlds = sorted(s for s, b in cp.behaviours.items() if b.kind == "small world")
        self.spent = {s: cp.behaviours[s].is_spent for s in self.searchers}
        self.targets = {s: cp.class_members(cp.targets[s]) for s in self.searchers}
        self._memo: dict[tuple[tuple[int, ...], tuple[int, ...], frozenset[int]], bool] = {}

    def ok(self, k: tuple[int, ...]) -> bool:
        """Whether the hand meets one of the terms (replaced by a compiled version)."""
        return interpret(self.terms, k)

    def succeeds(self, k: tuple[int, ...], rest: tuple[int, ...],
                 used: frozenset[int] = frozenset()) -> bool:
        """Whether the hand `k` meets the goal, using searchers with `rest` left in the Deck."""
        if self.ok(k):
            return True
        if not self.searchers and not self.worlds:
            return False
        key = (k, rest, used)
        hit = self._memo.get(key)
        if hit is None:
            hit = any(self.succeeds(k2, r2, used2) for k2, r2, used2 in self._searches(
                k, rest, used))
            self._memo[key] = hit
        return hit

    def final(self, k: tuple[int, ...], rest: tuple[int, ...],
              used: frozenset[int] = frozenset()) -> tuple[int, ...]:
        """The hand once the searches that make it succeed are made (the first way
        `succeeds` finds: searchers in class order, each target in order, then Small
        World); the hand itself when it succeeds without one, or when none makes it."""
        if self.ok(k) or (not self.searchers and not self.worlds):
            return k
        for k2, r2, used2 in self._searches(k, rest, used):
            if self.succeeds(k2, r2, used2):
                return self.final(k2, r2, used2)
        return k

    def _searches(self, k: tuple[int, ...], rest: tuple[int, ...], used: frozenset[int]
                  ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], frozenset[int]]]:
        """Each search the hand `k` can make with `rest` left in the Deck, in the order
        `succeeds` and `final` try them (searchers in class order, each target in order,
        then Small World): (the hand, the Deck, the searchers used) after it."""
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
                yield tuple(k2), tuple(r2), used | {s}
        for s in self.worlds:  # Small World: reveal `a` (banished), banish a bridge, add `t`
            if s in used or k[s] == 0:
                continue
            for a, t, bridges in self.cp.small_world:
                if k[a] - (a == s) <= 0 or rest[t] == 0:
                    continue
                b = next((b for b in bridges if rest[b] > (1 if b == t else 0)), None)
                if b is None:
                    continue
                k2 = list(k)
                k2[s] -= 1
                k2[a] -= 1
                k2[t] += 1
                r2 = list(rest)
                r2[t] -= 1
                r2[b] -= 1
                yield tuple(k2), tuple(r2), used | {s}


def _expr(terms: tuple[TermChecks, ...]) -> str:
    def total(idx: tuple[int, ...]) -> str:
        return " + ".join(f"k[{int(i)}]" for i in idx) or "0"

    def present(idx: tuple[int, ...]) -> str:
        return " + ".join(f"(k[{int(i)}] > 0)" for i in idx) or "0"

    alts = []
    for highs, lows, distinct, nots in terms:
        parts = [f"{total(idx)} <= {int(hi)}" for idx, hi in highs]
        parts += [f"{total(idx)} >= {int(lo)}" for idx, lo in lows]
        for idx, lo, hi in distinct:
            if lo is not None:
                parts.append(f"{present(idx)} >= {int(lo)}")
            if hi is not None:
                parts.append(f"{present(idx)} <= {int(hi)}")
        parts += [f"not ({_expr(sub)})" for sub in nots]
        alts.append("(" + (" and ".join(parts) or "True") + ")")
    return " or ".join(alts) or "False"


@lru_cache(maxsize=256)
def _compile_checks(terms: tuple[TermChecks, ...]) -> Callable[[tuple[int, ...]], bool]:
    """The checks as one Python expression over the count vector `k`, compiled once: about
    ten times faster than interpreting them. Only integers go into the source text."""
    fn: Callable[[tuple[int, ...]], bool] = eval(  # noqa: S307
        f"lambda k: bool({_expr(terms)})", {"__builtins__": {"bool": bool}})
    return fn


def iter_vectors(K: tuple[int, ...], n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every hand vector of `n` cards with its number of card combinations prod C(K_i, k_i),
    one at a time (nothing kept: for the exact engine's inner loops, bounded by its work
    limit before they start)."""
    m = len(K)
    if m == 0:
        return
    suffix = [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        suffix[i] = suffix[i + 1] + K[i]
    combs = [[comb(cap, x) for x in range(min(cap, n) + 1)] for cap in K]

    def walk(i: int, vec: tuple[int, ...], w: int, left: int
             ) -> Iterator[tuple[tuple[int, ...], int]]:
        if i == m - 1:
            yield vec + (left,), w * combs[i][left]
            return
        for x in range(max(0, left - suffix[i + 1]), min(K[i], left) + 1):
            yield from walk(i + 1, vec + (x,), w * combs[i][x], left - x)

    if n <= suffix[0]:
        yield from walk(0, (), 1, n)


def few_vectors(K: tuple[int, ...], n: int) -> list[tuple[tuple[int, ...], int]]:
    """`hand_vectors(K, n)` for n <= 2 (a draw card's one or two cards), built directly: the
    same vectors, in the same order, several times faster than the general enumeration."""
    m = len(K)
    if n == 0:
        return [((0,) * m, 1)]
    nz = [i for i in range(m) if K[i]]
    if n == 1:
        return [(tuple(1 if j == i else 0 for j in range(m)), K[i]) for i in reversed(nz)]
    out = []
    for a in reversed(nz):  # (hand_vectors' order: the first class's count rises last)
        for b in reversed([i for i in nz if i >= a]):
            if a == b:
                if K[a] >= 2:
                    out.append((tuple(2 if j == a else 0 for j in range(m)),
                                K[a] * (K[a] - 1) // 2))
            else:
                out.append((tuple(1 if j in (a, b) else 0 for j in range(m)), K[a] * K[b]))
    return out


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


class NeedsMonteCarlo(SimError):
    """A card behaviour the exact engine does not enumerate."""


#: Probabilities with one denominator: (denominator, numerator of each entry). Integers
#: are several times faster to add than `Fraction`s (which reduce at every step).
Vec = tuple[int, ...]


class DrawEvaluator:
    """One game per opening hand: the player plays draw cards (the policy of `play`) for
    the goal `terms`, each random draw, banished top card or excavation enumerated exactly;
    every goal of `measure` (default: that goal alone) is then measured on the hand that
    play ended with, so the goals are a breakdown of the very same games.

    `value` gives, per goal of `measure`, the probability that it holds when play stops,
    then, per draw card class of `order`, the probability that it was played.

    `work` counts every unit of work (hand states explored, banished-card and drawn-card
    combinations and excavated classes gone through), each counted before its loop starts;
    past `work_limit` the calculation stops with ExactTooLarge."""

    #: Units of work at most before the exact engine gives up (about a second of work:
    #: each unit is a hand state or card combination, some microseconds of fractions).
    WORK_LIMIT = 120_000

    def __init__(self, cp: CompiledProfile, terms: list[Term],
                 work_limit: int = WORK_LIMIT,
                 measure: dict[str, list[Term]] | None = None) -> None:
        from deckcheck.sim.goldfish import play

        self.work_limit = work_limit
        self.cp = cp
        self.play = play
        self.ev = Evaluator(cp, terms)
        #: One game: the goals are measured on the hand the play (draws and searches for
        #: `terms`) ended with; else (one goal alone) the goal with its own searches.
        self.one_game = measure is not None
        self.measured = [self.ev] if measure is None else [
            Evaluator(cp, t) for t in measure.values()]
        self.order = play.play_order(cp)
        self.pref = play.preference(cp, terms)
        self.needs = play.need_order(cp, terms)
        for d in self.order:
            b = cp.behaviours[d]
            others = [e for e in self.order if e != d]
            if b.excavate and b.excavate_rest == "bottom" and others and not (
                    b.no_draw_after and all(cp.behaviours[e].draws for e in others)):
                raise NeedsMonteCarlo("An excavation to the bottom of the Deck followed by "
                                      "other draw cards needs the Monte Carlo engine; use "
                                      "--hands N.")
        self.work = 0
        self._memo: dict[tuple[Any, ...], Vec] = {}
        self._zero = (1,) + (0,) * (len(self.measured) + len(self.order))

    def spend(self, units: int) -> None:
        """Count `units` of work; ExactTooLarge past the limit."""
        self.work += units
        if self.work > self.work_limit:
            raise ExactTooLarge(f"The exact calculation with draw cards passed its work limit "
                                f"({self.work_limit:,} hand states and card combinations)")

    def value(self, k: tuple[int, ...], r: tuple[int, ...], st: Any) -> Vec:
        key = (k, r, st.key())
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        self.spend(1)
        out = self._end(k, r, st) if self.ev.succeeds(k, r) else self._play(k, r, st)
        self._memo[key] = out
        return out

    def _end(self, k: tuple[int, ...], r: tuple[int, ...], st: Any) -> Vec:
        """Play has stopped: each goal measured on this hand, each draw card played or not."""
        if self.one_game:
            kf = self.ev.final(k, r)
            rows = [1 if ev.ok(kf) else 0 for ev in self.measured]
        else:
            rows = [1 if ev.succeeds(k, r) else 0 for ev in self.measured]
        return (1, *rows, *(1 if d in st.used else 0 for d in self.order))

    def _play(self, k0: tuple[int, ...], r: tuple[int, ...], st: Any) -> Vec:
        cp, play = self.cp, self.play
        left = sum(r)
        hand = sum(k0)
        d = next((d for d in self.order if play.playable(cp, d, k0, left, hand, st)), None)
        if d is None:
            return self._end(k0, r, st)
        b = cp.behaviours[d]
        st2 = play.after_play(cp, d, st)
        draw, excavate = play.amounts(b, st.extra)
        k = list(k0)
        if b.is_spent:
            k[d] -= 1
        if d in cp.costs:
            c = self._remove(k, r, cp.class_members(cp.costs[d]))
            assert c is not None  # playable() checked the cost can be paid
            k[c] -= 1
        if b.redraw_hand:
            draw = sum(k)
            k = [0] * len(k)
        if excavate:
            return self._excavate(k, r, st2, excavate, b.excavate_rest)
        if b.banish_top:  # the cost: the top cards, face-down, then the draws
            self.spend(count_vectors(r, b.banish_top))
            total = self._zero
            den = comb(left, b.banish_top)
            for y, w in iter_vectors(r, b.banish_top):
                r1 = tuple(a - b_ for a, b_ in zip(r, y, strict=True))
                total = _add(total, w, self._draw(k, r1, st2, d, draw))
            return _scale(total, den)
        return self._draw(k, r, st2, d, draw)

    def _draw(self, k: list[int], r: tuple[int, ...], st2: Any, d: int,
              draw: int) -> Vec:
        """Draw `draw` cards (then Allure's banish) and go on playing."""
        cp = self.cp
        b = cp.behaviours[d]
        total = self._zero
        den = comb(sum(r), draw)
        drawn = few_vectors(r, draw) if draw <= 2 else None
        self.spend(len(drawn) if drawn is not None else count_vectors(r, draw))
        for x, w in drawn if drawn is not None else hand_vectors(r, draw):
            k2 = [a + b_ for a, b_ in zip(k, x, strict=True)]
            r2 = tuple(a - b_ for a, b_ in zip(r, x, strict=True))
            if b.then_banish is not None:
                c = self._remove(k2, r2, cp.class_members(cp.targets[d]))
                if c is None:
                    k2 = [0] * len(k2)
                else:
                    k2[c] -= 1
            total = _add(total, w, self.value(tuple(k2), r2, st2))
        return _scale(total, den)

    def _remove(self, k: list[int], r: tuple[int, ...], members: list[int]) -> int | None:
        def keeps(c: int) -> bool:
            k2 = list(k)
            k2[c] -= 1
            return self.ev.succeeds(tuple(k2), r)

        return self.play.remove_choice(self.play.least_needed(members, self.needs), k, keeps)

    def _excavate(self, k: list[int], r: tuple[int, ...], st: Any, n: int,
                  rest: str) -> Vec:
        """Excavate `n`: the added class is the first present in (classes that make the hand
        succeed, then the others), each in preference order; the rest stay in reach of
        searches (bottom or shuffled back), and nothing after this draws or excavates from
        the bottom (checked in __init__)."""
        R = sum(r)
        self.spend(len(self.pref))
        good: list[int] = []
        bad: list[int] = []
        for t in self.pref:
            if r[t] == 0:
                continue
            k2 = list(k)
            k2[t] += 1
            r2 = list(r)
            r2[t] -= 1
            (good if self.ev.succeeds(tuple(k2), tuple(r2)) else bad).append(t)
        den = comb(R, n)
        total = self._zero
        absent_before = den  # ways to excavate none of the classes so far
        seen = 0
        for t in good + bad:
            seen += r[t]
            absent_now = comb(R - seen, n)
            ways = absent_before - absent_now  # none of the earlier, at least one t
            absent_before = absent_now
            if not ways:
                continue
            k2 = list(k)
            k2[t] += 1
            r2 = list(r)
            r2[t] -= 1
            total = _add(total, ways, self.value(tuple(k2), tuple(r2), st))
        return _scale(total, den)


def _add(total: Vec, w: int, v: Vec) -> Vec:
    """total + w * v."""
    d0, d1 = total[0], v[0]
    if d0 == d1:
        return (d0, *(a + w * b for a, b in zip(total[1:], v[1:], strict=True)))
    m = lcm(d0, d1)
    x, y = m // d0, w * (m // d1)
    return (m, *(a * x + b * y for a, b in zip(total[1:], v[1:], strict=True)))


def _scale(total: Vec, den: int) -> Vec:
    """total / den, reduced."""
    d = total[0] * den
    g = gcd(d, *total[1:])
    return (d // g, *(a // g for a in total[1:]))


def as_fractions(v: Vec) -> tuple[Fraction, ...]:
    return tuple(Fraction(a, v[0]) for a in v[1:])


@dataclass
class ExactResult:
    """Exact probabilities for one hand size: goal name -> Fraction; failing hands."""

    hand_size: int
    probabilities: dict[str, Fraction]
    #: (class-count vector, probability) of hands failing "success", most likely first.
    failing: list[tuple[tuple[int, ...], Fraction]] = field(default_factory=list)
    vectors: int = 0
    #: Draw card class -> the probability that it was played (one game per hand).
    played: dict[int, Fraction] = field(default_factory=dict)
    #: Units of work the draw-card enumeration took (`DrawEvaluator.work`).
    work: int = 0


def exact_odds(cp: CompiledProfile, hand_size: int, *, goals: dict[str, list[Term]] | None = None,
               K: tuple[int, ...] | None = None, budget: int = DEFAULT_BUDGET,
               failing: int = 0, draw_work: int = DrawEvaluator.WORK_LIMIT,
               one_game: bool = True) -> ExactResult:
    """Exact probability that a `hand_size`-card hand meets each goal (default: "success"
    and every named condition). `K` overrides the class sizes (for +-1 copy questions).

    `one_game` (the default): draw cards and searchers are played once per hand, for the
    first goal, and every goal is measured on the hand that play ended with; without, each
    goal is played for on its own (its own draws and searches)."""
    if cp.zones:
        raise NeedsMonteCarlo("Conditions on the GY or banished cards need the Monte Carlo "
                              "engine; use --hands N.")
    sizes = K if K is not None else cp.K
    N = sum(sizes)
    if hand_size > N:
        raise SimError(f"A hand of {hand_size} cannot be dealt from a Main Deck of {N} cards.")
    nvec = count_vectors(sizes, hand_size)
    if nvec > budget:
        raise ExactTooLarge(f"The exact calculation would enumerate {nvec} hands (budget "
                            f"{budget}); use --hands N for Monte Carlo.")
    goals = goals if goals is not None else {"success": cp.success, **cp.conditions}
    total = comb(N, hand_size)
    if cp.has_draws:
        return _exact_with_draws(cp, goals, sizes, hand_size, failing, nvec, draw_work,
                                 one_game)
    evals = {name: Evaluator(cp, terms) for name, terms in goals.items()}
    nums = dict.fromkeys(goals, 0)
    fails: list[tuple[tuple[int, ...], int]] = []
    first = next(iter(goals))
    lead = evals[first]
    searchers = any(ev.searchers or ev.worlds for ev in evals.values())
    for k, w in hand_vectors(sizes, hand_size):
        rest = tuple(a - b for a, b in zip(sizes, k, strict=True)) if searchers else sizes
        # one game: the searches made for the first goal, every goal measured on the hand
        # they leave; else each goal with its own searches
        kf = lead.final(k, rest) if one_game and searchers else k
        for name, ev in evals.items():
            if ev.ok(kf) if one_game else ev.succeeds(k, rest):
                nums[name] += w
            elif failing and name == first:
                fails.append((k, w))
    fails.sort(key=lambda kw: (-kw[1], kw[0]))
    return ExactResult(hand_size, {n: Fraction(v, total) for n, v in nums.items()},
                       [(k, Fraction(w, total)) for k, w in fails[:failing]], nvec)


def _exact_with_draws(cp: CompiledProfile, goals: dict[str, list[Term]],
                      sizes: tuple[int, ...], hand_size: int, failing: int,
                      nvec: int, draw_work: int, one_game: bool) -> ExactResult:
    """Turn 1 with draw cards: each opening hand's games, draws enumerated. One game per
    hand played for the first goal, every goal measured on it (`one_game`), or one game
    per goal."""
    from deckcheck.sim.goldfish.play import TurnState

    total = comb(sum(sizes), hand_size)
    first_terms = next(iter(goals.values()))
    players = [DrawEvaluator(cp, first_terms, draw_work, measure=goals)] if one_game else [
        DrawEvaluator(cp, terms, draw_work) for terms in goals.values()]
    G = len(goals)
    sums = [Fraction(0)] * (G + len(players[0].order))
    fails: list[tuple[tuple[int, ...], Fraction]] = []
    start = TurnState(extra=cp.extra_size)
    for k, w in hand_vectors(sizes, hand_size):
        rest = tuple(a - b for a, b in zip(sizes, k, strict=True))
        if one_game:
            v = as_fractions(players[0].value(k, rest, start))
        else:  # each goal's own game: its result; the played cards of the first goal's
            vs = [as_fractions(p.value(k, rest, start)) for p in players]
            v = (*(x[0] for x in vs), *vs[0][1:])
        for i, x in enumerate(v):
            if x:
                sums[i] += w * x
        if failing and v[0] < 1:
            fails.append((k, Fraction(w, total) * (1 - v[0])))
    fails.sort(key=lambda kp: (-kp[1], kp[0]))
    order = players[0].order
    return ExactResult(hand_size, {n: sums[i] / total for i, n in enumerate(goals)},
                       fails[:failing], nvec,
                       played={d: sums[G + j] / total for j, d in enumerate(order)},
                       work=sum(p.work for p in players))

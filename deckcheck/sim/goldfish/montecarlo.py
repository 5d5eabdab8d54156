"""The Monte Carlo engine (NumPy): many shuffled hands at once, evaluated as count matrices.

Hands are class-count vectors, like the exact engine's, but sampled: opening hands are
random sets of deck positions (below) or come from `Generator.multivariate_hypergeometric`;
each later card is drawn from the
remaining Deck counts (a uniformly random card of what is left, which is what drawing the
top card of a shuffled Deck is). Conditions are evaluated with matrix products over the
whole batch. This module is imported only when Monte Carlo is needed (NumPy is slow to
import). Every result carries the number of hands, the seed and a 95% Wilson interval.

Two paths:

- opening-hand questions (no draw/excavate cards, one turn): each hand is `n` distinct
  random deck positions (rejection sampling), encoded at once as a mixed-radix key of its
  class counts; the batch is reduced to its distinct hands with their frequencies
  (`bincount`), and each distinct hand is evaluated once;
- everything else (several turns, draw and excavate cards, the hand size limit): a turn
  loop over the whole batch with per-hand state (hand, remaining Deck, bottom cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import sqrt
from typing import Any

import numpy as np

from deckcheck.errors import SimError
from deckcheck.sim.goldfish.exact import term_checks
from deckcheck.sim.goldfish.profile import CompiledProfile, Term
from deckcheck.sim.state import HAND_LIMIT, OPENING_HAND

CHUNK = 1 << 20
Array = Any  # numpy arrays (kept loose so the module type-checks without numpy stubs)


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a success rate."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


class NpEvaluator:
    """One goal evaluated on a batch of hands (rows of class counts), searchers included."""

    def __init__(self, cp: CompiledProfile, terms: list[Term]) -> None:
        self.cp = cp
        C = len(cp.classes)
        cols: list[tuple[int, ...]] = []
        self.terms: list[tuple[Array, Array, Array, Array]] = []
        for highs, lows in (term_checks(cp, t) for t in terms):
            hi_idx, hi_val, lo_idx, lo_val = [], [], [], []
            for idx, v in highs:
                hi_idx.append(_col(cols, idx))
                hi_val.append(v)
            for idx, v in lows:
                lo_idx.append(_col(cols, idx))
                lo_val.append(v)
            self.terms.append((np.array(hi_idx, dtype=np.intp), np.array(hi_val),
                               np.array(lo_idx, dtype=np.intp), np.array(lo_val)))
        self.M = np.zeros((C, max(1, len(cols))), dtype=np.int32)
        for j, idx in enumerate(cols):
            self.M[list(idx), j] = 1
        self.searchers = sorted(s for s, b in cp.behaviours.items() if b.kind == "search")
        self.targets = {s: cp.class_members(cp.targets[s]) for s in self.searchers}

    def ok(self, H: Array) -> Array:
        S = H.astype(np.int32) @ self.M
        out = np.zeros(len(H), dtype=bool)
        for hi_idx, hi_val, lo_idx, lo_val in self.terms:
            t = np.ones(len(H), dtype=bool)
            if len(hi_idx):
                t &= (S[:, hi_idx] <= hi_val).all(axis=1)
            if len(lo_idx):
                t &= (S[:, lo_idx] >= lo_val).all(axis=1)
            out |= t
        return out

    def succeeds(self, H: Array, R: Array, used: frozenset[int] = frozenset()) -> Array:
        """Rows whose hand meets the goal, each unused searcher adding its best target."""
        ok = self.ok(H)
        for s in self.searchers:
            if s in used:
                continue
            spent = self.cp.behaviours[s].is_spent
            for t in self.targets[s]:
                cand = ~ok & (H[:, s] > 0) & (R[:, t] > 0)
                if not cand.any():
                    continue
                H2 = H[cand]
                H2[:, t] += 1
                if spent:
                    H2[:, s] -= 1
                R2 = R[cand]
                R2[:, t] -= 1
                ok[cand] |= self.succeeds(H2, R2, used | {s})
        return ok


def _col(cols: list[tuple[int, ...]], idx: tuple[int, ...]) -> int:
    if idx not in cols:
        cols.append(idx)
    return cols.index(idx)


@dataclass
class MCResult:
    """Monte Carlo counts: per goal, hands that succeeded by each turn (index 0 = turn 1)."""

    hands: int
    seed: int
    going_second: bool
    turns: int
    by_turn: dict[str, list[int]]
    #: (opening class-count vector, count) of hands failing "success" on turn 1.
    failing: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    deck_outs: int = 0

    def rate(self, goal: str = "success", turn: int = 1) -> float:
        return self.by_turn[goal][turn - 1] / self.hands

    def interval(self, goal: str = "success", turn: int = 1) -> tuple[float, float]:
        return wilson(self.by_turn[goal][turn - 1], self.hands)


def _sample_opening(rng: Array, K: Array, n: int, size: int) -> Array:
    return rng.multivariate_hypergeometric(K, n, size=size, method="count")


def _sample_keys(rng: Array, pos_key: Array, n: int, size: int) -> Array:
    """Keys of `size` random `n`-card hands: `n` uniformly random deck positions per hand,
    hands with a repeated position dealt again (so every set of `n` distinct positions is
    equally likely), each hand's key the sum of its positions' keys."""
    N = len(pos_key)
    out = np.empty(size, dtype=pos_key.dtype)
    todo = np.arange(size)
    while len(todo):
        P = rng.integers(0, N, size=(n, len(todo)), dtype=np.uint8 if N < 256 else np.int64)
        bad = np.zeros(len(todo), dtype=bool)
        for i in range(n):
            for j in range(i + 1, n):
                bad |= P[i] == P[j]
        keys = pos_key[P[0]]
        for i in range(1, n):
            keys += pos_key[P[i]]
        good = ~bad
        out[todo[good]] = keys[good]
        todo = todo[bad]
    return out


def _goals(cp: CompiledProfile, goals: dict[str, list[Term]] | None) -> dict[str, list[Term]]:
    return goals if goals is not None else {"success": cp.success, **cp.conditions}


def simulate(cp: CompiledProfile, hands: int, *, seed: int, going_second: bool = False,
             turns: int = 1, goals: dict[str, list[Term]] | None = None,
             K: tuple[int, ...] | None = None, failing: int = 0) -> MCResult:
    """Deal `hands` random hands and play `turns` turns of goldfishing for each goal."""
    if hands < 1:
        raise SimError(f"The number of hands must be at least 1, not {hands}.")
    sizes = np.array(K if K is not None else cp.K, dtype=np.int64)
    if sizes.sum() < OPENING_HAND + (1 if going_second else 0):
        raise SimError(f"A Main Deck of {int(sizes.sum())} cards is too small to deal a hand.")
    goals = _goals(cp, goals)
    if turns == 1 and not cp.has_draws:
        return _opening(cp, sizes, hands, seed, going_second, goals, failing, K is None)
    return _turns(cp, sizes, hands, seed, going_second, turns, goals, failing)


def _position_classes(cp: CompiledProfile, K: Array, by_card: bool) -> Array:
    """The class of each deck position. With `by_card`, positions follow the deck's cards in
    name order, so two profiles of the same deck see the very same hands for a seed."""
    if not by_card:
        return np.repeat(np.arange(len(K)), K)
    names = sorted(cp.class_of_name)
    return np.array([cp.class_of_name[n] for n in names
                     for _ in range(cp.classes[cp.class_of_name[n]].cards[n])], dtype=np.intp)


def _opening(cp: CompiledProfile, K: Array, hands: int, seed: int, going_second: bool,
             goals: dict[str, list[Term]], failing: int, by_card: bool = False) -> MCResult:
    rng = np.random.default_rng(seed)
    n = OPENING_HAND + (1 if going_second else 0)
    caps = np.minimum(K, n) + 1
    radix = np.concatenate([[1], np.cumprod(caps)[:-1]]).astype(np.int64)
    space = int(np.prod(caps.astype(np.float64)))
    # counts by key: an array over the whole key space when it is small enough, else a dict
    dense = np.zeros(space, dtype=np.int64) if space <= 4_000_000 else None
    sparse: dict[int, int] = {}
    # the key of each deck position: the radix of its card's class
    pos_key = radix[_position_classes(cp, K, by_card)].astype(
        np.int32 if space < 2**31 else np.int64)
    done = 0
    while done < hands:
        size = min(CHUNK, hands - done)
        keys = _sample_keys(rng, pos_key, n, size)
        if dense is not None:
            dense += np.bincount(keys, minlength=space)
        else:
            u, c = np.unique(keys, return_counts=True)
            for key, cnt in zip(u.tolist(), c.tolist(), strict=True):
                sparse[key] = sparse.get(key, 0) + cnt
        done += size
    if dense is not None:
        keys = np.nonzero(dense)[0]
        counts = dense[keys]
    else:
        keys = np.array(sorted(sparse), dtype=np.int64)
        counts = np.array([sparse[k] for k in keys.tolist()], dtype=np.int64)
    rows = (keys[:, None] // radix[None, :]) % caps[None, :]
    rest = K[None, :] - rows
    by_turn: dict[str, list[int]] = {}
    fail_rows: list[tuple[tuple[int, ...], int]] = []
    for i, (name, terms) in enumerate(goals.items()):
        ok = NpEvaluator(cp, terms).succeeds(rows.copy(), rest.copy())
        by_turn[name] = [int(counts[ok].sum())]
        if i == 0 and failing:
            bad = np.nonzero(~ok)[0]
            order = bad[np.argsort(-counts[bad], kind="stable")][:failing]
            fail_rows = [(tuple(int(x) for x in rows[j]), int(counts[j])) for j in order]
    return MCResult(hands, seed, going_second, 1, by_turn, fail_rows)


# -- the turn loop -------------------------------------------------------------------------
def _draw(rng: Array, R: Array, rows: Array) -> Array:
    """Draw one card for each hand in `rows` (indices) from its remaining Deck counts R;
    returns the class drawn (R is updated). Rows must have at least one card left."""
    sub = R[rows]
    left = sub.sum(axis=1)
    target = np.floor(rng.random(len(rows)) * left).astype(np.int64)
    cum = np.cumsum(sub, axis=1)
    cls = (target[:, None] >= cum).sum(axis=1)
    R[rows, cls] -= 1
    return cls


def _discard_order(cp: CompiledProfile, goals: dict[str, list[Term]]) -> list[int]:
    """Classes in the order the End Phase discards them: no role, then 'at most' only, then
    the rest with the fewest 'at least' uses first."""
    lows: dict[int, int] = {}
    highs: set[int] = set()
    for terms in goals.values():
        for t in terms:
            for f in t.lows:
                for c in cp.class_members(f):
                    lows[c] = lows.get(c, 0) + 1
            for f in t.highs:
                highs.update(cp.class_members(f))

    def rank(c: int) -> tuple[int, int, int]:
        if c not in lows and c not in highs:
            return (0, 0, c)
        if c not in lows:
            return (1, 0, c)
        return (2, lows[c], c)

    return sorted(range(len(cp.classes)), key=rank)


def _turns(cp: CompiledProfile, K: Array, hands: int, seed: int, going_second: bool,
           turns: int, goals: dict[str, list[Term]], failing: int) -> MCResult:
    by_turn = {name: [0] * turns for name in goals}
    fail_counts: dict[tuple[int, ...], int] = {}
    deck_outs = 0
    order = _discard_order(cp, goals)
    draw_classes = sorted(c for c, b in cp.behaviours.items() if b.kind != "search")
    for gi, (name, terms) in enumerate(goals.items()):
        ev = NpEvaluator(cp, terms)
        rng = np.random.default_rng(seed)  # the same hands for every goal
        done = 0
        while done < hands:
            size = min(CHUNK // 4, hands - done)
            first, hits, outs = _play(cp, ev, rng, K, size, going_second, turns,
                                      draw_classes, order)
            for t in range(turns):
                by_turn[name][t] += int(hits[t])
            if gi == 0:
                deck_outs += outs
                if failing:
                    X, ok1 = first
                    bad = X[~ok1]
                    if len(bad):
                        u, c = np.unique(bad, axis=0, return_counts=True)
                        for row, cnt in zip(u.tolist(), c.tolist(), strict=True):
                            key = tuple(row)
                            fail_counts[key] = fail_counts.get(key, 0) + cnt
            done += size
    fails = sorted(fail_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:failing]
    return MCResult(hands, seed, going_second, turns, by_turn, fails, deck_outs)


def _play(cp: CompiledProfile, ev: NpEvaluator, rng: Array, K: Array, size: int,
          going_second: bool, turns: int, draw_classes: list[int],
          order: list[int]) -> tuple[tuple[Array, Array], list[int], int]:
    H = _sample_opening(rng, K, OPENING_HAND, size).astype(np.int64)
    R = K[None, :] - H
    bottom = np.zeros(size, dtype=np.int64)  # cards put on the bottom (still in the Deck)
    won = np.zeros(size, dtype=bool)
    lost = np.zeros(size, dtype=bool)
    hits: list[int] = []
    first: tuple[Array, Array] = (H.copy(), np.zeros(size, dtype=bool))
    plays = sum(1 if cp.behaviours[d].once_per_turn else 3 for d in draw_classes)
    for turn in range(1, turns + 1):
        active = ~won & ~lost
        if turn > 1 or going_second:
            rows = np.nonzero(active)[0]
            empty = R[rows].sum(axis=1) == 0
            # an empty Deck loses; a Deck of only bottom cards draws one of them (not tracked)
            lost[rows[empty & (bottom[rows] == 0)]] = True
            from_bottom = rows[empty & (bottom[rows] > 0)]
            bottom[from_bottom] -= 1
            rows = rows[~empty]
            cls = _draw(rng, R, rows)
            H[rows, cls] += 1
            active = ~won & ~lost
        H1 = H.copy() if turn == 1 else H
        ok = np.zeros(size, dtype=bool)
        rows = np.nonzero(active)[0]
        ok[rows] = ev.succeeds(H[rows].copy(), R[rows].copy())
        used = np.zeros((size, len(draw_classes)), dtype=bool)
        for _ in range(plays):
            changed = False
            for j, d in enumerate(draw_classes):
                b = cp.behaviours[d]
                need = max(b.banish_top + b.draw + b.excavate, 1)
                mask = active & ~ok & (H[:, d] > 0) & (R.sum(axis=1) >= need)
                if b.once_per_turn:
                    mask &= ~used[:, j]
                if d in cp.costs:  # the cost needs another card of its target in hand
                    members = cp.class_members(cp.costs[d])
                    have = H[:, members].sum(axis=1) - (H[:, d] > 0) * (d in members)
                    mask &= have > 0
                rows = np.nonzero(mask)[0]
                if not len(rows):
                    continue
                used[rows, j] = True
                changed = True
                if b.is_spent:
                    H[rows, d] -= 1
                if d in cp.costs:
                    _remove_one(ev, H, R, rows, cp.class_members(cp.costs[d]))
                _resolve_draw_card(cp, ev, rng, H, R, bottom, rows, d)
                ok[rows] = ev.succeeds(H[rows].copy(), R[rows].copy())
            if not changed:
                break
        if turn == 1:
            first = (H1, ok.copy())
        won |= ok
        hits.append(int(won.sum()))
        # End Phase: discard down to the hand size limit
        over = H.sum(axis=1) - HAND_LIMIT
        rows = np.nonzero(~won & ~lost & (over > 0))[0]
        if len(rows):
            excess = over[rows]
            for c in order:
                take = np.minimum(excess, H[rows, c])
                H[rows, c] -= take
                excess -= take
    return first, hits, int(lost.sum())


def _resolve_draw_card(cp: CompiledProfile, ev: NpEvaluator, rng: Array, H: Array, R: Array,
                       bottom: Array, rows: Array, d: int) -> None:
    b = cp.behaviours[d]
    if b.draw:
        # banish the top cards face-down (cost), then draw: both random cards of the Deck
        for _ in range(b.banish_top):
            live = rows[R[rows].sum(axis=1) > 0]
            _draw(rng, R, live)
        for _ in range(b.draw):
            live = rows[R[rows].sum(axis=1) > 0]
            cls = _draw(rng, R, live)
            H[live, cls] += 1
        if b.then_banish is not None:
            members = cp.class_members(cp.targets[d])
            _banish_one(ev, H, R, rows, members)
        return
    # excavate N, add the best one; the rest go to the bottom or are shuffled back
    E = np.zeros((len(rows), len(cp.classes)), dtype=np.int64)
    for _ in range(b.excavate):
        live_mask = R[rows].sum(axis=1) > 0
        live = rows[live_mask]
        cls = _draw(rng, R, live)
        E[np.nonzero(live_mask)[0], cls] += 1
    chosen = np.full(len(rows), -1, dtype=np.int64)
    for t in _preference(cp):
        cand = np.nonzero((chosen < 0) & (E[:, t] > 0))[0]
        if not len(cand):
            continue
        Ht = H[rows[cand]].copy()
        Ht[:, t] += 1
        good = ev.succeeds(Ht, R[rows[cand]].copy())
        chosen[cand[good]] = t
    for t in _preference(cp):  # nothing makes it succeed: take the most useful-looking card
        cand = np.nonzero((chosen < 0) & (E[:, t] > 0))[0]
        chosen[cand] = t
    got = chosen >= 0
    E[np.nonzero(got)[0], chosen[got]] -= 1
    H[rows[got], chosen[got]] += 1
    if b.excavate_rest == "shuffle":
        R[rows] += E
    else:
        bottom[rows] += E.sum(axis=1)


def _preference(cp: CompiledProfile) -> list[int]:
    """Classes by how many features they carry (most first): the excavation choice order."""
    return sorted(range(len(cp.classes)), key=lambda c: (-len(cp.classes[c].features), c))


def _banish_one(ev: NpEvaluator, H: Array, R: Array, rows: Array, members: list[int]) -> None:
    """Allure-style: banish 1 card of `members` from the hand (keeping success if possible),
    or discard the whole hand when there is none."""
    done = _remove_one(ev, H, R, rows, members)
    H[rows[~done]] = 0


def _remove_one(ev: NpEvaluator, H: Array, R: Array, rows: Array, members: list[int]) -> Array:
    """Remove 1 card of `members` from each hand in `rows`, one that keeps the hand
    successful when there is such a card; returns which rows had one."""
    done = np.zeros(len(rows), dtype=bool)
    for good_only in (True, False):
        for c in members:
            cand = np.nonzero(~done & (H[rows, c] > 0))[0]
            if not len(cand):
                continue
            if good_only:
                Hc = H[rows[cand]].copy()
                Hc[:, c] -= 1
                keep = ev.succeeds(Hc, R[rows[cand]].copy())
                cand = cand[keep]
            H[rows[cand], c] -= 1
            done[cand] = True
    return done

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
from deckcheck.sim.goldfish import play
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term
from deckcheck.sim.goldfish.exact import goal_checks

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
    lo = 0.0 if successes == 0 else max(0.0, mid - half)
    hi = 1.0 if successes == n else min(1.0, mid + half)
    return lo, hi


class NpEvaluator:
    """One goal evaluated on a batch of hands (rows of class counts), searchers included."""

    def __init__(self, cp: CompiledProfile, terms: list[Term] | tuple[Any, ...],
                 checks: tuple[Any, ...] | None = None) -> None:
        self.cp = cp
        cols: list[tuple[int, ...]] = []
        self.terms: list[tuple[Array, Array, Array, Array, list[Any], list[NpEvaluator]]] = []
        for highs, lows, distinct, nots in (checks if checks is not None
                                            else goal_checks(cp, list(terms))):
            hi_idx, hi_val, lo_idx, lo_val = [], [], [], []
            for idx, v in highs:
                hi_idx.append(_col(cols, idx))
                hi_val.append(v)
            for idx, v in lows:
                lo_idx.append(_col(cols, idx))
                lo_val.append(v)
            dist = [(np.array(idx, dtype=np.intp), lo, hi) for idx, lo, hi in distinct]
            subs = [NpEvaluator(cp, (), checks=sub) for sub in nots]
            self.terms.append((np.array(hi_idx, dtype=np.intp), np.array(hi_val),
                               np.array(lo_idx, dtype=np.intp), np.array(lo_val), dist, subs))
        self.cols = [np.array(idx, dtype=np.intp) for idx in cols]
        self.searchers = sorted(s for s, b in cp.behaviours.items() if b.kind == "search")
        self.targets = {s: cp.class_members(cp.targets[s]) for s in self.searchers}
        self.worlds = sorted(s for s, b in cp.behaviours.items() if b.kind == "small world")

    def ok(self, H: Array, HT: Array = None) -> Array:
        """Whether each hand (row of H) meets one of the terms. The sums are taken over the
        transposed counts (one contiguous row per class): only the classes each check
        names are added."""
        if HT is None:
            HT = np.ascontiguousarray(H.T)
        S = [HT[idx[0]] if len(idx) == 1 else HT[idx].sum(axis=0, dtype=np.int16)
             for idx in self.cols]
        m = len(H)
        out = np.zeros(m, dtype=bool)
        for hi_idx, hi_val, lo_idx, lo_val, dist, subs in self.terms:
            t = np.ones(m, dtype=bool)
            for j, v in zip(hi_idx.tolist(), hi_val.tolist(), strict=True):
                t &= S[j] <= v
            for j, v in zip(lo_idx.tolist(), lo_val.tolist(), strict=True):
                t &= S[j] >= v
            for idx, lo, hi in dist:
                n = (HT[idx] > 0).sum(axis=0)
                if lo is not None:
                    t &= n >= lo
                if hi is not None:
                    t &= n <= hi
            for sub in subs:
                t &= ~sub.ok(H, HT)
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
        for s in self.worlds:  # Small World: reveal a, banish a bridge b, add t
            if s in used:
                continue
            for a, t, bridges in self.cp.small_world:
                cand = ~ok & (H[:, s] > 0) & (H[:, a] > (1 if a == s else 0)) & (R[:, t] > 0)
                if not cand.any():
                    continue
                rows = np.nonzero(cand)[0]
                bridge = np.full(len(rows), -1, dtype=np.intp)
                for b in reversed(bridges):  # the first bridge the Deck still holds
                    bridge[R[rows, b] > (1 if b == t else 0)] = b
                rows, bridge = rows[bridge >= 0], bridge[bridge >= 0]
                if not len(rows):
                    continue
                H2 = H[rows]
                H2[:, s] -= 1
                H2[:, a] -= 1
                H2[:, t] += 1
                R2 = R[rows]
                R2[:, t] -= 1
                R2[np.arange(len(rows)), bridge] -= 1
                ok[rows] |= self.succeeds(H2, R2, used | {s})
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
    #: With `per_hand`: whether each hand met the first goal by each turn (hands x turns),
    #: in the order the hands were dealt (for paired comparisons).
    per_hand: Array = None

    def rate(self, goal: str = "success", turn: int = 1) -> float:
        return self.by_turn[goal][turn - 1] / self.hands

    def interval(self, goal: str = "success", turn: int = 1) -> tuple[float, float]:
        return wilson(self.by_turn[goal][turn - 1], self.hands)


def _sample_opening(rng: Array, K: Array, n: int, size: int) -> Array:
    return rng.multivariate_hypergeometric(K, n, size=size, method="count")


def _sample_keys(rng: Array, pos_key: Array, n: int, size: int) -> Array:
    """Keys of `size` random `n`-card hands: `n` uniformly random deck positions per hand,
    hands with a repeated position dealt again (so every set of `n` distinct positions is
    equally likely), each hand's key the sum of its positions' keys.

    Positions come from raw 16-bit words of the generator (`random_raw`: no per-number
    bound checks): a word below the largest multiple of N is uniform modulo N (looked up in
    a 65,536-entry table); the rare word above it re-deals the hand, as a repeated position
    does."""
    N = len(pos_key)
    limit = (65536 // N) * N
    word_pos = (np.arange(65536) % N).astype(np.uint8 if N <= 256 else np.uint16)
    word_key = pos_key[word_pos]
    words = -(-n // 4)  # 64-bit words per hand
    out: Array = None
    todo: Array = None
    while out is None or len(todo):
        m = size if out is None else len(todo)
        V = rng.bit_generator.random_raw(words * m).view(np.uint16).reshape(4 * words, m)[:n]
        P = word_pos[V]
        bad = P[0] == P[1] if n > 1 else np.zeros(m, dtype=bool)
        for i in range(n):
            for j in range(max(i + 1, 2), n):
                bad |= P[i] == P[j]
        if V.max() >= limit:
            bad |= (V >= limit).any(axis=0)
        keys = word_key[V[0]]
        for i in range(1, n):
            keys += word_key[V[i]]
        if out is None:
            out = keys
            todo = np.nonzero(bad)[0]
        else:
            good = ~bad
            out[todo[good]] = keys[good]
            todo = todo[bad]
    return out


def simulate(cp: CompiledProfile, hands: int, *, seed: int, going_second: bool = False,
             turns: int = 1, goals: dict[str, list[Term]] | None = None,
             K: tuple[int, ...] | None = None, failing: int = 0,
             per_hand: bool = False) -> MCResult:
    """Deal `hands` random hands and play `turns` turns of goldfishing for each goal.

    Two runs with the same seed, hand count and class layout (a profile and its +-1 copy
    variants; two profiles compiled with `refine`) deal the same hands: common random
    numbers, so `paired_difference` of their `per_hand` results is tight."""
    if hands < 1:
        raise SimError(f"The number of hands must be at least 1, not {hands}.")
    sizes = np.array(K if K is not None else cp.K, dtype=np.int64)
    if sizes.sum() < cp.rules.cards_by(1, going_second):
        raise SimError(f"A Main Deck of {int(sizes.sum())} cards is too small to deal a hand.")
    goals = goals if goals is not None else cp.goals(going_second)
    if turns == 1 and not cp.has_draws:
        return _opening(cp, sizes, hands, seed, going_second, goals, failing, K is None,
                        per_hand)
    return _turns(cp, sizes, hands, seed, going_second, turns, goals, failing, per_hand)


def paired_difference(a: MCResult, b: MCResult, turn: int = 1,
                      z: float = 1.96) -> tuple[float, float, float]:
    """B - A for the first goal by `turn`, from two runs on the same hands (each hand
    compared with itself), with its 95% interval: (difference, low, high)."""
    x = a.per_hand[:, turn - 1]
    y = b.per_hand[:, turn - 1]
    n = len(x)
    up = int(np.count_nonzero(y & ~x))
    down = int(np.count_nonzero(x & ~y))
    d = (up - down) / n
    var = max((up + down) / n - d * d, 0.0)
    half = z * sqrt(var / n) if n > 1 else 1.0
    if up + down == 0:  # no hand differs: the interval of a rate of 0 discordant hands
        half = wilson(0, n, z)[1]
    return d, max(-1.0, d - half), min(1.0, d + half)


def _position_classes(cp: CompiledProfile, K: Array, by_card: bool) -> Array:
    """The class of each deck position. With `by_card`, positions follow the deck's cards in
    name order, so two profiles of the same deck see the very same hands for a seed."""
    if not by_card:
        return np.repeat(np.arange(len(K)), K)
    names = sorted(cp.class_of_name)
    return np.array([cp.class_of_name[n] for n in names
                     for _ in range(cp.classes[cp.class_of_name[n]].cards[n])], dtype=np.intp)


def _opening(cp: CompiledProfile, K: Array, hands: int, seed: int, going_second: bool,
             goals: dict[str, list[Term]], failing: int, by_card: bool = False,
             per_hand: bool = False) -> MCResult:
    rng = np.random.default_rng(seed)
    n = cp.rules.cards_by(1, going_second)
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
    dealt: list[Array] = []
    while done < hands:
        size = min(CHUNK, hands - done)
        if per_hand:  # ordered dealing: the same cards for +-1 copy variants (paired runs)
            size = min(CHUNK // 4, hands - done)
            top = _deal_orders(rng, _slots(cp, K), size)[:, :n].astype(np.intp)
            keys = radix[top[:, 0]].astype(pos_key.dtype)
            for i in range(1, n):
                keys += radix[top[:, i]].astype(pos_key.dtype)
            dealt.append(keys)
        else:
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
    hand_ok: Array = None
    for i, (name, terms) in enumerate(goals.items()):
        ok = NpEvaluator(cp, terms).succeeds(rows, rest)
        by_turn[name] = [int(counts[ok].sum())]
        if i == 0 and failing:
            bad = np.nonzero(~ok)[0]
            order = bad[np.argsort(-counts[bad], kind="stable")][:failing]
            fail_rows = [(tuple(int(x) for x in rows[j]), int(counts[j])) for j in order]
        if i == 0 and per_hand:
            every = np.concatenate(dealt)
            hand_ok = ok[np.searchsorted(keys, every)][:, None]
    return MCResult(hands, seed, going_second, 1, by_turn, fail_rows, per_hand=hand_ok)


# -- the turn loop -------------------------------------------------------------------------
def _draw(rng: Array, R: Array, rows: Array) -> Array:
    """Draw one card for each hand in `rows` (indices) from its remaining Deck counts R;
    returns the class drawn (R is updated). Rows must have at least one card left."""
    cum = np.cumsum(R[rows], axis=1, dtype=np.int16)
    target = (rng.random(len(rows)) * cum[:, -1]).astype(np.int16)  # floor: non-negative
    cls = np.argmax(cum > target[:, None], axis=1)
    R[rows, cls] -= 1
    return cls


def _turns(cp: CompiledProfile, K: Array, hands: int, seed: int, going_second: bool,
           turns: int, goals: dict[str, list[Term]], failing: int,
           per_hand: bool = False) -> MCResult:
    by_turn = {name: [0] * turns for name in goals}
    won_by_turn: list[Array] = []
    fail_counts: dict[tuple[int, ...], int] = {}
    deck_outs = 0
    order = play.discard_order(cp, goals)
    for gi, (name, terms) in enumerate(goals.items()):
        ev = NpEvaluator(cp, terms)
        rng = np.random.default_rng(seed)  # the same hands for every goal
        done = 0
        while done < hands:
            size = min(CHUNK // 4, hands - done)
            batch = _Batch(cp, ev, rng, K, size, going_second, ordered=per_hand)
            first, hits, outs = batch.run(turns, order)
            for t in range(turns):
                by_turn[name][t] += int(hits[t])
            if gi == 0 and per_hand:
                won_by_turn.append(batch.won_by_turn)
            if gi == 0:
                deck_outs += outs
                if failing:
                    X, ok1 = first
                    _count_rows(X[~ok1], fail_counts)
            done += size
    fails = sorted(fail_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:failing]
    return MCResult(hands, seed, going_second, turns, by_turn, fails, deck_outs,
                    per_hand=np.concatenate(won_by_turn) if per_hand else None)


def _slots(cp: CompiledProfile, K: Array) -> Array:
    """The class in each Deck slot for ordered dealing: the compiled deck's cards by class
    and one spare slot; a +-1 copy variant fills the spare slot or empties its class's last
    slot (-1), so every other card keeps its slot."""
    base = np.array(cp.K, dtype=np.int64)
    slots = np.concatenate([np.repeat(np.arange(len(base)), base), [-1]]).astype(np.int8)
    diff = np.asarray(K, dtype=np.int64) - base
    changed = np.nonzero(diff)[0]
    if not len(changed):
        return slots
    if len(changed) == 1 and abs(int(diff[changed[0]])) == 1:
        c = int(changed[0])
        if diff[c] > 0:
            slots[-1] = c
        else:
            slots[np.nonzero(slots == c)[0][-1]] = -1
        return slots
    return np.concatenate([np.repeat(np.arange(len(K)), K), [-1]]).astype(np.int8)


def _deal_orders(rng: Array, layout: Array, size: int) -> Array:
    """`size` random Deck orders (rows of classes, empty slots last) of the slot `layout`
    (one layout, or one per row): each slot gets a random 16-bit priority, ties broken by
    slot, and the slots are sorted by it."""
    S = layout.shape[-1]
    shift = max(6, int(S).bit_length())
    words = -(-size * S // 4)
    pri = rng.bit_generator.random_raw(words).view(np.uint16)[:size * S].reshape(size, S)
    keys = (pri.astype(np.uint32) << np.uint32(shift)) | np.arange(S, dtype=np.uint32)
    top = np.uint32((0xFFFFFFFF >> shift) << shift)  # above every real priority
    last = top | np.arange(S, dtype=np.uint32)
    keys = np.where(layout < 0, last, keys)
    keys.sort(axis=1)
    slot = (keys & np.uint32((1 << shift) - 1)).astype(np.intp)
    if layout.ndim == 2:
        return np.take_along_axis(layout, slot, axis=1)
    return layout[slot]


def _count_rows(X: Array, into: dict[tuple[int, ...], int]) -> None:
    """Add the rows of X (small non-negative counts) to `into`, row -> how many times."""
    if not len(X):
        return
    base = int(X.max()) + 1
    if base ** X.shape[1] < 2**62:  # one integer key per row: a 1-D unique is much faster
        radix = base ** np.arange(X.shape[1], dtype=np.int64)
        keys, counts = np.unique(X.astype(np.int64) @ radix, return_counts=True)
        rows = (keys[:, None] // radix[None, :]) % base
    else:
        rows, counts = np.unique(X, axis=0, return_counts=True)
    for row, cnt in zip(rows.tolist(), counts.tolist(), strict=True):
        key = tuple(row)
        into[key] = into.get(key, 0) + cnt


class _Batch:
    """A batch of duels played turn by turn with the rules of `deckcheck.sim.rules` (hand
    size, draws, End Phase limit, deck-out) and the draw-card policy of `play`, compiled to
    array operations. Per hand: H (hand), R (Deck in reach), B (the bottom: excavated cards,
    drawn only when R is empty, found by searches), and this turn's play state."""

    def __init__(self, cp: CompiledProfile, ev: NpEvaluator, rng: Array, K: Array, size: int,
                 going_second: bool, ordered: bool = False) -> None:
        self.cp, self.ev, self.rng, self.size = cp, ev, rng, size
        self.going_second = going_second
        #: Ordered mode: each hand's whole Deck order is dealt up front from random slot
        #: priorities (O, read from `ptr`), so a variant of the deck (+-1 copy: one slot
        #: filled or emptied) or another profile on the same classes meets the very same
        #: cards in the same order: common random numbers for paired differences.
        self.O: Array = None
        self.ptr: Array = None
        n = cp.rules.hand_size
        if ordered:
            self.O = _deal_orders(rng, _slots(cp, K), size)
            self.ptr = np.full(size, n, dtype=np.int64)
            # counts fit in one byte (a deck holds a few dozen cards): less memory to move
            self.H = np.zeros((size, len(K)), dtype=np.int8)
            idx = np.arange(size)
            for i in range(n):
                self.H[idx, self.O[:, i]] += 1
        else:
            self.H = _sample_opening(rng, K, n, size).astype(np.int8)
        self.R = K.astype(np.int8)[None, :] - self.H
        self.B = np.zeros_like(self.R)
        self.order = play.play_order(cp)
        self.extra = np.full(size, cp.extra_size, dtype=np.int64)
        self.won_by_turn: Array = None
        #: Whether any card was put on the bottom (B is all zero until then).
        self.bottom = False

    def deck(self, rows: Array | None = None) -> Array:
        """The Deck in reach of searches (R and the bottom B) of the hands `rows` (all)."""
        if rows is None:
            return self.R + self.B if self.bottom else self.R
        return self.R[rows] + self.B[rows] if self.bottom else self.R[rows]

    def draw(self, rows: Array) -> Array:
        """Each hand in `rows` draws its next card (from R, else from the bottom B); returns
        the class drawn, -1 where the Deck is empty."""
        out = np.full(len(rows), -1, dtype=np.int64)
        inr = self.R[rows].any(axis=1)
        if inr.any():
            out[inr] = self.draw_top(rows[inr])
        inb = ~inr & self.B[rows].any(axis=1) if self.bottom else np.zeros(len(rows), bool)
        if inb.any():
            out[inb] = _draw(self.rng, self.B, rows[inb])
        return out

    def draw_top(self, rows: Array) -> Array:
        """The top card of R for each hand in `rows` (each has one), taken out of R."""
        if self.O is None:
            return _draw(self.rng, self.R, rows)
        cls = self.O[rows, self.ptr[rows]].astype(np.int64)
        self.ptr[rows] += 1
        self.R[rows, cls] -= 1
        return cls

    def reshuffle(self, rows: Array) -> None:
        """Ordered mode: the Deck of each hand in `rows` is shuffled (a new order of R)."""
        if self.O is None or not len(rows):
            return
        S = self.O.shape[1]
        cum = np.cumsum(self.R[rows], axis=1, dtype=np.int16)
        slots = np.arange(S, dtype=np.int16)
        layout = (slots[None, :, None] >= cum[:, None, :]).sum(axis=2).astype(np.int8)
        layout[slots[None, :] >= cum[:, -1:]] = -1
        self.O[rows] = _deal_orders(self.rng, layout, len(rows))
        self.ptr[rows] = 0

    def succeeds(self, rows: Array | None = None) -> Array:
        """Whether the hands `rows` (all) meet the goal (`NpEvaluator.succeeds` does not
        change the arrays it is given)."""
        if rows is None:
            return self.ev.succeeds(self.H, self.deck())
        return self.ev.succeeds(self.H[rows], self.deck(rows))

    def run(self, turns: int, order: list[int]) -> tuple[tuple[Array, Array], list[int], int]:
        rules, size = self.cp.rules, self.size
        self.won_by_turn = np.zeros((size, turns), dtype=bool)
        won = np.zeros(size, dtype=bool)
        lost = np.zeros(size, dtype=bool)
        hits: list[int] = []
        first: tuple[Array, Array] = (self.H.copy(), np.zeros(size, dtype=bool))
        for turn in range(1, turns + 1):
            for _ in range(rules.draws_in(turn, self.going_second)):
                rows = np.nonzero(~won & ~lost)[0]
                cls = self.draw(rows)
                lost[rows[cls < 0]] = True  # had to draw from an empty Deck
                got = cls >= 0
                self.H[rows[got], cls[got]] += 1
            active = ~won & ~lost
            H1 = self.H.copy() if turn == 1 else None
            ok = np.zeros(size, dtype=bool)
            if active.all():
                ok = self.succeeds()
            else:
                rows = np.nonzero(active)[0]
                ok[rows] = self.succeeds(rows)
            self.play_draw_cards(np.nonzero(active & ~ok)[0], ok)
            if H1 is not None:
                first = (H1, ok.copy())
            won |= ok
            self.won_by_turn[:, turn - 1] = won
            hits.append(int(won.sum()))
            # End Phase: discard down to the hand size limit, in the player's order
            over = self.H.sum(axis=1) - rules.hand_limit
            rows = np.nonzero(~won & ~lost & (over > 0))[0]
            if len(rows):
                excess = over[rows]
                for c in order:
                    take = np.minimum(excess, self.H[rows, c])
                    self.H[rows, c] -= take
                    excess -= take
        return first, hits, int(lost.sum())

    def play_draw_cards(self, rows: Array, ok: Array) -> None:
        """Play draw cards in the hands `rows` (which do not yet succeed): on a compact copy
        of just those hands, written back afterwards."""
        if not self.order or not len(rows):
            return
        sub = _Batch.__new__(_Batch)
        sub.cp, sub.ev, sub.rng, sub.size = self.cp, self.ev, self.rng, len(rows)
        sub.going_second, sub.order, sub.bottom = self.going_second, self.order, self.bottom
        sub.H, sub.R, sub.B, sub.extra = self.H[rows], self.R[rows], self.B[rows], \
            self.extra[rows]
        sub.O = None if self.O is None else self.O[rows]
        sub.ptr = None if self.ptr is None else self.ptr[rows]
        sub_ok = np.zeros(len(rows), dtype=bool)
        sub.main_phase(np.ones(len(rows), dtype=bool), sub_ok)
        self.H[rows], self.R[rows], self.B[rows], self.extra[rows] = sub.H, sub.R, sub.B, \
            sub.extra
        self.bottom |= sub.bottom
        if self.O is not None:
            self.O[rows], self.ptr[rows] = sub.O, sub.ptr
        ok[rows] = sub_ok

    def main_phase(self, active: Array, ok: Array) -> None:
        """Play draw cards (the `play` policy) in every hand that does not yet succeed."""
        cp, size = self.cp, self.size
        nd = len(self.order)
        if not nd:
            return
        used = np.zeros((size, nd), dtype=bool)
        played = np.zeros(size, dtype=bool)
        drew = np.zeros(size, dtype=bool)
        locked = np.zeros(size, dtype=bool)
        for _ in range(4 * nd + 4):
            todo = active & ~ok
            if not todo.any():
                return
            chosen = np.full(size, -1, dtype=np.int64)
            left = (self.R + self.B).sum(axis=1)
            for j, d in enumerate(self.order):
                free = todo & (chosen < 0)
                if not free.any():
                    break
                b = cp.behaviours[d]
                mask = free & (self.H[:, d] > 0)
                if b.once_per_turn:
                    mask &= ~used[:, j]
                if b.start_of_main1:
                    mask &= ~played
                if b.draws:
                    mask &= ~locked
                if b.no_draw_before:
                    mask &= ~drew
                ex = self.extra
                if b.extra_deck_cost:
                    mask &= ex >= 3
                draw6, exc6 = b.draw, b.excavate
                half = b.extra_deck_cost & (ex < 6)
                need = b.banish_top + np.where(half, draw6 // 2 + exc6 // 2, draw6 + exc6)
                if b.redraw_hand:
                    need = self.H.sum(axis=1) - 1
                mask &= left >= np.maximum(need, 1)
                if d in cp.costs:
                    members = cp.class_members(cp.costs[d])
                    have = self.H[:, members].sum(axis=1) - (1 if d in members else 0)
                    mask &= have > 0
                chosen[mask] = j
            if not (chosen >= 0).any():
                return
            for j, d in enumerate(self.order):
                rows = np.nonzero(chosen == j)[0]
                if not len(rows):
                    continue
                b = cp.behaviours[d]
                paid = np.where(self.extra[rows] >= 6, 6, 3) if b.extra_deck_cost else 0
                used[rows, j] = True
                played[rows] = True
                if b.draws:
                    drew[rows] = True
                if b.no_draw_after:
                    locked[rows] = True
                self.resolve(d, rows, paid)
                if b.extra_deck_cost:
                    self.extra[rows] -= paid
                ok[rows] = self.succeeds(rows)

    def resolve(self, d: int, rows: Array, paid: Array | int) -> None:
        cp, H = self.cp, self.H
        b = cp.behaviours[d]
        if b.is_spent:
            H[rows, d] -= 1
        if d in cp.costs:
            self.remove_one(rows, cp.class_members(cp.costs[d]))
        half = np.asarray(paid) == 3
        if b.redraw_hand:
            n = H[rows].sum(axis=1)
            H[rows] = 0
            for i in range(int(n.max(initial=0))):
                sub = rows[n > i]
                cls = self.draw(sub)
                H[sub, cls] += 1
            return
        if b.draw:
            # banish the top cards face-down (cost), then draw: both random cards of the Deck
            for _ in range(b.banish_top):
                self.draw(rows)
            n = np.where(half, b.draw // 2, b.draw) if b.extra_deck_cost else \
                np.full(len(rows), b.draw)
            for i in range(b.draw):
                sub = rows[n > i]
                cls = self.draw(sub)
                H[sub, cls] += 1
            if b.then_banish is not None:
                done = self.remove_one(rows, cp.class_members(cp.targets[d]))
                H[rows[~done]] = 0  # no card to banish: the whole hand is discarded
            return
        self.excavate(d, rows, half)

    def excavate(self, d: int, rows: Array, half: Array) -> None:
        """Excavate, add the best card; the rest go to the bottom or back into the Deck."""
        cp, H = self.cp, self.H
        b = cp.behaviours[d]
        n = np.where(half, b.excavate // 2, b.excavate) if b.extra_deck_cost else \
            np.full(len(rows), b.excavate)
        E = np.zeros((len(rows), len(cp.classes)), dtype=np.int8)
        for i in range(b.excavate):
            live = np.nonzero((n > i) & self.R[rows].any(axis=1))[0]
            cls = self.draw_top(rows[live])
            E[live, cls] += 1
        chosen = np.full(len(rows), -1, dtype=np.int64)
        pref = play.preference(cp)
        for t in pref:
            cand = np.nonzero((chosen < 0) & (E[:, t] > 0))[0]
            if not len(cand):
                continue
            Ht = H[rows[cand]]
            Ht[:, t] += 1
            Rt = self.deck(rows[cand]) + E[cand]
            Rt[:, t] -= 1
            good = self.ev.succeeds(Ht, Rt)
            chosen[cand[good]] = t
        for t in pref:  # nothing makes it succeed: take the most useful-looking card
            cand = np.nonzero((chosen < 0) & (E[:, t] > 0))[0]
            chosen[cand] = t
        got = chosen >= 0
        E[np.nonzero(got)[0], chosen[got]] -= 1
        H[rows[got], chosen[got]] += 1
        if b.excavate_rest == "shuffle":
            self.R[rows] += E
            self.reshuffle(rows)
        else:
            self.B[rows] += E
            self.bottom = True

    def remove_one(self, rows: Array, members: list[int]) -> Array:
        """Remove 1 card of `members` from each hand in `rows` (`play.remove_choice`: one
        whose loss keeps the goal within reach, else the first); returns which rows had one."""
        H = self.H
        done = np.zeros(len(rows), dtype=bool)
        for good_only in (True, False):
            for c in members:
                cand = np.nonzero(~done & (H[rows, c] > 0))[0]
                if not len(cand):
                    continue
                if good_only:
                    Hc = H[rows[cand]]
                    Hc[:, c] -= 1
                    keep = self.ev.succeeds(Hc, self.deck(rows[cand]))
                    cand = cand[keep]
                H[rows[cand], c] -= 1
                done[cand] = True
        return done

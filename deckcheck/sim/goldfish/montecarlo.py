"""The Monte Carlo engine (NumPy): many shuffled hands at once, evaluated as count arrays.

Hands are class-count vectors, like the exact engine's, but sampled. Goals are evaluated
on whole batches by `npeval.NpEvaluator`; the turn loop is `turnloop`. This module (the
entry point, `simulate`) is imported only when Monte Carlo is needed (NumPy is slow to
import). Every result carries the number of hands, the seed and a 95% Wilson interval;
`paired_difference` compares two runs on the same hands.

Two paths:

- opening-hand questions (no draw/excavate cards, one turn): each hand is `n` distinct
  random deck positions (rejection sampling), encoded at once as a mixed-radix key of its
  class counts; the batch is reduced to its distinct hands with their frequencies
  (`bincount`), and each distinct hand is evaluated once;
- everything else (several turns, draw and excavate cards, the hand size limit): a turn
  loop over the whole batch with per-hand state (hand, remaining Deck, bottom cards).
"""

from __future__ import annotations

from math import sqrt

import numpy as np

from deckcheck.errors import SimError
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term
from deckcheck.sim.goldfish.deal import deal_orders, deck_slots
from deckcheck.sim.goldfish.npeval import Array, NpEvaluator
from deckcheck.sim.goldfish.turnloop import play_turns
from deckcheck.sim.goldfish.variants import play_paired

CHUNK = 1 << 20


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


class MCResult:
    """Monte Carlo counts: per goal, hands that succeeded by each turn (index 0 = turn 1).

    `failing`: (opening class-count vector, count) of hands failing "success" on turn 1.
    `per_hand`: whether each hand met the first goal by each turn, in the order the hands
    were dealt (for paired comparisons), as bits: `np.packbits` over the hands of each
    chunk (a whole number of bytes per chunk), one column per turn (with `per_hand`)."""

    __slots__ = ("hands", "seed", "going_second", "turns", "by_turn", "failing",
                 "deck_outs", "per_hand", "played")

    def __init__(self, hands: int, seed: int, going_second: bool, turns: int,
                 by_turn: dict[str, list[int]],
                 failing: list[tuple[tuple[int, ...], int]] | None = None,
                 deck_outs: int = 0, per_hand: Array = None,
                 played: dict[int, int] | None = None) -> None:
        self.hands = hands
        self.seed = seed
        self.going_second = going_second
        self.turns = turns
        self.by_turn = by_turn
        self.failing = [] if failing is None else failing
        self.deck_outs = deck_outs
        self.per_hand = per_hand
        #: Draw card class -> hands that played it (one game per hand).
        self.played = {} if played is None else played

    def rate(self, goal: str = "success", turn: int = 1) -> float:
        return self.by_turn[goal][turn - 1] / self.hands

    def interval(self, goal: str = "success", turn: int = 1) -> tuple[float, float]:
        return wilson(self.by_turn[goal][turn - 1], self.hands)


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
             per_hand: bool = False, one_game: bool = True) -> MCResult:
    """Deal `hands` random hands and play `turns` turns of goldfishing for each goal.

    Two runs with the same seed, hand count and class layout (a profile and its +-1 copy
    variants; two profiles compiled with `refine`) deal the same hands: common random
    numbers, so `paired_difference` of their `per_hand` results is tight.

    `one_game` (the default): each hand's draw cards are played once, for the first goal,
    and every goal is measured on the hand that play left; without, each goal is played
    for on its own."""
    if hands < 1:
        raise SimError(f"The number of hands must be at least 1, not {hands}.")
    sizes = np.array(K if K is not None else cp.K, dtype=np.int64)
    if sizes.sum() < cp.rules.cards_by(1, going_second):
        raise SimError(f"A Main Deck of {int(sizes.sum())} cards is too small to deal a hand.")
    goals = goals if goals is not None else cp.goals(going_second)
    if turns == 1 and not cp.has_draws and not cp.zones:
        return _opening(cp, sizes, hands, seed, going_second, goals, failing, K is None,
                        per_hand, one_game)
    return _turns(cp, sizes, hands, seed, going_second, turns, goals, failing, per_hand,
                  one_game)


def simulate_paired(cp: CompiledProfile, Ks: list[tuple[int, ...]], hands: int, *, seed: int,
                    going_second: bool = False, goals: dict[str, list[Term]] | None = None
                    ) -> list[MCResult]:
    """`simulate(..., K=K, per_hand=True)` of the first goal for each `K` of `Ks` (the
    compiled deck's class sizes and +-1 copy variants of them): the same results, the
    variants dealt the same orders once and played side by side in one batch where
    draw cards make it a turn loop."""
    if hands < 1:
        raise SimError(f"The number of hands must be at least 1, not {hands}.")
    goals = goals if goals is not None else cp.goals(going_second)
    if cp.has_draws or cp.zones:
        for K in Ks:
            if sum(K) < cp.rules.cards_by(1, going_second):
                raise SimError(f"A Main Deck of {sum(K)} cards is too small to deal a hand.")
        runs = play_paired(cp, [np.array(K, dtype=np.int64) for K in Ks], hands, seed,
                           going_second, 1, goals, 0)
        return [MCResult(hands, seed, going_second, 1, by_turn, fails, outs, per_hand=won)
                for by_turn, fails, outs, won in runs]
    return [simulate(cp, hands, seed=seed, going_second=going_second, goals=goals, K=K,
                     per_hand=True) for K in Ks]


#: Set bits in each byte value.
_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def paired_difference(a: MCResult, b: MCResult, turn: int = 1,
                      z: float = 1.96) -> tuple[float, float, float]:
    """B - A for the first goal by `turn`, from two runs on the same hands (each hand
    compared with itself), with its 95% interval: (difference, low, high)."""
    x = a.per_hand[:, turn - 1]
    y = b.per_hand[:, turn - 1]
    n = a.hands
    up = int(_BITS[y & ~x].sum(dtype=np.int64))  # padding bits are 0 in both runs
    down = int(_BITS[x & ~y].sum(dtype=np.int64))
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
             per_hand: bool = False, one_game: bool = True) -> MCResult:
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
    packed: list[Array] = []
    first = NpEvaluator(cp, next(iter(goals.values()))) if per_hand else None
    known = _KeyCache(space)
    while done < hands:
        size = min(CHUNK, hands - done)
        if per_hand:  # ordered dealing: the same cards for +-1 copy variants (paired runs)
            size = min(CHUNK // 4, hands - done)
            top = deal_orders(rng, deck_slots(cp, K), size)[:, :n].astype(np.intp)
            keys = radix[top[:, 0]].astype(pos_key.dtype)
            for i in range(1, n):
                keys += radix[top[:, i]].astype(pos_key.dtype)
            assert first is not None
            packed.append(np.packbits(known.ok(keys, first, radix, caps, K))[:, None])
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
    lead = NpEvaluator(cp, next(iter(goals.values())))
    # one game: the searches made for the first goal, every goal measured on the hands
    # they leave; else each goal with its own searches
    final = lead.final(rows, rest) if one_game and (lead.searchers or lead.worlds) else None
    for i, (name, terms) in enumerate(goals.items()):
        ev = lead if i == 0 else NpEvaluator(cp, terms)
        ok = ev.succeeds(rows, rest) if final is None else ev.ok(final)
        by_turn[name] = [int(counts[ok].sum())]
        if i == 0 and failing:
            bad = np.nonzero(~ok)[0]
            order = bad[np.argsort(-counts[bad], kind="stable")][:failing]
            fail_rows = [(tuple(int(x) for x in rows[j]), int(counts[j])) for j in order]
    return MCResult(hands, seed, going_second, 1, by_turn, fail_rows,
                    per_hand=np.concatenate(packed) if per_hand else None)


class _KeyCache:
    """Whether the hand of each key meets a goal, each distinct hand evaluated once."""

    def __init__(self, space: int) -> None:
        dense = space <= 4_000_000
        self.value: Array = np.zeros(space, dtype=bool) if dense else None
        self.seen: Array = np.zeros(space, dtype=bool) if dense else None

    def ok(self, keys: Array, ev: NpEvaluator, radix: Array, caps: Array, K: Array) -> Array:
        u, inverse = np.unique(keys, return_inverse=True)
        if self.value is None:
            return self._eval(u, ev, radix, caps, K)[inverse]
        new = u[~self.seen[u]]
        if len(new):
            self.value[new] = self._eval(new, ev, radix, caps, K)
            self.seen[new] = True
        return self.value[keys]

    @staticmethod
    def _eval(keys: Array, ev: NpEvaluator, radix: Array, caps: Array, K: Array) -> Array:
        rows = (keys[:, None] // radix[None, :]) % caps[None, :]
        return ev.succeeds(rows, K[None, :] - rows)


# -- the turn loop -------------------------------------------------------------------------
def _turns(cp: CompiledProfile, K: Array, hands: int, seed: int, going_second: bool,
           turns: int, goals: dict[str, list[Term]], failing: int,
           per_hand: bool = False, one_game: bool = True) -> MCResult:
    by_turn, fails, outs, won, played = play_turns(cp, K, hands, seed, going_second, turns,
                                                   goals, failing, per_hand, one_game)
    return MCResult(hands, seed, going_second, turns, by_turn, fails, outs, per_hand=won,
                    played=played)

"""The Monte Carlo turn loop (NumPy): a batch of duels played turn by turn with the rules of
`deckcheck.sim.rules` (hand size, draws, the End Phase hand limit, deck-out) and the
draw-card policy of `play`, compiled to array operations. Per hand: the hand (H), the Deck in
reach (R), the bottom (B: excavated cards, drawn only when R is empty, found by searches).

Plain runs draw each card as a uniformly random card of what is left (what drawing the top
card of a shuffled Deck is); paired runs deal each hand's whole Deck order up front
(`deal_orders`), so variants of the deck meet the same cards in the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from deckcheck.sim.goldfish import play
from deckcheck.sim.goldfish.compiled import HIDDEN, CompiledProfile
from deckcheck.sim.goldfish.conditions import Term
from deckcheck.sim.goldfish.npeval import Array, NpEvaluator, put_rows, take_rows

CHUNK = 1 << 18  # hands per batch


def _sample_opening(rng: Array, K: Array, n: int, size: int) -> Array:
    """`size` random `n`-card hands as class counts (int8): `n` distinct uniformly random
    Deck positions per hand, read from raw 16-bit words of the generator like the
    opening-hand sampler of `montecarlo` (a word at or above the largest multiple of N, or
    a repeated position, deals the hand again)."""
    cls_of = np.repeat(np.arange(len(K)), K)
    N = len(cls_of)
    if N > 255 or n > 16:
        return rng.multivariate_hypergeometric(K, n, size=size, method="count").astype(np.int8)
    limit = (65536 // N) * N
    word_pos = (np.arange(65536) % N).astype(np.uint8)
    words = -(-n // 4)
    P = np.empty((n, size), dtype=np.uint8)  # the Deck positions of each hand's cards
    todo = np.arange(size)
    first = True
    while first or len(todo):
        m = size if first else len(todo)
        V = rng.bit_generator.random_raw(words * m).view(np.uint16).reshape(4 * words, m)[:n]
        pos = np.take(word_pos, V)
        bad = np.zeros(m, dtype=bool)
        for i in range(n):
            for j in range(i + 1, n):
                bad |= pos[i] == pos[j]
        if V.max() >= limit:
            bad |= (V >= limit).any(axis=0)
        if first:
            P = pos
            todo = np.nonzero(bad)[0]
            first = False
        else:
            P[:, todo[~bad]] = pos[:, ~bad]
            todo = todo[bad]
    # the hands' class counts, two cards at a time: rows of a table of every pair of Deck
    # positions' counts (gathering 11-byte rows is faster than adding one card at a time)
    one = np.zeros((N, len(K)), dtype=np.int8)
    one[np.arange(N), cls_of] = 1
    two = (one[:, None, :] + one[None, :, :]).reshape(N * N, len(K))
    H = np.take(two, P[0].astype(np.intp) * N + P[1], axis=0) if n > 1 else \
        np.take(one, P[0], axis=0)
    for i in range(2, n - 1, 2):
        H += np.take(two, P[i].astype(np.intp) * N + P[i + 1], axis=0)
    if n > 1 and n % 2:
        H += np.take(one, P[n - 1], axis=0)
    return H


def _count_classes(X: Array, C: int) -> Array:
    """Rows of class counts (int8, `C` classes) of the rows of classes X (each 0..C-1), two
    columns at a time from a table of every pair's counts."""
    one = np.eye(C, dtype=np.int8)
    two = (one[:, None, :] + one[None, :, :]).reshape(C * C, C)
    n = X.shape[1]
    if n == 0:
        return np.zeros((len(X), C), dtype=np.int8)
    H = np.take(two, X[:, 0].astype(np.intp) * C + X[:, 1], axis=0) if n > 1 else \
        np.take(one, X[:, 0], axis=0)
    for i in range(2, n - 1, 2):
        H += np.take(two, X[:, i].astype(np.intp) * C + X[:, i + 1], axis=0)
    if n > 1 and n % 2:
        H += np.take(one, X[:, n - 1], axis=0)
    return H


def _draw(rng: Array, R: Array, rows: Array) -> Array:
    """Draw one card for each hand in `rows` (indices) from its remaining Deck counts R;
    returns the class drawn (R is updated). Rows must have at least one card left."""
    # one row per class: sums over rows are fast (`rows` as long as R: every row, in order)
    RT = np.ascontiguousarray((R if len(rows) == len(R) else take_rows(R, rows)).T)
    total = RT.sum(axis=0, dtype=np.int16)
    target = (rng.random(len(rows)) * total).astype(np.int16)  # floor: non-negative
    cls = _pick(RT, target, total).astype(np.intp)
    _add_at(R, rows, cls, -1)
    return cls


def _pick(RT: Array, target: Array, total: Array) -> Array:
    """The class of the card at place `target` (0-based) of each column of class counts RT
    (one row per class): the first class whose running count exceeds it (the last class's
    is the total, always above it). A running count in one byte while every total does."""
    C = RT.shape[0]
    small = int(total.max(initial=0)) < 128 and RT.dtype == np.int8
    if small:
        target = target.astype(np.int8)
    acc = RT[0].astype(np.int8 if small else np.int16)
    cls = (acc <= target).view(np.uint8)
    for c in range(1, C - 1):
        acc += RT[c]
        cls += acc <= target
    return cls


def _excavate_random(rng: Array, R: Array, rows: Array, n: Array, most: int,
                     transposed: bool = False) -> Array:
    """Take up to `n` (per hand, at most `most`) random cards one at a time out of the Deck
    counts R of the hands `rows`, as `_draw` would one card after another (the same random
    numbers, the same cards), on one transposed copy of those rows; returns the counts
    taken (rows of classes; `transposed`: one row per class)."""
    m = len(rows)
    R0 = np.ascontiguousarray(take_rows(R, rows).T)  # one row per class
    RT = R0.copy()
    flat = RT.reshape(-1)
    left = RT.sum(axis=0, dtype=np.int16)
    base: Array = None  # the flat index of each hand's column in class 0
    for i in range(most):
        live = (n > i) & (left > 0)
        if live.all():
            at: Array = None
            part, total = RT, left
        else:
            at = np.nonzero(live)[0]
            if not len(at):
                continue
            part, total = RT[:, at], left[at]
        target = (rng.random(len(total)) * total).astype(np.int16)
        cls = _pick(part, target, total).astype(np.intp)
        if at is None:
            if base is None:
                base = np.arange(m)
            flat[cls * m + base] -= 1
            left -= 1
        else:
            flat[cls * m + at] -= 1
            left[at] -= 1
    put_rows(R, rows, RT.T)
    R0 -= RT  # what was taken
    return R0 if transposed else np.ascontiguousarray(R0.T)


def _add_at(A: Array, rows: Array, cols: Array, value: Array | int) -> None:
    """`A[rows, cols] += value` through one flat index (NumPy's 2-D fancy indexing costs
    about twice as much). Columns are not negative; pairs do not repeat."""
    if not A.flags.c_contiguous:
        A[rows, cols] += value
        return
    A.reshape(-1)[np.asarray(rows, dtype=np.intp) * A.shape[1] + cols] += value


def _row_sums(A: Array) -> Array:
    """The sum of each row of int8 counts that sum to less than 128 (a Deck of fewer than
    128 cards): `einsum` is several times faster than `sum(axis=1)` over rows this short."""
    return np.einsum("ij->i", A)


def _row_sums_wide(A: Array) -> Array:
    """`_row_sums` for larger Decks."""
    return A.sum(axis=1, dtype=np.int64)


Played = dict[int, int]


def play_turns(cp: CompiledProfile, K: Array, hands: int, seed: int, going_second: bool,
               turns: int, goals: dict[str, list[Term]], failing: int,
               per_hand: bool = False, one_game: bool = True
               ) -> tuple[dict[str, list[int]], list[tuple[tuple[int, ...], int]], int, Array,
                          Played]:
    """Deal `hands` hands in chunks and play `turns` turns: (hands that met each goal by
    each turn, the most common failing opening hands, deck-outs, with `per_hand` whether
    each hand met the first goal by each turn, and the hands that played each draw card
    class).

    `one_game` (the default): each hand plays one game, for the first goal; every goal is
    measured on the hand that game left at each turn, so the goals are a breakdown of the
    same games. Without it each goal is played for on its own (the same hands dealt)."""
    if per_hand:
        by, fails, outs, won = play_paired(cp, [K], hands, seed, going_second, turns, goals,
                                           failing)[0]
        return by, fails, outs, won, {}
    by_turn = {name: [0] * turns for name in goals}
    fail_counts: dict[tuple[int, ...], int] = {}
    deck_outs = 0
    # (the End Phase keeps what the goals need: derived rows' hidden goals ask nothing)
    order = play.discard_order(cp, {n: t for n, t in goals.items()
                                    if not n.startswith(HIDDEN)})
    names = list(goals)
    played: Played = {}
    # every goal plays the same hands: the opening hands (and the generator's state after
    # dealing them) of the first goal are kept for the others when they fit in memory
    keep = not one_game and len(goals) > 1 and hands * len(K) <= 64_000_000
    openings: list[tuple[Array, Any, Array, Array]] = []
    players = [names[0]] if one_game else names
    measure = [NpEvaluator(cp, goals[n]) for n in names[1:]] if one_game else None
    for gi, name in enumerate(players):
        ev = NpEvaluator(cp, goals[name])
        rng = np.random.default_rng(seed)  # the same hands for every goal
        done = 0
        chunk = 0
        while done < hands:
            size = min(CHUNK, hands - done)
            dealt = openings[chunk] if gi and keep else None
            batch = _Batch(cp, ev, rng, K, size, going_second,
                           opening=None if dealt is None else dealt[:2])
            if dealt is not None:
                batch.HT1 = dealt[3]
            chunk += 1
            first, hits, outs = batch.run(turns, order,
                                          drawn=None if dealt is None else dealt[2],
                                          measure=measure)
            if gi == 0 and keep and batch.after_draws is not None:
                openings.append(batch.after_draws)  # turn 1's hands, draws included
            for t in range(turns):
                by_turn[name][t] += int(hits[t])
            for j, other in enumerate(names[1:] if measure else []):
                for t in range(turns):
                    by_turn[other][t] += batch.measured[j][t]
            if gi == 0:
                deck_outs += outs
                for j, d in enumerate(batch.order):
                    played[d] = played.get(d, 0) + int(batch.played[:, j].sum())
                if failing:
                    X, ok1 = first
                    HT = None if batch.after_draws is None else batch.after_draws[3]
                    if HT is not None:  # (the turn-1 hands, transposed: every column kept)
                        _count_rows(None, fail_counts, np.compress(~ok1, HT, axis=1))
                    else:
                        _count_rows(X[~ok1], fail_counts)
            done += size
    fails = sorted(fail_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:failing]
    return by_turn, fails, deck_outs, None, played


#: Hands per batch of paired runs (a multiple of 8: each batch packs to whole bytes, and of
#: `deal_orders`'s slice, so the orders dealt do not depend on it).
PAIRED_CHUNK = 1 << 15


def play_paired(cp: CompiledProfile, Ks: list[Array], hands: int, seed: int,
                going_second: bool, turns: int, goals: dict[str, list[Term]], failing: int
                ) -> list[tuple[dict[str, list[int]], list[tuple[tuple[int, ...], int]], int,
                                Array]]:
    """Paired runs of the first goal (common random numbers): the deck with class sizes
    `K` for each `K` of `Ks` (the compiled deck's and its +-1 copy variants: one slot
    layout), each hand's whole Deck order dealt up front from the same random slot
    priorities, so every variant meets the very same cards in the same order. The
    variants play side by side in one batch. Per variant: as `play_turns`, with whether
    each hand met the goal by each turn as bits (`np.packbits` over the hands)."""
    name, terms = next(iter(goals.items()))
    ev = NpEvaluator(cp, terms)
    order = play.discard_order(cp, {name: terms})
    layouts = [deck_slots(cp, K) for K in Ks]
    S = len(layouts[0])
    if any(len(lay) != S for lay in layouts):
        raise ValueError("paired variants need one slot layout (the same number of slots)")
    V = len(Ks)
    by_turn = [[0] * turns for _ in Ks]
    packed: list[list[Array]] = [[] for _ in Ks]
    fail_counts: dict[tuple[int, ...], int] = {}
    outs = [0] * V
    rng = np.random.default_rng(seed)
    Kmat = np.array([np.asarray(K, dtype=np.int8) for K in Ks])
    done = 0
    while done < hands:
        size = min(PAIRED_CHUNK, hands - done)
        variants = _Variants(slot_orders(rng, S, size), layouts)
        dealt = rng.bit_generator.state
        won_all, lost_all, first = _play_variants_from_base(
            cp, ev, rng, variants, Kmat, size, going_second, turns, order)
        if won_all is None or first is None:  # every variant played in full
            rng.bit_generator.state = dealt
            batch = _Batch(cp, ev, rng, Kmat, size * V, going_second,
                           orders=(variants.all_orders(), np.repeat(Kmat, size, axis=0)))
            first, _, _ = batch.run(turns, order)
            won_all, lost_all = batch.won_by_turn, batch.lost
        for v in range(V):
            part = slice(v * size, (v + 1) * size)
            won = won_all[part]
            for t in range(turns):
                by_turn[v][t] += int(won[:, t].sum())
            packed[v].append(np.packbits(won, axis=0))  # 8 hands a byte
            outs[v] += int(lost_all[part].sum())
        if failing:
            X, ok1 = first
            _count_rows(X[:size][~ok1[:size]], fail_counts)
        done += size
    fails = sorted(fail_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:failing]
    return [({name: by_turn[v]}, fails if v == 0 else [], outs[v], np.concatenate(packed[v]))
            for v in range(V)]


def _deck_sensitive(cp: CompiledProfile) -> set[int] | None:
    """The classes whose number left in the Deck a turn can depend on beyond the cards it
    takes from the top (searched, Small World); None when any card reshuffles the Deck or
    redraws a hand."""
    if any(b.redraw_hand or b.excavate_rest == "shuffle" for b in cp.behaviours.values()):
        return None
    out = {c for f in cp.targets.values() for c in cp.class_members(f)}
    for a, t, bridges in cp.small_world:
        out |= {a, t, *bridges}
    return out


def _play_variants_from_base(cp: CompiledProfile, ev: NpEvaluator, rng: Array,
                             variants: _Variants, Kmat: Array, size: int, going_second: bool,
                             turns: int, order: list[int]
                             ) -> tuple[Array, Array, tuple[Array, Array] | None]:
    """Turn 1 of the unchanged deck (the first `size` rows), then of each +-1 copy variant
    only the hands the change can reach: a hand whose changed card lies deeper in the Deck
    than the unchanged deck's play took cards from the top (with a margin of cards to
    spare), of a class no search or Small World looks for in the Deck, plays exactly as the
    unchanged hand did and takes its result. (won by turn, lost, turn-1 hands) of all rows;
    (None, None, ...) when this does not apply (several turns, a reshuffle, a redraw, or a
    hand that drew from an emptied Deck), and every variant must be played in full."""
    sensitive = _deck_sensitive(cp)
    V = len(variants.layouts)
    if turns != 1 or sensitive is None or V == 1:
        return None, None, None
    base = _Batch(cp, ev, rng, Kmat[:1], size, going_second,
                  orders=(variants.orders(0), np.repeat(Kmat[:1], size, axis=0)))
    first, _, _ = base.run(turns, order)
    if base.rng_used:
        return None, None, None
    need = max([b.banish_top + b.draw + b.excavate for b in cp.behaviours.values()] or [0])
    taken = base.ptr  # cards each hand took from the top of its Deck
    spare = int(Kmat[0].sum()) - taken - 2 > need  # and still the cards to play any
    # hands that never looked into their Deck: no card taken after turn 1's draws and no
    # searcher in the hand (its hand never changed), so a search or Small World class's
    # number left deeper in the Deck did not matter either
    quiet: Array = None
    if not ev.worlds and not cp.small_world:
        quiet = taken == cp.rules.cards_by(1, going_second)
        for s in ev.searchers:
            quiet &= first[0][:, s] == 0
    rows: list[Array] = []  # per variant, the hands it replays
    for v in range(1, V):
        ch = variants.changes[v]
        if ch is None or (ch[1] in sensitive and quiet is None):
            rows.append(np.arange(size))
        elif ch[1] in sensitive:
            rows.append(np.nonzero(~((ch[0] >= taken) & spare & quiet))[0])
        else:
            rows.append(np.nonzero(~((ch[0] >= taken) & spare))[0])
    idx = np.concatenate([v * size + r for v, r in enumerate(rows, 1)])
    won = np.tile(base.won_by_turn, (V, 1))
    lost = np.tile(base.lost, V)
    if len(idx):
        orders = np.concatenate([variants.orders(v, r) for v, r in enumerate(rows, 1)])
        Krows = np.repeat(Kmat[1:], [len(r) for r in rows], axis=0)
        rest = _Batch(cp, ev, rng, Krows, len(idx), going_second, orders=(orders, Krows),
                      largest=int(Kmat.sum(axis=1, dtype=np.int64).max()))
        rest.run(turns, order)
        if rest.rng_used:
            return None, None, None
        won[idx] = rest.won_by_turn
        lost[idx] = rest.lost
    return won, lost, first


def deck_slots(cp: CompiledProfile, K: Array) -> Array:
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


def deal_orders(rng: Array, layout: Array, size: int) -> Array:
    """`size` random Deck orders (rows of classes, empty slots last) of the slot `layout`
    (one layout, or one per row): each slot gets a random 16-bit priority, ties broken by
    slot, and the slots are sorted by it. Dealt in slices to bound the memory."""
    out = np.empty((size, layout.shape[-1]), dtype=layout.dtype)
    step = 1 << 15
    for lo in range(0, size, step):
        hi = min(size, lo + step)
        part = layout[lo:hi] if layout.ndim == 2 else layout
        out[lo:hi] = _deal_slice(rng, part, hi - lo)
    return out


def slot_orders(rng: Array, S: int, size: int) -> Array:
    """The slots 0..S-1 of `size` Decks in dealing order (rows), from the same random
    numbers `deal_orders` takes for an `S`-slot layout: `deal_orders` of any layout of S
    slots is this order with the empty slots moved to the end (`_variant_orders`)."""
    out = np.empty((size, S), dtype=np.uint8 if S <= 256 else np.intp)
    step = 1 << 15
    for lo in range(0, size, step):
        hi = min(size, lo + step)
        out[lo:hi] = _deal_slice(rng, np.zeros(S, dtype=np.int8), hi - lo, slots=True)
    return out


def _variant_orders(slots: Array, layout: Array) -> Array:
    """`deal_orders` of `layout` from the slot orders `slots` (`slot_orders`): the classes
    of the filled slots in order, then -1 for each empty slot."""
    empty = np.nonzero(layout < 0)[0]
    if not len(empty):
        return np.take(layout, slots)
    keep = slots != empty[0]
    for e in empty[1:]:
        keep &= slots != e
    size, S = slots.shape
    out = np.full((size, S), -1, dtype=layout.dtype)
    out[:, :S - len(empty)] = np.take(layout, slots[keep].reshape(size, S - len(empty)))
    return out


class _Variants:
    """The Deck orders of +-1 copy variants dealt from one set of slot orders (`slots`,
    `slot_orders`): `orders(v)` is `_variant_orders(slots, layouts[v])`, built only for the
    hands asked for. A variant that differs from the first layout by one card (a +-1 copy)
    is read off the first layout's orders, and `changes[v]` says where (per hand) its order
    first differs from the first layout's, and the class of that card (else None)."""

    def __init__(self, slots: Array, layouts: list[Array]) -> None:
        self.slots, self.layouts = slots, layouts
        size, S = slots.shape
        self.base = _variant_orders(slots, layouts[0])
        base_empty = layouts[0] < 0
        # each slot's place among the first layout's cards in each row's order
        small = np.uint8 if S < 256 else np.intp
        place = np.empty(slots.shape, dtype=small)  # (one flat index per slot)
        flat = slots + (np.arange(size, dtype=np.intp) * S)[:, None]
        place.reshape(-1)[flat.reshape(-1)] = np.tile(np.arange(S, dtype=small), size)
        at_card = place.copy()
        for x in np.nonzero(base_empty)[0].tolist():
            at_card -= (place[:, x:x + 1] < place).astype(small)
        #: per variant: ("-", emptied slot) / ("+", filled slot) / None (dealt in full)
        self.kind: list[tuple[str, int] | None] = [None]
        self.changes: list[tuple[Array, int] | None] = [None]
        for lay in layouts[1:]:
            gone = np.nonzero((lay < 0) & ~base_empty)[0]
            added = np.nonzero((lay >= 0) & base_empty)[0]
            same_else = not ((lay != layouts[0]) & (lay >= 0) & ~base_empty).any()
            if len(gone) == 1 and not len(added) and same_else:  # -1 copy
                e = int(gone[0])
                self.kind.append(("-", e))
                self.changes.append((at_card[:, e], int(layouts[0][e])))
            elif len(added) == 1 and not len(gone) and same_else:  # +1 copy
                a = int(added[0])
                self.kind.append(("+", a))
                self.changes.append((at_card[:, a], int(lay[a])))
            else:
                self.kind.append(None)
                self.changes.append(None)

    def orders(self, v: int, rows: Array | None = None) -> Array:
        """The Deck orders of variant `v` for the hands `rows` (all)."""
        if v == 0:
            return self.base if rows is None else take_rows(self.base, rows)
        kind = self.kind[v]
        if kind is not None and kind[0] == "-":
            at = self.changes[v][0]  # type: ignore[index]
            base = self.base
            if rows is not None:
                at, base = at[rows], take_rows(base, rows)
            S = base.shape[1]
            out = np.empty_like(base)
            # each order without the card at its place `at`, the empty slot last
            keep = np.arange(S, dtype=at.dtype)[None, :] != at[:, None]
            out[:, :S - 1] = np.compress(keep.reshape(-1), base.reshape(-1)).reshape(-1, S - 1)
            out[:, S - 1] = -1
            return out
        return _variant_orders(self.slots if rows is None else take_rows(self.slots, rows),
                               self.layouts[v])

    def all_orders(self) -> Array:
        """Every variant's orders, stacked."""
        return np.concatenate([self.orders(v) for v in range(len(self.layouts))])


def _deal_slice(rng: Array, layout: Array, size: int, slots: bool = False) -> Array:
    S = layout.shape[-1]
    shift = max(6, int(S).bit_length())
    words = -(-size * S // 4)
    pri = rng.bit_generator.random_raw(words).view(np.uint16)[:size * S].reshape(size, S)
    keys = pri.astype(np.uint32)
    keys <<= np.uint32(shift)
    keys |= np.arange(S, dtype=np.uint32)
    top = np.uint32((0xFFFFFFFF >> shift) << shift)  # above every real priority
    empty = layout < 0
    if layout.ndim == 1:
        empty = np.broadcast_to(empty, keys.shape)
    keys[empty] = (top | np.arange(S, dtype=np.uint32))[np.nonzero(empty)[1]]
    keys.sort(axis=1)
    keys &= np.uint32((1 << shift) - 1)
    slot = keys.astype(np.intp)
    if slots:
        return slot
    if layout.ndim == 2:
        return np.take_along_axis(layout, slot, axis=1)
    return layout[slot]


def _count_rows(X: Array, into: dict[tuple[int, ...], int], XT: Array = None) -> None:
    """Add the rows of X (small non-negative counts) to `into`, row -> how many times.
    `XT`: X transposed (one row per column), if at hand; X is then not read."""
    if XT is None:
        if not len(X):
            return
        XT = np.ascontiguousarray(X.T)  # one row per column: keys summed column by column
    if not XT.shape[1]:
        return
    caps = XT.max(axis=1).astype(np.int64) + 1  # each column's values: 0..cap-1
    space = int(np.prod(caps.astype(np.float64)))
    if space < 2**62:  # one integer key per row: a 1-D unique is much faster
        radix = np.concatenate([[1], np.cumprod(caps)[:-1]]).astype(np.int64)
        kt = np.int32 if space < 2**31 else np.int64  # (a sort of 4-byte keys is faster)
        key = XT[0].astype(kt)
        for c in range(1, len(XT)):
            if caps[c] > 1:
                key += XT[c].astype(kt) * kt(radix[c])
        keys, counts = np.unique(key, return_counts=True)
        keys = keys.astype(np.int64)
        rows = (keys[:, None] // radix[None, :]) % caps[None, :]
    else:
        rows, counts = np.unique(np.ascontiguousarray(XT.T), axis=0, return_counts=True)
    for row, cnt in zip(rows.tolist(), counts.tolist(), strict=True):
        key = tuple(row)
        into[key] = into.get(key, 0) + cnt


class _Batch:
    """A batch of duels played turn by turn with the rules of `deckcheck.sim.rules` (hand
    size, draws, End Phase limit, deck-out) and the draw-card policy of `play`, compiled to
    array operations. Per hand: H (hand), R (Deck in reach), B (the bottom: excavated cards,
    drawn only when R is empty, found by searches), and this turn's play state."""

    def __init__(self, cp: CompiledProfile, ev: NpEvaluator, rng: Array, K: Array, size: int,
                 going_second: bool, opening: tuple[Array, Any] | None = None,
                 orders: tuple[Array, Array] | None = None,
                 largest: int | None = None) -> None:
        self.cp, self.ev, self.rng, self.size = cp, ev, rng, size
        self.going_second = going_second
        #: Ordered mode: each hand's whole Deck order is dealt up front from random slot
        #: priorities (O, read from `ptr`), so a variant of the deck (+-1 copy: one slot
        #: filled or emptied) or another profile on the same classes meets the very same
        #: cards in the same order: common random numbers for paired differences.
        self.O: Array = None
        self.ptr: Array = None
        n = cp.rules.hand_size
        if orders is not None:  # paired runs: each Deck's order (and class sizes) per hand
            self.O, K = orders
            self.ptr = np.full(size, n, dtype=np.int64)
            # counts fit in one byte (a deck holds a few dozen cards): less memory to move
            self.H = _count_classes(self.O[:, :n], K.shape[-1])
        elif opening is not None:  # hands already dealt, the generator where it was then
            self.H = opening[0].copy()
            rng.bit_generator.state = opening[1]
        else:
            self.H = _sample_opening(rng, K, n, size)
        self.R = (K.astype(np.int8) if K.ndim == 2 else K.astype(np.int8)[None, :]) - self.H
        # (the largest Deck: given, or at most the sum of each class's largest size)
        if largest is None:
            largest = int(K.max(axis=0).sum()) if K.ndim == 2 else int(K.sum())
        self.row_sums = _row_sums if largest < 128 else _row_sums_wide
        self.B: Array = None  # (zeros until a card is put on the bottom: made then)
        #: GY and banished counts, tracked only when a condition counts them.
        self.G: Array = np.zeros_like(self.H) if cp.zones else None
        self.X: Array = np.zeros_like(self.H) if cp.zones else None
        self.order = play.play_order(cp)
        #: How much the goal needs each class: discard / banish choices by intent.
        self.needs = play.need_order(cp, ev.goal_terms)
        self.extra: Array = np.full(size, cp.extra_size,
                                    dtype=np.int16 if cp.extra_size < 2**15 else np.int64)
        self.won_by_turn: Array = None
        #: Turn 1 after its draws: (hands, the generator's state, hands that could not draw).
        self.after_draws: tuple[Array, Any, Array, Array] | None = None
        #: Turn 1's hands transposed (one row per class), when another goal's batch has
        #: them (`after_draws`).
        self.HT1: Array = None
        #: After `run`: the hands that lost by drawing from an empty Deck.
        self.lost: Array = None
        #: Whether play took random numbers after dealing (a draw from the bottom cards, a
        #: reshuffle): ordered runs then depend on which other hands share the batch.
        self.rng_used = False
        #: Whether any card was put on the bottom (B is all zero until then).
        self.bottom = False

    def deck(self, rows: Array | None = None) -> Array:
        """The Deck in reach of searches (R and the bottom B) of the hands `rows` (all)."""
        if rows is None:
            return self.R + self.B if self.bottom else self.R
        R = take_rows(self.R, rows)
        return R + take_rows(self.B, rows) if self.bottom else R

    def draw(self, rows: Array) -> Array:
        """Each hand in `rows` draws its next card (from R, else from the bottom B); returns
        the class drawn, -1 where the Deck is empty."""
        out = np.full(len(rows), -1, dtype=np.int64)
        # (`rows` as long as the batch: every hand, in order)
        inr = self.row_sums(self.R if len(rows) == self.size else take_rows(self.R, rows)) > 0
        if inr.any():
            out[inr] = self.draw_top(rows[inr])
        inb = ~inr & (self.row_sums(take_rows(self.B, rows)) > 0) if self.bottom else \
            np.zeros(len(rows), bool)
        if inb.any():
            self.rng_used = True
            out[inb] = _draw(self.rng, self.B, rows[inb])
        return out

    def draw_top(self, rows: Array) -> Array:
        """The top card of R for each hand in `rows` (each has one), taken out of R."""
        if self.O is None:
            return _draw(self.rng, self.R, rows)
        cls = self.O[rows, self.ptr[rows]].astype(np.int64)
        self.ptr[rows] += 1
        _add_at(self.R, rows, cls, -1)
        return cls

    def reshuffle(self, rows: Array) -> None:
        """Ordered mode: the Deck of each hand in `rows` is shuffled (a new order of R)."""
        if self.O is None or not len(rows):
            return
        self.rng_used = True
        S = self.O.shape[1]
        cum = np.cumsum(self.R[rows], axis=1, dtype=np.int16)
        slots = np.arange(S, dtype=np.int16)
        layout = (slots[None, :, None] >= cum[:, None, :]).sum(axis=2).astype(np.int8)
        layout[slots[None, :] >= cum[:, -1:]] = -1
        self.O[rows] = deal_orders(self.rng, layout, len(rows))
        self.ptr[rows] = 0

    def full(self, H: Array, rows: Array | None = None) -> Array:
        """Hand rows as the evaluator reads them: with GY / banished conditions, the hand,
        GY and banished counts side by side (of the hands `rows`, all by default)."""
        if self.G is None:
            return H
        if rows is None:
            return np.concatenate([H, self.G, self.X], axis=1)
        return np.concatenate([H, take_rows(self.G, rows), take_rows(self.X, rows)], axis=1)

    def to_zone(self, zone: Array | None, rows: Array, cls: Array | int,
                n: Array | int = 1) -> None:
        """Put `n` cards of class `cls` of each hand in `rows` in a tracked zone."""
        if zone is not None:
            zone[rows, cls] += n

    def succeeds(self, rows: Array | None = None, HT: Array = None) -> Array:
        """Whether the hands `rows` (all) meet the goal (`NpEvaluator.succeeds` does not
        change the arrays it is given); `HT`: all hands transposed, if at hand."""
        if rows is None:
            return self.ev.succeeds(self.full(self.H), self.deck(), HT=HT)
        return self.ev.succeeds(self.full(take_rows(self.H, rows), rows), self.decks_of(rows))

    def decks_of(self, rows: Array) -> Callable[[Array], Array]:
        """The Deck (`deck`) of the hands `rows` at some indices of `rows` (all: None), read
        only for the hands an evaluation asks for (a search's)."""
        return lambda idx: self.deck(rows if idx is None else rows[idx])

    def run(self, turns: int, order: list[int], drawn: Array = None,
            measure: list[NpEvaluator] | None = None
            ) -> tuple[tuple[Array, Array], list[int], int]:
        """Play `turns` turns. `drawn`: the hands already hold turn 1's draws (the hands
        that could not draw: True), as `after_draws` of a batch dealt the same hands left
        them (the turn-1 hands returned are then not kept). Without `drawn`, the turn-1
        hands, the generator's state then and the hands transposed are kept in
        `after_draws`.

        `measure`: goals measured on every hand at the end of each turn's play (one game
        per hand: the hand the play for this batch's goal left), counted in `measured`
        (per goal, hands by turn); `played` counts the hands that played each draw card
        class of `order` (by the last turn)."""
        rules, size = self.cp.rules, self.size
        self.measured: list[list[int]] = [[] for _ in measure or []]
        self.played = np.zeros((size, len(self.order)), dtype=bool)
        self.won_by_turn = np.zeros((size, turns), dtype=bool)
        won = np.zeros(size, dtype=bool)
        lost = np.zeros(size, dtype=bool) if drawn is None else drawn.copy()
        hits: list[int] = []
        first: tuple[Array, Array] = (self.H, won)  # (set on turn 1)
        for turn in range(1, turns + 1):
            if turn > 1 or drawn is None:
                self.draw_phase(turn, won, lost)
            active = ~won & ~lost
            # turn 1's hands, kept for the failing hands and for other goals (a batch dealt
            # another goal's hands needs neither)
            H1 = self.H.copy() if turn == 1 and drawn is None else None
            HT: Array = None  # turn 1's hands transposed, for every goal (no GY / banished)
            if turn == 1 and self.G is None:
                HT = self.HT1 if self.HT1 is not None else np.ascontiguousarray(self.H.T)
            if H1 is not None:
                self.after_draws = (H1, self.rng.bit_generator.state, lost.copy(), HT)
            ok = np.zeros(size, dtype=bool)
            if active.all():
                ok = self.succeeds(HT=HT)
            else:
                rows = np.nonzero(active)[0]
                ok[rows] = self.succeeds(rows)
            self.play_draw_cards(np.nonzero(active & ~ok)[0], ok)
            if H1 is not None:
                first = (H1, ok.copy())
            won |= ok
            self.won_by_turn[:, turn - 1] = won
            hits.append(int(won.sum()))
            if measure:
                self.measure(measure)
            if turn == turns:  # the End Phase of the last turn changes no result
                break
            # End Phase: discard down to the hand size limit, in the player's order
            if rules.hand_limit is None:  # (Rush Duel: no hand size limit)
                continue
            over = self.row_sums(self.H) - rules.hand_limit
            rows = np.nonzero(~won & ~lost & (over > 0))[0]
            if len(rows):
                excess = over[rows]
                for c in order:
                    take = np.minimum(excess, self.H[rows, c])
                    self.H[rows, c] -= take
                    self.to_zone(self.G, rows, c, take)
                    excess -= take
        self.lost = lost
        return first, hits, int(lost.sum())

    def draw_phase(self, turn: int, won: Array, lost: Array) -> None:
        """The Draw Phase of `turn` for the hands still playing: the rules' one card (none
        on turn 1 going first), or, drawing to a hand size (Rush Duel), each hand until it
        holds that many, at least 1."""
        rules = self.cp.rules
        if rules.draw_to:
            need = np.maximum(1, rules.draw_to - self.row_sums(self.H).astype(np.int64))
        else:
            need = np.full(self.size, rules.draws_in(turn, self.going_second), np.int64)
        for i in range(int(need.max(initial=0))):
            rows = np.nonzero(~won & ~lost & (need > i))[0]
            cls = self.draw(rows)
            lost[rows[cls < 0]] = True  # had to draw from an empty Deck
            got = cls >= 0
            _add_at(self.H, rows[got], cls[got], 1)

    def measure(self, goals: list[NpEvaluator]) -> None:
        """Count the hands that meet each goal now (`measured`), each on the hand its game
        left: the searches this batch's goal makes included."""
        H = self.ev.final(self.full(self.H), self.deck())
        HT = np.ascontiguousarray(H.T)
        for j, ev in enumerate(goals):
            self.measured[j].append(int(ev.ok(H, HT).sum()))

    def play_draw_cards(self, rows: Array, ok: Array) -> None:
        """Play draw cards in the hands `rows` (which do not yet succeed): on a compact copy
        of just those hands, written back afterwards."""
        if not self.order or not len(rows):
            return
        # only hands holding a draw card can play one (the others change nothing and take
        # no random numbers)
        holds = take_rows(self.H[:, self.order[0]], rows) > 0
        for d in self.order[1:]:
            holds |= take_rows(self.H[:, d], rows) > 0
        rows = rows[holds]
        if not len(rows):
            return
        sub = _Batch.__new__(_Batch)
        sub.cp, sub.ev, sub.rng, sub.size = self.cp, self.ev, self.rng, len(rows)
        sub.going_second, sub.order, sub.bottom = self.going_second, self.order, self.bottom
        sub.needs = self.needs
        sub.row_sums = self.row_sums
        sub.rng_used = False
        sub.H, sub.R, sub.extra = take_rows(self.H, rows), take_rows(self.R, rows), \
            self.extra[rows]
        sub.B = take_rows(self.B, rows) if self.bottom else np.zeros_like(sub.R)
        sub.O = None if self.O is None else take_rows(self.O, rows)
        sub.G = None if self.G is None else take_rows(self.G, rows)
        sub.X = None if self.X is None else take_rows(self.X, rows)
        sub.ptr = None if self.ptr is None else self.ptr[rows]
        sub_ok = np.zeros(len(rows), dtype=bool)
        sub.main_phase(np.ones(len(rows), dtype=bool), sub_ok)
        if getattr(self, "played", None) is not None and sub.used_now is not None:
            self.played[rows] |= sub.used_now
        put_rows(self.H, rows, sub.H)
        put_rows(self.R, rows, sub.R)
        if sub.bottom:
            if self.B is None:
                self.B = np.zeros_like(self.R)
            put_rows(self.B, rows, sub.B)
        self.extra[rows] = sub.extra
        self.bottom |= sub.bottom
        self.rng_used |= sub.rng_used
        if self.O is not None:
            put_rows(self.O, rows, sub.O)
            self.ptr[rows] = sub.ptr
        if self.G is not None:
            put_rows(self.G, rows, sub.G)
            put_rows(self.X, rows, sub.X)
        ok[rows] = sub_ok

    def main_phase(self, active: Array, ok: Array) -> None:
        """Play draw cards (the `play` policy) in every hand that does not yet succeed."""
        cp, size = self.cp, self.size
        nd = len(self.order)
        self.used_now: Array = None
        if not nd:
            return
        used = np.zeros((size, nd), dtype=bool)
        self.used_now = used  # (the draw cards each hand played this turn)
        played = np.zeros(size, dtype=bool)
        drew = np.zeros(size, dtype=bool)
        locked = np.zeros(size, dtype=bool)
        active = active.copy()
        for _ in range(4 * nd + 4):
            # the hands still to play; one that could play nothing last time is left out:
            # nothing about it has changed since
            idx = np.nonzero(active & ~ok)[0]
            if not len(idx):
                return
            chosen = np.full(len(idx), -1, dtype=np.int64)
            every = len(idx) == size
            if every:  # every hand (only read here: no copies)
                H, left, ex = self.H, self.row_sums(self.deck()), self.extra
                was_played, did_draw, is_locked = played, drew, locked
            else:
                H = take_rows(self.H, idx)
                left = self.row_sums(self.deck(idx))
                ex = self.extra[idx]
                was_played, did_draw, is_locked = played[idx], drew[idx], locked[idx]
            for j, d in enumerate(self.order):
                free = chosen < 0
                if not free.any():
                    break
                b = cp.behaviours[d]
                mask = free & (H[:, d] > 0)
                if b.once_per_turn:
                    mask &= ~(used[:, j] if every else used[idx, j])
                if b.start_of_main1:
                    mask &= ~was_played
                if b.draws:
                    mask &= ~is_locked
                if b.no_draw_before:
                    mask &= ~did_draw
                if b.extra_deck_cost:
                    mask &= ex >= 3
                draw6, exc6 = b.draw, b.excavate
                need: Array = b.banish_top + draw6 + exc6
                if b.extra_deck_cost:
                    need = b.banish_top + np.where(ex < 6, draw6 // 2 + exc6 // 2, draw6 + exc6)
                if b.redraw_hand:
                    need = self.row_sums(H) - 1
                mask &= left >= np.maximum(need, 1)
                if d in cp.costs:
                    members = cp.class_members(cp.costs[d])
                    have = self.row_sums(H[:, members]) - (1 if d in members else 0)
                    mask &= have > 0
                chosen[mask] = j
            active[idx[chosen < 0]] = False
            if not (chosen >= 0).any():
                return
            for j, d in enumerate(self.order):
                rows = idx[chosen == j]
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
            # every hand that played: does it succeed now (one evaluation for them all)
            rows = idx[chosen >= 0]
            ok[rows] = self.succeeds(rows)

    def resolve(self, d: int, rows: Array, paid: Array | int) -> None:
        cp, H = self.cp, self.H
        b = cp.behaviours[d]
        if b.is_spent:
            H[rows, d] -= 1
            self.to_zone(self.G, rows, d)
        if d in cp.costs:
            self.remove_one(rows, play.least_needed(cp.class_members(cp.costs[d]), self.needs))
        half = np.asarray(paid) == 3
        if b.redraw_hand:
            n = self.row_sums(take_rows(H, rows))
            if self.G is not None:
                self.G[rows] += H[rows]
            H[rows] = 0
            for i in range(int(n.max(initial=0))):
                sub = rows[n > i]
                cls = self.draw(sub)
                H[sub, cls] += 1  # (-1: the Deck was empty)
            return
        if b.draw:
            # banish the top cards face-down (cost), then draw: both random cards of the Deck
            for _ in range(b.banish_top):
                cls = self.draw(rows)
                self.to_zone(self.X, rows[cls >= 0], cls[cls >= 0])
            n = np.where(half, b.draw // 2, b.draw) if b.extra_deck_cost else \
                np.full(len(rows), b.draw)
            if self.O is None and (self.row_sums(take_rows(self.R, rows)) >= n).all():
                # every card from the Deck in reach, as `draw` one after another
                put_rows(H, rows, take_rows(H, rows)
                         + _excavate_random(self.rng, self.R, rows, n, b.draw))
            else:
                for i in range(b.draw):
                    sub = rows[n > i]
                    cls = self.draw(sub)
                    H[sub, cls] += 1  # (-1: the Deck was empty)
            if b.then_banish is not None:
                done = self.remove_one(rows, play.least_needed(
                    cp.class_members(cp.targets[d]), self.needs), banish=True)
                if self.G is not None:
                    self.G[rows[~done]] += H[rows[~done]]
                H[rows[~done]] = 0  # no card to banish: the whole hand is discarded
            return
        self.excavate(d, rows, half)

    def excavate(self, d: int, rows: Array, half: Array) -> None:
        """Excavate, add the best card; the rest go to the bottom or back into the Deck."""
        cp, H = self.cp, self.H
        b = cp.behaviours[d]
        n = np.where(half, b.excavate // 2, b.excavate) if b.extra_deck_cost else \
            np.full(len(rows), b.excavate)
        if self.O is None:  # random cards of the Deck, as `_draw` one at a time
            ET = _excavate_random(self.rng, self.R, rows, n, b.excavate, transposed=True)
            E = np.ascontiguousarray(ET.T)
        else:
            E = np.zeros((len(rows), len(cp.classes)), dtype=np.int8)
            for i in range(b.excavate):
                live = np.nonzero((n > i) & (self.row_sums(take_rows(self.R, rows)) > 0))[0]
                cls = self.draw_top(rows[live])
                _add_at(E, live, cls, 1)
            ET = np.ascontiguousarray(E.T)
        pref = np.array(play.preference(cp, self.ev.goal_terms), dtype=np.intp)
        # every (hand, excavated class) pair is tried in one evaluation, pairs in the order
        # of preference: each hand adds the first class that makes it succeed
        seen = ET[pref] > 0  # (place in the preference order, hand)
        pos, hand = np.nonzero(seen)  # pairs in preference order
        chosen = np.full(len(rows), -1, dtype=np.int64)
        if len(hand):
            t = pref[pos]
            pair = np.arange(len(hand))
            at = rows[hand]
            Ht = take_rows(H, at)
            _add_at(Ht, pair, t, 1)

            def decks(idx: Array) -> Array:  # the Deck after adding t, of the pairs `idx`
                if idx is None:
                    idx = pair
                Rt = self.deck(at[idx]) + take_rows(E, hand[idx])
                _add_at(Rt, np.arange(len(idx)), t[idx], -1)
                return Rt

            good = self.ev.succeeds(self.full(Ht, at), decks)
            hands, first = np.unique(hand[good], return_index=True)
            chosen[hands] = t[good][first]
        # nothing makes it succeed: take the most useful-looking card
        none = np.nonzero((chosen < 0) & seen.any(axis=0))[0]
        chosen[none] = pref[seen[:, none].argmax(axis=0)]
        got = chosen >= 0
        _add_at(E, np.nonzero(got)[0], chosen[got], -1)
        _add_at(H, rows[got], chosen[got], 1)
        if b.excavate_rest == "shuffle":
            put_rows(self.R, rows, take_rows(self.R, rows) + E)
            self.reshuffle(rows)
        else:
            put_rows(self.B, rows, take_rows(self.B, rows) + E)
            self.bottom = True

    def remove_one(self, rows: Array, members: list[int], banish: bool = False) -> Array:
        """Discard (or banish) 1 card of `members` from each hand in `rows`
        (`play.remove_choice`: one whose loss keeps the goal within reach, else the first);
        returns which rows had one."""
        H = self.H
        zone = self.X if banish else self.G
        at = len(self.cp.classes) * (2 if banish else 1)
        done = np.zeros(len(rows), dtype=bool)
        for good_only in (True, False):
            for c in members:
                cand = np.nonzero(~done & (H[rows, c] > 0))[0]
                if not len(cand):
                    continue
                if good_only:
                    Hc = take_rows(H, rows[cand])
                    Hc[:, c] -= 1
                    full = self.full(Hc, rows[cand])
                    if zone is not None:
                        full[:, at + c] += 1
                    keep = self.ev.succeeds(full, self.decks_of(rows[cand]))
                    cand = cand[keep]
                H[rows[cand], c] -= 1
                self.to_zone(zone, rows[cand], c)
                done[cand] = True
        return done

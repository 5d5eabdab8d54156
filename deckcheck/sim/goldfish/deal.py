"""Dealing for the Monte Carlo turn loop (NumPy): opening hands, single draws and excavations
as random cards of what is left, Deck orders dealt up front for paired runs (`deal_orders`,
`slot_orders`, `deck_slots`), and the small array helpers the loop shares (row sums, counts,
adding at (row, class) pairs).
"""

from __future__ import annotations

import functools
import heapq

import numpy as np

from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.npeval import Array, put_rows, take_rows


def _sample_opening(rng: Array, K: Array, n: int, size: int) -> Array:
    """`size` random `n`-card hands as class counts (int8): `n` distinct uniformly random
    Deck positions per hand, read from raw 16-bit words of the generator like the
    opening-hand sampler of `montecarlo` (a word at or above the largest multiple of N, or
    a repeated position, deals the hand again)."""
    N = int(K.sum())
    if N > 255 or n > 16:
        return rng.multivariate_hypergeometric(K, n, size=size, method="count").astype(np.int8)
    word_pos, one, two = _opening_tables(tuple(K.tolist()))
    limit = (65536 // N) * N
    words = -(-n // 4)
    P = np.empty((n, size), dtype=np.uint8)  # the Deck positions of each hand's cards
    todo = np.arange(size)
    first = True
    while first or len(todo):
        m = size if first else len(todo)
        V = rng.bit_generator.random_raw(words * m).view(np.uint16).reshape(4 * words, m)[:n]
        pos = np.empty((n, m), dtype=np.uint8)
        for i in range(n):  # (a row at a time: smaller index temporaries)
            np.take(word_pos, V[i], out=pos[i])
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
        else:  # (row by row: 2-D fancy assignment costs several times more)
            good = np.nonzero(~bad)[0]
            at = todo[good]
            for i in range(n):
                P[i].put(at, pos[i].take(good))
            todo = todo[bad]
    # the hands' class counts, two cards at a time: rows of a table of every pair of Deck
    # positions' counts (gathering whole rows is faster than adding one card at a time)
    H = np.take(two, P[0].astype(np.intp) * N + P[1], axis=0) if n > 1 else \
        np.take(one, P[0], axis=0)
    for i in range(2, n - 1, 2):
        H += np.take(two, P[i].astype(np.intp) * N + P[i + 1], axis=0)
    if n > 1 and n % 2:
        H += np.take(one, P[n - 1], axis=0)
    return np.ascontiguousarray(H[:, :len(K)]) if H.shape[1] != len(K) else H


@functools.lru_cache(maxsize=16)
def _opening_tables(K: tuple[int, ...]) -> tuple[Array, Array, Array]:
    """For `_sample_opening` of a Deck of class sizes `K` (N cards): the Deck position of
    each 16-bit word (modulo N), and the class counts of each position and of each pair of
    positions, rows padded to 16 bytes (NumPy gathers rows of 16 bytes several times faster
    than of 11). Made once per Deck (both seats, every chunk)."""
    cls_of = np.repeat(np.arange(len(K)), K)
    N = len(cls_of)
    word_pos = (np.arange(65536) % N).astype(np.uint8)
    width = max(16, len(K))
    one = np.zeros((N, width), dtype=np.int8)
    one[np.arange(N), cls_of] = 1
    two = (one[:, None, :] + one[None, :, :]).reshape(N * N, width)
    for table in (word_pos, one, two):
        table.flags.writeable = False  # (shared by every call)
    return word_pos, one, two


def _count_classes(X: Array, C: int) -> Array:
    """Rows of class counts (int8, `C` classes) of the rows of classes X (each 0..C-1), two
    columns at a time from a table of every pair's counts (rows padded to 16 bytes, as in
    `_opening_tables`)."""
    one, two = _class_tables(C)
    n = X.shape[1]
    if n == 0:
        return np.zeros((len(X), C), dtype=np.int8)
    H = np.take(two, X[:, 0].astype(np.intp) * C + X[:, 1], axis=0) if n > 1 else \
        np.take(one, X[:, 0], axis=0)
    for i in range(2, n - 1, 2):
        H += np.take(two, X[:, i].astype(np.intp) * C + X[:, i + 1], axis=0)
    if n > 1 and n % 2:
        H += np.take(one, X[:, n - 1], axis=0)
    return np.ascontiguousarray(H[:, :C]) if H.shape[1] != C else H


@functools.lru_cache(maxsize=16)
def _class_tables(C: int) -> tuple[Array, Array]:
    """The class counts of one card of each class and of each pair of classes, rows padded
    to 16 bytes (`_count_classes`)."""
    one = np.eye(C, max(16, C), dtype=np.int8)
    two = (one[:, None, :] + one[None, :, :]).reshape(C * C, one.shape[1])
    one.flags.writeable = two.flags.writeable = False
    return one, two


def _draw(rng: Array, R: Array, rows: Array) -> Array:
    """Draw one card for each hand in `rows` (indices) from its remaining Deck counts R;
    returns the class drawn (R is updated). Rows must have at least one card left."""
    # one row per class: sums over rows are fast (`rows` as long as R: every row, in order)
    RT = np.ascontiguousarray((R if len(rows) == len(R) else take_rows(R, rows)).T)
    cls = _pick_random(rng, RT, RT.sum(axis=0, dtype=np.int16))
    _add_at(R, rows, cls, -1)
    return cls


def _draw_every(rng: Array, R: Array, H: Array) -> bool:
    """`_draw` for every hand, its card added to its hand H, when every Deck R holds a card
    (the same random numbers, the same cards; one-hot rows added, no flat index); False,
    and nothing drawn, when some Deck is empty."""
    RT = np.ascontiguousarray(R.T)
    total = RT.sum(axis=0, dtype=np.int16)
    if not total.all():
        return False
    one = np.take(np.eye(R.shape[1], dtype=R.dtype), _pick_random(rng, RT, total), axis=0)
    R -= one
    H += one
    return True


def _pick_random(rng: Array, RT: Array, total: Array) -> Array:
    """The class of a uniformly random card of each column of class counts RT (one row per
    class; `total`: each column's sum, at least 1): one random number per column."""
    target = (rng.random(len(total)) * total).astype(np.int16)  # floor: non-negative
    return _pick(RT, target, total).astype(np.intp)


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
    if layout.ndim == 1:  # the same empty slots in every row: whole columns
        cols = np.nonzero(empty)[0].astype(np.uint32)
        if len(cols):
            keys[:, cols] = top | cols
    else:
        keys[empty] = (top | np.arange(S, dtype=np.uint32))[np.nonzero(empty)[1]]
    keys.sort(axis=1)
    keys &= np.uint32((1 << shift) - 1)
    if slots:  # (the slot numbers, as the caller's array stores them)
        return keys
    slot = keys.astype(np.intp)
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
    found = zip(map(tuple, rows.tolist()), counts.tolist(), strict=True)
    if not into:  # (the first batch: no sums to make)
        into.update(found)
        return
    for key, cnt in found:
        into[key] = into.get(key, 0) + cnt


def _most_common(counts: dict[tuple[int, ...], int], n: int
                 ) -> list[tuple[tuple[int, ...], int]]:
    """The `n` most common rows of `_count_rows`, ties by the row: `sorted(...)[:n]`
    without sorting them all."""
    return heapq.nsmallest(n, counts.items(), key=lambda kv: (-kv[1], kv[0]))

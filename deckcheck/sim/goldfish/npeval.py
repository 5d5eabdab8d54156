"""One goal evaluated on a batch of hands at once (NumPy): the Monte Carlo engine's twin of
`exact.Evaluator`, searchers and Small World included. Hands are rows of class counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from deckcheck.sim.goldfish.checks import goal_checks
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term

Array = Any  # numpy arrays (kept loose so the module type-checks without numpy stubs)


def take_rows(A: Array, idx: Array) -> Array:
    """`A[idx]` of a 2-D array: the rows at the indices `idx`, or where the boolean mask
    `idx` is True. `np.take` / `np.compress` are several times faster than NumPy's fancy
    indexing on rows of a few bytes (the class counts of a hand)."""
    if idx.dtype == bool:
        return np.compress(idx, A, axis=0)
    return np.take(A, idx, axis=0)


def put_rows(A: Array, idx: Array, V: Array) -> None:
    """`A[idx] = V` for distinct row indices `idx`: each row written as one opaque item
    (`np.put` on a row-sized view), several times faster than fancy assignment."""
    if A.ndim != 2 or not A.flags.c_contiguous or not A.shape[1] or np.ndim(V) != 2:
        A[idx] = V
        return
    row = np.dtype((np.void, A.shape[1] * A.itemsize))
    np.put(A.view(row).reshape(-1), idx,
           np.ascontiguousarray(V, dtype=A.dtype).view(row).reshape(-1))


class NpEvaluator:
    """One goal evaluated on a batch of hands (rows of class counts), searchers included."""

    def __init__(self, cp: CompiledProfile, terms: list[Term] | tuple[Any, ...],
                 checks: tuple[Any, ...] | None = None) -> None:
        self.cp = cp
        #: The goal's terms (None when built from checks): choices by intent read them.
        self.goal_terms: list[Term] | None = list(terms) if checks is None else None
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
        self.col_lists = [list(idx) for idx in cols]
        #: Any sum of a hand's counts fits in one byte (+-1 copy variants included).
        self.narrow = sum(cp.K) < 120
        self.searchers = sorted(s for s, b in cp.behaviours.items() if b.kind == "search")
        self.targets = {s: cp.class_members(cp.targets[s]) for s in self.searchers}
        self.worlds = sorted(s for s, b in cp.behaviours.items() if b.kind == "small world")
        #: With GY / banished conditions hands are rows of (hand, GY, banished) counts.
        self.C = len(cp.classes)
        self.zones = cp.zones

    def ok(self, H: Array, HT: Array = None) -> Array:
        """Whether each hand (row of H) meets one of the terms. The sums are taken over the
        transposed counts (one contiguous row per class): only the classes each check
        names are added."""
        if HT is None:
            HT = np.ascontiguousarray(H.T)
        if self.narrow and HT.dtype == np.int8:  # sums of counts from a small Deck fit
            S = [_add_rows(HT, idx) for idx in self.col_lists]
        else:
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

    def succeeds(self, H: Array, R: Array | Callable[[Array], Array],
                 used: frozenset[int] = frozenset(), HT: Array = None) -> Array:
        """Rows whose hand meets the goal, each unused searcher adding its best target
        (`HT`: H transposed, if at hand). `R`: the Deck's counts of each hand, or a function
        giving them for the hands at some indices (all: None), for the few a search needs."""
        ok = self.ok(H, HT)
        for s in self.searchers:
            if s in used:
                continue
            # every (hand, target) pair in one evaluation: a hand succeeds if any target
            # it can add makes it succeed
            pairs = self._search_pairs(H, R, ok, s, HT)
            if pairs is not None:
                rows, H2, R2 = pairs
                ok[rows[self.succeeds(H2, R2, used | {s})]] = True
        for s in self.worlds:  # Small World: reveal a, banish a bridge b, add t
            if s in used:
                continue
            if callable(R):
                R = R(None)
            for a, t, bridges in self.cp.small_world:
                found = self._world_moves(H, R, ok, s, a, t, bridges)
                if found is not None:
                    rows, H2, R2 = found
                    ok[rows] |= self.succeeds(H2, R2, used | {s})
        return ok

    def searched(self, H: Array, R: Array | Callable[[Array], Array],
                 HT: Array = None) -> tuple[Array, Array, Array]:
        """`succeeds` and `final` at once: whether each hand meets the goal (searches
        included), the hands a search made succeed (indices, ascending) and their hands
        after it (a hand that meets the goal is its own final hand, and so is one no search
        makes succeed)."""
        ok = self.ok(H, HT)
        none = np.zeros(0, dtype=np.intp)
        if not self.searchers and not self.worlds:
            return ok, none, H[:0]
        held = np.zeros(len(H), dtype=bool)
        for s in (*self.searchers, *self.worlds):
            held |= (HT[s] if HT is not None else H[:, s]) > 0
        at = np.nonzero(held & ~ok)[0]
        if not len(at):
            return ok, none, H[:0]
        F = self._final(take_rows(H, at), R(at) if callable(R) else take_rows(R, at),
                        frozenset())
        good = self.ok(F)
        ok[at[good]] = True
        return ok, at[good], take_rows(F, good)

    def final(self, H: Array, R: Array | Callable[[Array], Array],
              used: frozenset[int] = frozenset(), HT: Array = None) -> Array:
        """The hands once the searches that make them succeed are made, the first way
        `succeeds` finds (as `exact.Evaluator.final`: searchers in class order, each
        target in order, then Small World); a hand that succeeds without one, or that no
        search makes succeed, stays as it is. A new array (H is not changed)."""
        if all(s in used for s in (*self.searchers, *self.worlds)):
            return H.copy()  # (no search left to make: no hand changes)
        # only hands holding a searcher can search: the others stay as they are
        held = np.zeros(len(H), dtype=bool)
        for s in (*self.searchers, *self.worlds):
            held |= H[:, s] > 0
        if held.all():
            return self._final(H, R, used, HT)
        out = H.copy()
        at = np.nonzero(held)[0]
        if len(at):
            put_rows(out, at, self._final(take_rows(H, at),
                                          R(at) if callable(R) else take_rows(R, at), used))
        return out

    def _final(self, H: Array, R: Array | Callable[[Array], Array], used: frozenset[int],
               HT: Array = None) -> Array:
        out = H.copy()
        ok = self.ok(H, HT)
        for s in self.searchers:
            if s in used:
                continue
            pairs = self._search_pairs(H, R, ok, s)
            if pairs is None:
                continue
            rows, H2, R2 = pairs
            good = self.succeeds(H2, R2, used | {s})
            # per hand the first target (pairs are in target order) that makes it succeed
            pick = _first_per_hand(rows, good, len(H))
            hands = rows[pick]
            put_rows(out, hands, self.final(take_rows(H2, pick), take_rows(R2, pick),
                                            used | {s}))
            ok[hands] = True
        for s in self.worlds:
            if s in used:
                continue
            if callable(R):
                R = R(None)
            for a, t, bridges in self.cp.small_world:
                found = self._world_moves(H, R, ok, s, a, t, bridges)
                if found is None:
                    continue
                rows, H2, R2 = found
                good = self.succeeds(H2, R2, used | {s})
                if good.any():
                    out[rows[good]] = self.final(H2[good], R2[good], used | {s})
                    ok[rows[good]] = True
        return out

    def _search_pairs(self, H: Array, R: Array | Callable[[Array], Array], ok: Array, s: int,
                      HT: Array = None) -> tuple[Array, Array, Array] | None:
        """Every (hand, target) pair of searcher `s` for the hands not `ok` that hold it and
        whose Deck holds the target, in target order: (each pair's hand row, the hand with
        the target added, the Deck with it taken); None when there is no pair."""
        held = HT[s] if HT is not None else H[:, s]
        can = np.nonzero(~ok & (held > 0))[0]
        if not len(can):
            return None
        # (the Decks of the hands that could search: a few of them)
        Rc = R(can) if callable(R) else take_rows(R, can)
        found = [(np.nonzero(Rc[:, t] > 0)[0], t) for t in self.targets[s]]
        at_can = np.concatenate([r for r, _ in found]) if found else np.zeros(0, np.intp)
        if not len(at_can):
            return None
        rows = can[at_can]
        ts = np.repeat([t for _, t in found], [len(r) for r, _ in found])
        H2 = take_rows(H, rows)  # (new arrays: one flat index per pair)
        at = np.arange(len(rows)) * H2.shape[1] + ts
        H2.reshape(-1)[at] += 1
        if self.cp.behaviours[s].is_spent:
            H2[:, s] -= 1
            if self.zones:
                H2[:, self.C + s] += 1  # to the GY
        R2 = take_rows(Rc, at_can)
        if R2.shape[1] != H2.shape[1]:
            at = np.arange(len(rows)) * R2.shape[1] + ts
        R2.reshape(-1)[at] -= 1
        return rows, H2, R2

    def _world_moves(self, H: Array, R: Array, ok: Array, s: int, a: int, t: int,
                     bridges: tuple[int, ...]) -> tuple[Array, Array, Array] | None:
        """Small World `s` revealing `a` to add `t` for the hands not `ok` that can (the
        first bridge their Deck still holds): (their rows, the hands after it, the Decks
        after it); None when no hand can."""
        cand = ~ok & (H[:, s] > 0) & (H[:, a] > (1 if a == s else 0)) & (R[:, t] > 0)
        if not cand.any():
            return None
        rows = np.nonzero(cand)[0]
        bridge = np.full(len(rows), -1, dtype=np.intp)
        for b in reversed(bridges):  # the first bridge the Deck still holds
            bridge[R[rows, b] > (1 if b == t else 0)] = b
        rows, bridge = rows[bridge >= 0], bridge[bridge >= 0]
        if not len(rows):
            return None
        H2 = take_rows(H, rows)
        H2[:, s] -= 1
        H2[:, a] -= 1
        H2[:, t] += 1
        if self.zones:  # Small World to the GY; the revealed card and the bridge are banished
            C = self.C
            H2[:, C + s] += 1
            H2[:, 2 * C + a] += 1
            H2[np.arange(len(rows)), 2 * C + bridge] += 1
        R2 = take_rows(R, rows)
        R2[:, t] -= 1
        R2[np.arange(len(rows)), bridge] -= 1
        return rows, H2, R2


def _first_per_hand(rows: Array, good: Array, m: int) -> Array:
    """The pairs (indices into `rows`, each pair's hand) that are the first `good` pair of
    their hand: pairs come in blocks (one per target, in order), a hand at most once in
    each block, its rows ascending; so a pair is its hand's first good one when no good
    pair of an earlier block holds that hand. Ascending, as `np.unique` gives them."""
    at = np.nonzero(good)[0]
    if not len(at):
        return at
    hands = rows[at]
    # the blocks: where the hand rows stop ascending
    starts = np.nonzero(hands[1:] <= hands[:-1])[0] + 1
    if not len(starts):  # one block: every good pair is its hand's first
        return at
    taken = np.zeros(m, dtype=bool)
    keep = np.ones(len(at), dtype=bool)
    for lo, hi in zip([0, *starts.tolist()], [*starts.tolist(), len(at)], strict=True):
        h = hands[lo:hi]
        keep[lo:hi] = ~taken[h]
        taken[h] = True
    return at[keep]


def _add_rows(HT: Array, idx: list[int]) -> Array:
    """The sum of the rows `idx` of HT (one row per class)."""
    if len(idx) == 1:
        return HT[idx[0]]
    out = HT[idx[0]] + HT[idx[1]]
    for i in idx[2:]:
        out += HT[i]
    return out


def _col(cols: list[tuple[int, ...]], idx: tuple[int, ...]) -> int:
    if idx not in cols:
        cols.append(idx)
    return cols.index(idx)

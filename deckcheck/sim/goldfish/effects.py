"""Card effects in the Monte Carlo turn loop (NumPy): the Main Phase plays draw cards by the
`play` policy (which card each hand plays, under each card's restrictions), and each card
resolves: draws, banishes from the top, excavations, redraws, costs (discard or banish the
card the goal needs least). Each works on a `batch.Batch` of hands, in place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from deckcheck.sim.goldfish import play
from deckcheck.sim.goldfish.deal import _add_at, _excavate_random
from deckcheck.sim.goldfish.npeval import Array, put_rows, take_rows

if TYPE_CHECKING:
    from deckcheck.sim.goldfish.batch import Batch


def main_phase(batch: Batch, active: Array, ok: Array) -> None:
    """Play draw cards (the `play` policy) in every hand that does not yet succeed."""
    cp, size = batch.cp, batch.size
    nd = len(batch.order)
    batch.used_now = None
    if not nd:
        return
    used = np.zeros((size, nd), dtype=bool)
    batch.used_now = used  # (the draw cards each hand played this turn)
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
            H, left, ex = batch.H, batch.row_sums(batch.deck()), batch.extra
            was_played, did_draw, is_locked = played, drew, locked
        else:
            H = take_rows(batch.H, idx)
            left = batch.row_sums(batch.deck(idx))
            ex = batch.extra[idx]
            was_played, did_draw, is_locked = played[idx], drew[idx], locked[idx]
        for j, d in enumerate(batch.order):
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
                need = batch.row_sums(H) - 1
            mask &= left >= np.maximum(need, 1)
            if d in cp.costs:
                members = cp.class_members(cp.costs[d])
                have = batch.row_sums(H[:, members]) - (1 if d in members else 0)
                mask &= have > 0
            chosen[mask] = j
        active[idx[chosen < 0]] = False
        if not (chosen >= 0).any():
            return
        for j, d in enumerate(batch.order):
            rows = idx[chosen == j]
            if not len(rows):
                continue
            b = cp.behaviours[d]
            paid = np.where(batch.extra[rows] >= 6, 6, 3) if b.extra_deck_cost else 0
            used[rows, j] = True
            played[rows] = True
            if b.draws:
                drew[rows] = True
            if b.no_draw_after:
                locked[rows] = True
            resolve(batch, d, rows, paid)
            if b.extra_deck_cost:
                batch.extra[rows] -= paid
        # every hand that played: does it succeed now (one evaluation for them all)
        rows = idx[chosen >= 0]
        ok[rows] = batch.succeeds(rows)

def resolve(batch: Batch, d: int, rows: Array, paid: Array | int) -> None:
    cp, H = batch.cp, batch.H
    b = cp.behaviours[d]
    if b.is_spent:
        H[rows, d] -= 1
        batch.to_zone(batch.G, rows, d)
    if d in cp.costs:
        remove_one(batch, rows, play.least_needed(cp.class_members(cp.costs[d]), batch.needs))
    half = np.asarray(paid) == 3
    if b.redraw_hand:
        n = batch.row_sums(take_rows(H, rows))
        if batch.G is not None:
            batch.G[rows] += H[rows]
        H[rows] = 0
        for i in range(int(n.max(initial=0))):
            sub = rows[n > i]
            cls = batch.draw(sub)
            H[sub, cls] += 1  # (-1: the Deck was empty)
        return
    if b.draw:
        # banish the top cards face-down (cost), then draw: both random cards of the Deck
        for _ in range(b.banish_top):
            cls = batch.draw(rows)
            batch.to_zone(batch.X, rows[cls >= 0], cls[cls >= 0])
        n = np.where(half, b.draw // 2, b.draw) if b.extra_deck_cost else \
            np.full(len(rows), b.draw)
        if batch.O is None and (batch.row_sums(take_rows(batch.R, rows)) >= n).all():
            # every card from the Deck in reach, as `draw` one after another
            put_rows(H, rows, take_rows(H, rows)
                     + _excavate_random(batch.rng, batch.R, rows, n, b.draw))
        else:
            for i in range(b.draw):
                sub = rows[n > i]
                cls = batch.draw(sub)
                H[sub, cls] += 1  # (-1: the Deck was empty)
        if b.then_banish is not None:
            done = remove_one(batch, rows, play.least_needed(
                cp.class_members(cp.targets[d]), batch.needs), banish=True)
            if batch.G is not None:
                batch.G[rows[~done]] += H[rows[~done]]
            H[rows[~done]] = 0  # no card to banish: the whole hand is discarded
        return
    excavate(batch, d, rows, half)

def excavate(batch: Batch, d: int, rows: Array, half: Array) -> None:
    """Excavate, add the best card; the rest go to the bottom or back into the Deck."""
    cp, H = batch.cp, batch.H
    b = cp.behaviours[d]
    n = np.where(half, b.excavate // 2, b.excavate) if b.extra_deck_cost else \
        np.full(len(rows), b.excavate)
    if batch.O is None:  # random cards of the Deck, as `_draw` one at a time
        ET = _excavate_random(batch.rng, batch.R, rows, n, b.excavate, transposed=True)
        E = np.ascontiguousarray(ET.T)
    else:
        E = np.zeros((len(rows), len(cp.classes)), dtype=np.int8)
        for i in range(b.excavate):
            live = np.nonzero((n > i) & (batch.row_sums(take_rows(batch.R, rows)) > 0))[0]
            cls = batch.draw_top(rows[live])
            _add_at(E, live, cls, 1)
        ET = np.ascontiguousarray(E.T)
    pref = np.array(play.preference(cp, batch.ev.goal_terms), dtype=np.intp)
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
            Rt = batch.deck(at[idx]) + take_rows(E, hand[idx])
            _add_at(Rt, np.arange(len(idx)), t[idx], -1)
            return Rt

        good = batch.ev.succeeds(batch.full(Ht, at), decks)
        hands, first = np.unique(hand[good], return_index=True)
        chosen[hands] = t[good][first]
    # nothing makes it succeed: take the most useful-looking card
    none = np.nonzero((chosen < 0) & seen.any(axis=0))[0]
    chosen[none] = pref[seen[:, none].argmax(axis=0)]
    got = chosen >= 0
    _add_at(E, np.nonzero(got)[0], chosen[got], -1)
    _add_at(H, rows[got], chosen[got], 1)
    if b.excavate_rest == "shuffle":
        put_rows(batch.R, rows, take_rows(batch.R, rows) + E)
        batch.reshuffle(rows)
    else:
        put_rows(batch.B, rows, take_rows(batch.B, rows) + E)
        batch.bottom = True

def remove_one(batch: Batch, rows: Array, members: list[int], banish: bool = False) -> Array:
    """Discard (or banish) 1 card of `members` from each hand in `rows`
    (`play.remove_choice`: one whose loss keeps the goal within reach, else the first);
    returns which rows had one."""
    H = batch.H
    zone = batch.X if banish else batch.G
    at = len(batch.cp.classes) * (2 if banish else 1)
    done = np.zeros(len(rows), dtype=bool)
    for good_only in (True, False):
        for c in members:
            cand = np.nonzero(~done & (H[rows, c] > 0))[0]
            if not len(cand):
                continue
            if good_only:
                Hc = take_rows(H, rows[cand])
                Hc[:, c] -= 1
                full = batch.full(Hc, rows[cand])
                if zone is not None:
                    full[:, at + c] += 1
                keep = batch.ev.succeeds(full, batch.decks_of(rows[cand]))
                cand = cand[keep]
            H[rows[cand], c] -= 1
            batch.to_zone(zone, rows[cand], c)
            done[cand] = True
    return done

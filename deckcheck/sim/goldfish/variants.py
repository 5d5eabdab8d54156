"""The +-1 copy variants of the Monte Carlo turn loop (NumPy): paired runs (common random
numbers) of a deck and its variants, each hand's whole Deck order dealt up front from the same
slot priorities (`Variants`), and the shortcut that replays of each variant only the hands the
change can reach (`_play_variants_from_base`).
"""

from __future__ import annotations

import numpy as np

from deckcheck.sim.goldfish import play
from deckcheck.sim.goldfish.batch import Batch
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.conditions import Term
from deckcheck.sim.goldfish.deal import (
    _count_rows,
    _most_common,
    _variant_orders,
    deck_slots,
    slot_orders,
)
from deckcheck.sim.goldfish.npeval import Array, NpEvaluator, take_rows

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
        variants = Variants(slot_orders(rng, S, size), layouts)
        dealt = rng.bit_generator.state
        won_all, lost_all, first = _play_variants_from_base(
            cp, ev, rng, variants, Kmat, size, going_second, turns, order)
        if won_all is None or first is None:  # every variant played in full
            rng.bit_generator.state = dealt
            batch = Batch(cp, ev, rng, Kmat, size * V, going_second,
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
    fails = _most_common(fail_counts, failing)
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
                             variants: Variants, Kmat: Array, size: int, going_second: bool,
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
    base = Batch(cp, ev, rng, Kmat[:1], size, going_second,
                  orders=(variants.orders(0), np.repeat(Kmat[:1], size, axis=0)),
                  largest=int(Kmat[0].sum(dtype=np.int64)))
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
        rest = Batch(cp, ev, rng, Krows, len(idx), going_second, orders=(orders, Krows),
                      largest=int(Kmat.sum(axis=1, dtype=np.int64).max()))
        rest.run(turns, order)
        if rest.rng_used:
            return None, None, None
        won[idx] = rest.won_by_turn
        lost[idx] = rest.lost
    return won, lost, first


class Variants:
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
            return _without_place(base, at)
        return _variant_orders(self.slots if rows is None else take_rows(self.slots, rows),
                               self.layouts[v])

    def all_orders(self) -> Array:
        """Every variant's orders, stacked."""
        return np.concatenate([self.orders(v) for v in range(len(self.layouts))])


def _without_place(orders: Array, at: Array) -> Array:
    """Each order (row) without the card at its place `at`, the later cards moved up one
    and an empty slot (-1) last."""
    S = orders.shape[1]
    out = np.empty_like(orders)
    head = out[:, :S - 1]
    np.copyto(head, orders[:, :S - 1])
    np.copyto(head, orders[:, 1:], where=np.arange(S - 1, dtype=at.dtype)[None, :] >= at[:, None])
    out[:, S - 1] = -1
    return out

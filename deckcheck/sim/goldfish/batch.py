"""The state of a batch of duels in the Monte Carlo turn loop (NumPy), and its turn: per hand
the hand (H), the Deck in reach (R), the bottom (B: excavated cards, drawn only when R is empty,
found by searches), the tracked GY and banished zones, and in ordered mode each Deck's order;
`Batch.run` plays the turns (Draw Phase, the draw cards of `effects`, End Phase).

The fields a batch holds are listed once (`SHARED`, `PER_HAND`, `FRESH`): a sub-batch of some
hands (`Batch.sub_batch`) and its write-back follow from the lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from deckcheck.sim.goldfish import play
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.deal import (
    _add_at,
    _count_classes,
    _draw,
    _draw_every,
    _row_sums,
    _row_sums_wide,
    _sample_opening,
    deal_orders,
)
from deckcheck.sim.goldfish.effects import main_phase
from deckcheck.sim.goldfish.npeval import Array, NpEvaluator, put_rows, take_rows

#: The fields a sub-batch (`Batch.sub_batch`) shares with its batch (the same objects).
SHARED = ("cp", "ev", "rng", "going_second", "order", "needs", "row_sums", "bottom")
#: The per-hand arrays (one row or item per hand; None when not tracked) a sub-batch takes
#: the rows of, and that are written back afterwards (`Batch.write_back`).
PER_HAND = ("H", "R", "B", "extra", "O", "G", "X", "ptr")
#: The results of a batch's own play, which a sub-batch starts afresh (None, `rng_used`
#: False): with `SHARED`, `PER_HAND` and `size`, every field of a batch.
FRESH = ("won_by_turn", "after_draws", "HT1", "lost", "played", "measured", "used_now",
         "changed", "rng_used")


class Batch:
    """A batch of duels played turn by turn with the rules of `deckcheck.sim.turnrules` (hand
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
        #: After `run`: the hands that played each draw card class of `order`, and per goal
        #: measured the hands that met it by turn.
        self.played: Array = None
        self.measured: list[list[int]] = []
        #: The draw cards each hand played this turn (`effects.main_phase`).
        self.used_now: Array = None
        #: The hands whose draw cards this turn's play tried (their hands may have changed).
        self.changed: Array = None

    def sub_batch(self, rows: Array) -> Batch:
        """A compact batch of the hands `rows` (shared fields shared, per-hand arrays' rows
        taken, its own results fresh), played on and written back (`write_back`)."""
        sub = Batch.__new__(Batch)
        for name in SHARED:
            setattr(sub, name, getattr(self, name))
        for name in PER_HAND:
            value = getattr(self, name)
            setattr(sub, name, None if value is None else take_rows(value, rows))
        if not self.bottom:  # (the bottom is made when a card goes there)
            sub.B = np.zeros_like(sub.R)
        for name in FRESH:
            setattr(sub, name, None)
        sub.size, sub.rng_used = len(rows), False
        return sub

    def write_back(self, rows: Array, sub: Batch) -> None:
        """Write the per-hand arrays of `sub` (a `sub_batch` of the hands `rows`) back."""
        if sub.bottom and self.B is None:
            self.B = np.zeros_like(self.R)
        for name in PER_HAND:
            mine = getattr(self, name)
            if mine is not None and (name != "B" or sub.bottom):
                put_rows(mine, rows, getattr(sub, name))
        self.bottom |= sub.bottom
        self.rng_used |= sub.rng_used

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
        self.measured = [[] for _ in measure or []]
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
            searched: tuple[Array, Array] | None = None
            if active.all() and measure and HT is not None:  # (the searches kept for them)
                ok, *found = self.ev.searched(self.H, self.deck(), HT)
                searched = (found[0], found[1])
            elif active.all():
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
                self.measure(measure, None if searched is None else (HT, *searched))
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
            if len(rows) == self.size and self.O is None and _draw_every(self.rng, self.R,
                                                                         self.H):
                continue  # (every hand drew from its Deck in reach: `draw`, done at once)
            cls = self.draw(rows)
            lost[rows[cls < 0]] = True  # had to draw from an empty Deck
            got = cls >= 0
            _add_at(self.H, rows[got], cls[got], 1)

    def measure(self, goals: list[NpEvaluator],
                before: tuple[Array, Array, Array] | None = None) -> None:
        """Count the hands that meet each goal now (`measured`), each on the hand its game
        left: the searches this batch's goal makes included. `before`: this turn's hands
        before its play, transposed, and the hands the searches then made succeed with
        their final hands (`NpEvaluator.searched`); only the hands play changed
        (`changed`) are then made final again, the others read off what was found."""
        if before is None:
            H = self.ev.final(self.full(self.H), self.deck())
            HT = np.ascontiguousarray(H.T)
            for j, ev in enumerate(goals):
                self.measured[j].append(int(ev.ok(H, HT).sum()))
            return
        HT, rows, F = before  # (HT: the hands before play; F: final hands of `rows`)
        if self.changed is not None and len(self.changed):
            ch = self.changed
            mark = np.zeros(self.size, dtype=bool)
            mark[ch] = True
            keep = ~mark[rows]
            F = np.concatenate([take_rows(F, keep),
                                self.ev.final(take_rows(self.H, ch), self.deck(ch))])
            rows = np.concatenate([rows[keep], ch])
        for j, ev in enumerate(goals):
            ok = ev.ok(self.H, HT)  # (right but at `rows`, whose hands are F)
            self.measured[j].append(int(np.count_nonzero(ok)) - int(np.count_nonzero(ok[rows]))
                                    + int(np.count_nonzero(ev.ok(F))))

    def play_draw_cards(self, rows: Array, ok: Array) -> None:
        """Play draw cards in the hands `rows` (which do not yet succeed): on a compact copy
        of just those hands, written back afterwards."""
        self.changed = None
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
        self.changed = rows
        sub = self.sub_batch(rows)
        sub_ok = np.zeros(len(rows), dtype=bool)
        main_phase(sub, np.ones(len(rows), dtype=bool), sub_ok)
        if self.played is not None and sub.used_now is not None:
            self.played[rows] |= sub.used_now
        self.write_back(rows, sub)
        ok[rows] = sub_ok

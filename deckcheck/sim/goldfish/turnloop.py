"""The Monte Carlo turn loop (NumPy): a batch of duels played turn by turn with the rules of
`deckcheck.sim.turnrules` (hand size, draws, the End Phase hand limit, deck-out) and the
draw-card policy of `play`, compiled to array operations. Per hand: the hand (H), the Deck in
reach (R), the bottom (B: excavated cards, drawn only when R is empty, found by searches).

Plain runs draw each card as a uniformly random card of what is left (what drawing the top
card of a shuffled Deck is); paired runs deal each hand's whole Deck order up front
(`deal_orders`), so variants of the deck meet the same cards in the same order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from deckcheck.sim.goldfish import play
from deckcheck.sim.goldfish.batch import Batch
from deckcheck.sim.goldfish.compiled import HIDDEN, CompiledProfile
from deckcheck.sim.goldfish.conditions import Term
from deckcheck.sim.goldfish.deal import _count_rows, _most_common
from deckcheck.sim.goldfish.npeval import Array, NpEvaluator
from deckcheck.sim.goldfish.variants import play_paired

CHUNK = 1 << 18  # hands per batch


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
            batch = Batch(cp, ev, rng, K, size, going_second,
                           opening=None if dealt is None else dealt[:2])
            if dealt is not None:
                batch.HT1 = dealt[3]
            chunk += 1
            first, hits, outs = batch.run(turns, order,
                                          drawn=None if dealt is None else dealt[2],
                                          measure=measure)
            if gi == 0 and keep and batch.after_draws is not None:
                openings.append(batch.after_draws)  # turn 1's hands, draws included
            _add_hits(by_turn, name, hits, names[1:] if measure else [], batch)
            if gi == 0:
                deck_outs += outs
                _tally_first_game(batch, first, failing, played, fail_counts)
            done += size
    fails = _most_common(fail_counts, failing)
    return by_turn, fails, deck_outs, None, played


def _add_hits(by_turn: dict[str, list[int]], name: str, hits: Any, measured: list[str],
              batch: Batch) -> None:
    """Add a chunk's hands meeting goal `name` by each turn, and those of the goals
    `measured` on its games."""
    for t, n in enumerate(hits):
        by_turn[name][t] += int(n)
    for j, other in enumerate(measured):
        for t, n in enumerate(batch.measured[j]):
            by_turn[other][t] += n


def _tally_first_game(batch: Batch, first: Any, failing: int, played: Played,
                      fail_counts: dict[tuple[int, ...], int]) -> None:
    """Add a chunk's draw cards played and (with `failing`) its failing turn-1 hands."""
    for j, d in enumerate(batch.order):  # (a column at a time: `axis=0` is slow on bools)
        played[d] = played.get(d, 0) + int(np.count_nonzero(batch.played[:, j]))
    if failing:
        X, ok1 = first
        HT = None if batch.after_draws is None else batch.after_draws[3]
        if HT is not None:  # (the turn-1 hands, transposed: every column kept)
            _count_rows(None, fail_counts, np.compress(~ok1, HT, axis=1))
        else:
            _count_rows(X[~ok1], fail_counts)

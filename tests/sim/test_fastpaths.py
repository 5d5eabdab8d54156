"""The Monte Carlo engine's fast paths give what the general code gives: the same random
numbers, the same cards, the same choices (seeded reports stay byte-identical)."""

from __future__ import annotations

import numpy as np
import pytest

from deckcheck.sim.goldfish.deal import _draw, _draw_every
from deckcheck.sim.goldfish.npeval import _first_per_hand


def _hands(seed: int, m: int, C: int = 9) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    K = rng.integers(1, 6, C)
    H = np.stack([rng.multivariate_hypergeometric(K, 6) for _ in range(m)]).astype(np.int8)
    return H, (K[None, :] - H).astype(np.int8)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_draw_every_draws_the_cards_draw_does(seed: int) -> None:
    H, R = _hands(seed, 500)
    H2, R2 = H.copy(), R.copy()
    a, b = np.random.default_rng(seed), np.random.default_rng(seed)
    assert _draw_every(a, R, H)
    cls = _draw(b, R2, np.arange(len(R2)))
    H2[np.arange(len(H2)), cls] += 1
    assert (H == H2).all() and (R == R2).all()
    assert a.bit_generator.state == b.bit_generator.state  # the same random numbers taken


def test_draw_every_draws_nothing_when_a_deck_is_empty() -> None:
    H, R = _hands(4, 50)
    R[7] = 0
    H0, R0, rng = H.copy(), R.copy(), np.random.default_rng(4)
    state = rng.bit_generator.state
    assert not _draw_every(rng, R, H)
    assert (H == H0).all() and (R == R0).all() and rng.bit_generator.state == state


@pytest.mark.parametrize("seed", range(6))
def test_first_per_hand_is_each_hands_first_good_pair(seed: int) -> None:
    # pairs as a search makes them: one block per target, each block's hands ascending
    rng = np.random.default_rng(seed)
    m = 200
    blocks = [np.sort(rng.choice(m, rng.integers(0, m), replace=False))
              for _ in range(rng.integers(1, 5))]
    rows = np.concatenate(blocks).astype(np.intp)
    good = rng.random(len(rows)) < 0.6
    idx = np.nonzero(good)[0]
    _, first = np.unique(rows[idx], return_index=True)  # the general way: a sort
    assert sorted(_first_per_hand(rows, good, m).tolist()) == sorted(idx[first].tolist())


def _reference_opening(rng: np.random.Generator, K: np.ndarray, n: int,
                       size: int) -> np.ndarray:
    """The opening sampler's contract, plainly: per round, `n` 16-bit words per hand still
    to deal (four words of each 64-bit raw number, the first `n` used); a word at or above
    the largest multiple of N, or a repeated Deck position, deals that hand again."""
    cls_of = np.repeat(np.arange(len(K)), K)
    N = len(cls_of)
    limit = (65536 // N) * N
    words = -(-n // 4)
    out = np.zeros((size, len(K)), dtype=np.int8)
    todo = np.arange(size)
    while len(todo):
        V = rng.bit_generator.random_raw(words * len(todo)).view(np.uint16)
        V = V.reshape(4 * words, len(todo))[:n].T
        redo = []
        for hand, w in zip(todo.tolist(), V.tolist(), strict=True):
            pos = [x % N for x in w]
            if max(w) >= limit or len(set(pos)) < n:
                redo.append(hand)
                continue
            for p in pos:
                out[hand, cls_of[p]] += 1
        todo = np.array(redo, dtype=np.intp)
    return out


@pytest.mark.parametrize(("n", "seed", "classes"), [(5, 1, 11), (6, 2, 11), (4, 3, 11),
                                                   (5, 4, 16), (6, 5, 23), (1, 6, 3)])
def test_opening_sampler_deals_what_its_contract_says(n: int, seed: int, classes: int) -> None:
    """The same hands as the reference, from the same random numbers, for decks of fewer,
    as many and more classes than its tables' 16-byte rows hold; rows of exactly one
    count per class (int8, contiguous), the tables shared by both calls untouched."""
    from deckcheck.sim.goldfish.deal import _sample_opening

    K = np.array([1, 2, 2, 1, 3, 2, 3, 6, 6, 3, 11])
    if classes != len(K):
        K = np.random.default_rng(classes).integers(1, 4, classes)
    for _ in range(2):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        H = _sample_opening(a, K, n, 3000)
        assert (H == _reference_opening(b, K, n, 3000)).all()
        assert a.bit_generator.state == b.bit_generator.state
        assert H.shape == (3000, len(K)) and H.dtype == np.int8 and H.flags.c_contiguous


@pytest.mark.parametrize("empties", [0, 1, 3])
def test_one_layout_deals_as_the_same_layout_per_row(empties: int) -> None:
    from deckcheck.sim.goldfish.deal import _deal_slice

    layout = np.repeat(np.arange(5), [3, 2, 4, 1, 5]).astype(np.int8)
    layout[np.random.default_rng(empties).choice(len(layout), empties, replace=False)] = -1
    rows = np.tile(layout, (300, 1))  # the general path: a layout per row
    for slots in (False, True):
        a, b = np.random.default_rng(9), np.random.default_rng(9)
        assert (_deal_slice(a, layout, 300, slots) == _deal_slice(b, rows, 300, slots)).all()


def test_searched_is_succeeds_and_final_at_once() -> None:
    from simkit import expand, fillers, make_pool, monster

    from deckcheck.sim.goldfish.compiled import compile_profile
    from deckcheck.sim.goldfish.npeval import NpEvaluator
    from deckcheck.sim.goldfish.profile import parse_profile

    x, y, s = monster(1, "Card X"), monster(2, "Card Y"), monster(3, "Searcher")
    data = {"roles": {"target": ["Card X", "Card Y"]},
            "conditions": {"c": {"all": ["Card X", "Card Y", "Searcher <= 1"]}},
            "cards": {"Searcher": {"search": "target"}}}
    cp = compile_profile(parse_profile(data), expand(
        [(x, 2), (y, 2), (s, 3), *[(c, 1) for c in fillers(33)]]), make_pool(x, y, s), "t")
    ev = NpEvaluator(cp, cp.goals(False)["success"])
    K = np.array(cp.K)
    rng = np.random.default_rng(8)
    H = np.stack([rng.multivariate_hypergeometric(K, 6) for _ in range(4000)]).astype(np.int8)
    R = (K[None, :] - H).astype(np.int8)
    ok, rows, F = ev.searched(H, R, np.ascontiguousarray(H.T))
    assert (ok == ev.succeeds(H, R)).all()
    final = ev.final(H, R)
    changed = np.nonzero((final != H).any(axis=1))[0]
    assert len(changed) and rows.tolist() == changed.tolist()
    assert (F == final[rows]).all()


@pytest.mark.parametrize("second", [False, True])
def test_measuring_from_the_turns_searches_counts_what_final_hands_give(second: bool) -> None:
    from simkit import expand, fillers, make_pool, monster, spell

    from deckcheck.sim.goldfish import play
    from deckcheck.sim.goldfish.batch import Batch
    from deckcheck.sim.goldfish.compiled import compile_profile
    from deckcheck.sim.goldfish.npeval import NpEvaluator
    from deckcheck.sim.goldfish.profile import parse_profile

    x, y, s, pot = (monster(1, "Card X"), monster(2, "Card Y"), monster(3, "Searcher"),
                    spell(4, "Pot"))
    data = {"roles": {"target": ["Card X", "Card Y"]},
            "conditions": {"c": {"all": ["Card X", "Card Y"]}, "d": "Searcher",
                           "e": {"any": ["Card Y", "Pot"]}},
            "cards": {"Searcher": {"search": "target"}, "Pot": {"draw": 2}}}
    cp = compile_profile(parse_profile(data), expand(
        [(x, 2), (y, 2), (s, 3), (pot, 3), *[(c, 1) for c in fillers(30)]]),
        make_pool(x, y, s, pot), "t")
    goals = cp.goals(second)
    names = list(goals)
    ev = NpEvaluator(cp, goals[names[0]])
    measure = [NpEvaluator(cp, goals[n]) for n in names[1:]]
    batch = Batch(cp, ev, np.random.default_rng(3), np.array(cp.K), 5000, second)
    batch.run(1, play.discard_order(cp, goals), measure=measure)
    assert batch.changed is not None and len(batch.changed)  # play changed some hands
    found = batch.measured
    batch.measured = [[] for _ in measure]
    batch.measure(measure)  # the general way: every hand made final, then measured
    assert found == batch.measured


def test_count_rows_and_most_common_are_a_counter_and_its_sorted_head() -> None:
    from collections import Counter

    from deckcheck.sim.goldfish.deal import _count_rows, _most_common

    rng = np.random.default_rng(2)
    parts = [rng.integers(0, 3, (400, 4)).astype(np.int8) for _ in range(3)]
    into: dict[tuple[int, ...], int] = {}
    for X in parts:  # the first into an empty dict, then sums
        _count_rows(X, into)
    want = Counter(tuple(r) for X in parts for r in X.tolist())
    assert into == dict(want)
    for n in (0, 1, 5, 200):  # many ties: broken by the row
        assert _most_common(into, n) == sorted(into.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_variant_orders_read_off_the_first_layout_are_dealt_orders(seed: int) -> None:
    """Each +-1 copy variant's Deck orders, read off the first layout's (`Variants.orders`,
    a -1 copy by taking its card out of each order), are the orders `_variant_orders` deals
    of its own layout from the same slot orders, for every hand and for some of them; and
    the slot orders are those `deal_orders` takes the same random numbers for."""
    from deckcheck.sim.goldfish.deal import (
        _variant_orders,
        deal_orders,
        deck_slots,
        slot_orders,
    )
    from deckcheck.sim.goldfish.variants import Variants

    class Deck:  # (what `deck_slots` reads of a compiled profile)
        K = (3, 1, 2, 4, 6)

    base = np.array(Deck.K)
    Ks = [base] + [base + d * np.eye(len(base), dtype=np.int64)[c]
                   for c in range(len(base)) for d in (1, -1)]
    layouts = [deck_slots(Deck(), K) for K in Ks]  # type: ignore[arg-type]
    S = len(layouts[0])
    slots = slot_orders(np.random.default_rng(seed), S, 500)
    assert slots.dtype == np.uint8
    assert (_variant_orders(slots, layouts[0])
            == deal_orders(np.random.default_rng(seed), layouts[0], 500)).all()
    variants = Variants(slots, layouts)
    assert [k[0] for k in variants.kind[1:] if k] == ["+", "-"] * len(base)
    rows = np.sort(np.random.default_rng(seed).choice(500, 123, replace=False))
    for v, lay in enumerate(layouts):
        assert (variants.orders(v) == _variant_orders(slots, lay)).all()
        assert (variants.orders(v, rows) == _variant_orders(slots[rows], lay)).all()


@pytest.mark.parametrize("C", [3, 11, 16, 20])
def test_class_counts_of_dealt_orders_count_each_card_once(C: int) -> None:
    """`_count_classes` (its tables' rows padded to 16 bytes, then cut) counts each card of
    each row once: rows of int8, one column per class, contiguous, for any number of cards."""
    from deckcheck.sim.goldfish.deal import _count_classes

    X = np.random.default_rng(C).integers(0, C, (700, 7)).astype(np.int8)
    for n in range(8):
        ref = np.zeros((700, C), dtype=np.int8)
        for i in range(n):
            np.add.at(ref, (np.arange(700), X[:, i]), 1)
        H = _count_classes(X[:, :n], C)
        assert (H == ref).all() and H.dtype == np.int8 and H.flags.c_contiguous

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

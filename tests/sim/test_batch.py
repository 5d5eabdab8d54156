"""The turn loop's batch state (`deckcheck.sim.goldfish.batch`): a sub-batch of some hands
carries every field of its batch, its per-hand arrays cut to those hands, and writes back."""

from __future__ import annotations

import numpy as np
from simkit import expand, fillers, make_pool, monster, spell

from deckcheck.sim.goldfish.batch import FRESH, PER_HAND, SHARED, Batch
from deckcheck.sim.goldfish.compiled import compile_profile
from deckcheck.sim.goldfish.npeval import NpEvaluator
from deckcheck.sim.goldfish.profile import parse_profile

X = monster(1, "Card X")
POT = spell(3, "Pot")
POOL = make_pool(X, POT)


def _batch(size: int = 64) -> Batch:
    # a GY condition (zones tracked) and ordered dealing: every per-hand array is in use
    cp = compile_profile(parse_profile({"conditions": {"c": {"any": ["Card X", "GY: Pot"]}},
                                        "cards": {"Pot": {"draw": 2}}}),
                         expand([(X, 3), (POT, 3), *[(c, 1) for c in fillers(34)]]), POOL, "t")
    K = np.array(cp.K, dtype=np.int8)
    rng = np.random.default_rng(1)
    orders = np.array([rng.permutation(np.repeat(np.arange(len(K)), K)) for _ in range(size)],
                      dtype=np.int8)
    return Batch(cp, NpEvaluator(cp, cp.goals(False)["success"]), rng, K, size, False,
                 orders=(orders, np.repeat(K[None, :], size, axis=0)))


def test_the_field_lists_name_every_field_of_a_batch() -> None:
    batch = _batch()
    assert set(vars(batch)) == {*SHARED, *PER_HAND, *FRESH, "size"}
    assert all(getattr(batch, name) is not None for name in PER_HAND if name != "B")


def test_a_sub_batch_copies_every_field() -> None:
    batch = _batch()
    rows = np.array([3, 5, 40])
    sub = batch.sub_batch(rows)
    assert set(vars(sub)) == set(vars(batch))
    assert sub.size == 3 and sub.rng_used is False
    for name in SHARED:
        assert getattr(sub, name) is getattr(batch, name), name
    for name in PER_HAND:
        if name != "B":
            assert np.array_equal(getattr(sub, name), getattr(batch, name)[rows]), name
    assert not sub.B.any() and sub.B.shape == sub.R.shape  # no bottom yet: zeros
    for name in FRESH:
        if name != "rng_used":
            assert getattr(sub, name) is None, name


def test_a_sub_batch_writes_its_hands_back() -> None:
    batch = _batch()
    rows = np.array([0, 7])
    sub = batch.sub_batch(rows)
    sub.H[:] = 1
    sub.G[:] = 2
    sub.ptr[:] = 9
    sub.B[:, 0] = 1
    sub.bottom = True
    batch.write_back(rows, sub)
    assert (batch.H[rows] == 1).all() and (batch.G[rows] == 2).all()
    assert (batch.ptr[rows] == 9).all() and batch.bottom
    assert batch.B is not None and batch.B[rows, 0].tolist() == [1, 1] and batch.B.sum() == 2

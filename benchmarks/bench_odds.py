"""Benchmark the goldfishing engines on a 40-card deck with a 5-role profile.

Measures, in one run:
- the exact engine: milliseconds per opening-hand question (goal: <= 1 ms);
- the Monte Carlo engine: opening hands per second on one core (goal: >= 3 million/s);
- a plain-Python sampler (random.sample per hand, the same evaluation) as the baseline,
  and the ratio of the two.

    python benchmarks/bench_odds.py [--hands N]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

from _timing import best_of  # noqa: E402

from deckcheck.cards.model import Card, Frame, Kind  # noqa: E402
from deckcheck.sim.goldfish import exact  # noqa: E402
from deckcheck.sim.goldfish.compiled import compile_profile  # noqa: E402
from deckcheck.sim.goldfish.exact import Evaluator, exact_odds  # noqa: E402
from deckcheck.sim.goldfish.profile import parse_profile  # noqa: E402


def _card(pc: int, name: str) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.MONSTER, frame=Frame.EFFECT, level=4,
                rule_name=name)


SPEC = {"Starter A": 3, "Starter B": 3, "Starter C": 2, "Extender A": 3, "Extender B": 2,
        "Ash": 3, "Veiler": 2, "Imperm": 3, "Brick": 2, "Garnet": 1}
PROFILE = {
    "roles": {"starter": ["Starter A", "Starter B", "Starter C"],
              "extender": ["Extender A", "Extender B", "Starter C"],
              "hand trap": ["Ash", "Veiler", "Imperm"],
              "brick": ["Brick"], "garnet": ["Garnet"]},
    "conditions": {"a starter": "starter >= 1",
                   "follow-up": {"any": ["extender >= 1", "starter >= 2"]},
                   "interaction": "hand trap >= 1",
                   "few bricks": "brick <= 1",
                   "no garnet": {"not": "garnet >= 1"}},
}


def build():  # type: ignore[no-untyped-def]
    cards: list[Card] = []
    pc = 1
    for name, n in SPEC.items():
        cards += [_card(pc, name)] * n
        pc += 1
    while len(cards) < 40:
        cards.append(_card(pc, f"Filler {pc}"))
        pc += 1
    return compile_profile(parse_profile(PROFILE), cards, None, "bench")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=3_000_000)
    ap.add_argument("--python-hands", type=int, default=100_000)
    args = ap.parse_args()
    t = time.perf_counter()
    sum(range(10**7))
    print(f"machine check: sum(range(10**7)) takes {time.perf_counter() - t:.2f} s "
          f"(about 0.15 s on an idle modern core)")
    cp = build()
    print(f"deck: 40 cards, {len(cp.classes)} classes, 5 roles, "
          f"{len(cp.success)} DNF term(s) for success")

    goals = {"success": cp.success}

    def cold() -> None:  # no cached hand vectors or compiled conditions
        exact.hand_vectors.cache_clear()
        exact._compile_checks.cache_clear()
        exact_odds(cp, 5, goals=goals)

    cold_s = best_of(cold, 30)
    exact_s = best_of(lambda: exact_odds(cp, 5, goals=goals), 50)
    res = exact_odds(cp, 5)
    p = float(res.probabilities["success"])
    print(f"exact, first question:       {cold_s * 1e3:8.3f} ms   goal <= 1 ms   "
          f"({res.vectors} hand vectors, p = {p:.6f})")
    print(f"exact, repeated question:    {exact_s * 1e3:8.3f} ms   (hand vectors and compiled "
          f"conditions cached, as in the +-1 copy table)")
    all_s = best_of(lambda: exact_odds(cp, 5), 20)
    print(f"exact, success + 5 named:    {all_s * 1e3:8.3f} ms")

    import numpy as np  # noqa: F401  (imported before timing the Monte Carlo engine)

    from deckcheck.sim.goldfish.montecarlo import simulate

    simulate(cp, 10_000, seed=0, goals=goals)  # warm-up
    t = time.perf_counter()
    mc = simulate(cp, args.hands, seed=1, goals=goals)
    mc_s = time.perf_counter() - t
    mc_rate = args.hands / mc_s
    lo, hi = mc.interval()
    print(f"Monte Carlo (NumPy):         {mc_rate / 1e6:8.2f} M hands/s   goal >= 3 M/s   "
          f"(p = {mc.rate():.6f}, 95% CI [{lo:.6f}, {hi:.6f}], exact inside: {lo <= p <= hi})")

    ev = Evaluator(cp, cp.success)
    deck = [i for i, c in enumerate(cp.classes) for _ in range(c.size)]
    m = len(cp.classes)
    rng = random.Random(1)

    def python_sampler() -> int:
        wins = 0
        for _ in range(args.python_hands):
            k = [0] * m
            for c in rng.sample(deck, 5):
                k[c] += 1
            wins += ev.ok(tuple(k))
        return wins

    t = time.perf_counter()
    wins = python_sampler()
    py_s = time.perf_counter() - t
    py_rate = args.python_hands / py_s
    print(f"plain Python (random.sample): {py_rate / 1e6:7.3f} M hands/s   "
          f"(p = {wins / args.python_hands:.4f})")
    print(f"ratio Monte Carlo / plain Python: {mc_rate / py_rate:.1f}x")


if __name__ == "__main__":
    main()

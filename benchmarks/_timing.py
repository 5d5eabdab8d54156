"""Shared by the benchmark scripts: the best (least disturbed) of several timed runs."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int,
            setup: Callable[[], object] | None = None) -> float:
    """Seconds of the fastest of `repeat` calls of `fn` (`setup` runs untimed before each)."""
    best = float("inf")
    for _ in range(repeat):
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best

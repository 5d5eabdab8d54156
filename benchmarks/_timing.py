"""Shared by the benchmark scripts: the best (least disturbed) of several timed runs, and
the median times of commands run in turns."""

from __future__ import annotations

import resource
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


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


def command_medians(cmds: dict[str, tuple[list[str], dict[str, str]]], repeat: int, cwd: Path
                    ) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall time and median CPU time (user + system of the child process) of each
    command, the commands taking turns (so a burst of load on the machine hits them alike),
    after one untimed warm-up run each."""
    wall: dict[str, list[float]] = {k: [] for k in cmds}
    cpu: dict[str, list[float]] = {k: [] for k in cmds}

    def used() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    for i in range(repeat + 1):
        for key, (cmd, env) in cmds.items():
            c, t = used(), time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False, cwd=cwd)
            if i:
                wall[key].append(time.perf_counter() - t)
                cpu[key].append(used() - c)
    return ({k: statistics.median(v) for k, v in wall.items()},
            {k: statistics.median(v) for k, v in cpu.items()})

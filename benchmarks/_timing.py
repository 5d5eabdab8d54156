"""Shared by the benchmark scripts: the best (least disturbed) of several timed runs, the
median times of commands run in turns (optionally refusing to time a command that fails:
`CommandFailed`), and how fast the machine runs at the moment (`machine_check`)."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

#: Seconds `sum(range(10**7))` takes on an idle modern core (this machine's, measured idle).
IDLE_MACHINE_CHECK = 0.15


def machine_check() -> float:
    """Seconds `sum(range(10**7))` takes now. This machine is shared: the same code runs up to
    ~1.7x slower in some minutes than in others, so goals stated in seconds are printed with
    this beside them (before and after), to tell a slow minute from slow code."""
    t = time.perf_counter()
    sum(range(10**7))
    return time.perf_counter() - t


def machine_line(before: float, after: float) -> str:
    """The machine's speed around a measurement, as the goal lines print it."""
    return (f"machine check: sum(range(10**7)) took {before:.2f} s before and {after:.2f} s "
            f"after (about {IDLE_MACHINE_CHECK:.2f} s on an idle core)")


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


class CommandFailed(RuntimeError):
    """A timed command ended with an exit code it should not have, or with a traceback: its
    time would be the time of a failure, so the benchmark stops and says why."""


def command_medians(cmds: dict[str, tuple[list[str], dict[str, str]]], repeat: int, cwd: Path,
                    *, exit_codes: Collection[int] | None = None
                    ) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall time and median CPU time (user + system of the child process) of each
    command, the commands taking turns (so a burst of load on the machine hits them alike),
    after one untimed warm-up run each. `exit_codes`: the codes every command may end with
    (a verdict of `deckcheck check` is 0 or 1); a run ending otherwise, or printing a Python
    traceback, raises `CommandFailed` with the end of its standard error. None: whatever
    the commands do is timed."""
    wall: dict[str, list[float]] = {k: [] for k in cmds}
    cpu: dict[str, list[float]] = {k: [] for k in cmds}
    errors = subprocess.DEVNULL if exit_codes is None else subprocess.PIPE

    def used() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    for i in range(repeat + 1):
        for key, (cmd, env) in cmds.items():
            c, t = used(), time.perf_counter()
            ran = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=errors,
                                 check=False, cwd=cwd)
            took, cpu_took = time.perf_counter() - t, used() - c
            if exit_codes is not None:
                _refuse_failure(key, cmd, ran, exit_codes)
            if i:
                wall[key].append(took)
                cpu[key].append(cpu_took)
    return ({k: statistics.median(v) for k, v in wall.items()},
            {k: statistics.median(v) for k, v in cpu.items()})


def _refuse_failure(key: str, cmd: list[str], ran: subprocess.CompletedProcess[bytes],
                    exit_codes: Collection[int]) -> None:
    err = ran.stderr.decode("utf-8", "replace") if ran.stderr else ""
    if ran.returncode in exit_codes and "Traceback (most recent call last)" not in err:
        return
    expected = " or ".join(map(str, sorted(exit_codes)))
    how = f"exited {ran.returncode}" + ("" if ran.returncode in exit_codes
                                        else f" (expected {expected})")
    tail = "\n".join(err.strip().splitlines()[-5:]) or "(nothing on standard error)"
    raise CommandFailed(f"{key}: `{' '.join(cmd)}` {how}, so it is not timed:\n{tail}")


def installed_env(env: Mapping[str, str] | None = None, *, drop: Collection[str] = (),
                  **extra: str) -> dict[str, str]:
    """The environment of a command timed as an installed deckcheck runs: `env` (default this
    process's) without ``PYTHONDONTWRITEBYTECODE`` (an installed package has its bytecode; a
    shell's setting would compile deckcheck's modules again in every fresh process) or the
    names in `drop`, with `extra` added."""
    gone = {"PYTHONDONTWRITEBYTECODE", *drop}
    out = {k: v for k, v in (os.environ if env is None else env).items() if k not in gone}
    out.update(extra)
    return out

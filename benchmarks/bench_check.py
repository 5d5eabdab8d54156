"""How fast `deckcheck check` is, as ratios against baselines measured in the same run.

1. Throughput over the real .ydk corpus (../shared/data/decks), one core: decks per second
   for reading alone and for reading + every rule (2026.05 TCG list, full YGOPRODeck card
   pool in an imported store), against the target of 5,000 decks in 10 s (500 decks/s).
2. Cold start: `deckcheck check` on one deck in a fresh process, against `python -c pass`.

    python benchmarks/bench_check.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import ROOT, need_data, store_path, ydk_files  # noqa: E402

TARGET = 5000 / 10  # decks per second, reading included (the event workflow's budget)


def throughput() -> None:
    from deckcheck.cards.store import StorePool
    from deckcheck.decks.io import read_decks
    from deckcheck.errors import DeckcheckError
    from deckcheck.validate import Checker

    pool = StorePool(store_path())
    files = ydk_files()
    t0 = time.perf_counter()
    decks = []
    for path in files:
        try:
            decks.extend(read_decks(str(path), pool))
        except DeckcheckError:
            pass
    t_read = time.perf_counter() - t0
    checker = Checker("tcg", "2026-06-01", pool=pool)
    t1 = time.perf_counter()
    for deck in decks:
        checker.check(deck)
    t_cold = time.perf_counter() - t1  # first pass: every passcode looked up in the store
    t2 = time.perf_counter()
    for deck in decks:
        checker.check(deck)
    t_warm = time.perf_counter() - t2
    n = len(decks)
    both = n / (t_read + t_cold)
    print(f"{n} real decks ({len(files)} .ydk files)")
    print(f"  read only            {n / t_read:8.0f} decks/s")
    print(f"  rules (first pass)   {n / t_cold:8.0f} decks/s  (card lookups included)")
    print(f"  rules (warm)         {n / t_warm:8.0f} decks/s")
    print(f"  read + rules         {both:8.0f} decks/s  = {both / TARGET:.2f}× the target "
          f"of {TARGET:.0f} decks/s; rules take {t_cold / (t_read + t_cold):.0%} of the time")


def _median_run(cmd: list[str], env: dict[str, str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def cold_start(repeat: int) -> None:
    env = dict(os.environ, DECKCHECK_DB=str(store_path()), NO_COLOR="1")
    deck = ROOT / "examples" / "tcg-legal.ydk"
    exe = [sys.executable, "-c", "from deckcheck.cli.main import main; main()"]
    base = _median_run([sys.executable, "-c", "pass"], env, repeat)
    run = _median_run([*exe, "check", str(deck)], env, repeat)
    print(f"cold start (median of {repeat}): `python -c pass` {base * 1000:.0f} ms, "
          f"`deckcheck check {deck.name}` {run * 1000:.0f} ms = {run / base:.1f}× the baseline")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    need_data()
    throughput()
    cold_start(args.repeat)


if __name__ == "__main__":
    main()

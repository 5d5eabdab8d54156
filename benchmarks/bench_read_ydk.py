"""How fast deckcheck reads .ydk decks: the whole real corpus in ../shared/data/decks.

Baseline, measured in the same run: merely reading the same files' bytes. Reported: decks per
second for `read_decks(path)` (the library path: a path string, the format sniffed, open +
read + parse) and for `read_ydk(bytes)` (parse only), and the ratio of each to the baseline.
CPU time (`time.process_time`), best of the rounds: the machine may be shared.
Run: `python benchmarks/bench_read_ydk.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from deckcheck.decks.files import read_decks
from deckcheck.decks.ydk import read_ydk
from deckcheck.errors import DeckReadError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "decks"


def best_of(fn: Callable[[], object], rounds: int) -> float:
    """CPU seconds of the fastest of `rounds` calls."""
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    files = [str(f) for f in sorted(args.data.rglob("*.ydk"))]
    if not files:
        print(f"no .ydk files under {args.data}", file=sys.stderr)
        return 2
    blobs = [Path(f).read_bytes() for f in files]

    def baseline() -> None:
        for f in files:
            with open(f, "rb") as fh:
                fh.read()

    def full() -> None:
        for f in files:
            try:
                read_decks(f, None)
            except DeckReadError:
                pass

    def parse_only() -> None:
        for b in blobs:
            try:
                read_ydk(b, "x.ydk")
            except DeckReadError:
                pass

    n = len(files)
    base = best_of(baseline, args.rounds)
    t_full = best_of(full, args.rounds)
    t_parse = best_of(parse_only, args.rounds)
    print(f"{n} .ydk files, CPU time, best of {args.rounds} rounds")
    print(f"baseline (read bytes only): {n / base:10,.0f} files/s  {base / n * 1e6:7.1f} µs/file")
    print(f"read_decks(path):           {n / t_full:10,.0f} decks/s  {t_full / n * 1e6:7.1f} "
          f"µs/deck  ratio {t_full / base:.1f}x baseline")
    print(f"read_ydk(bytes):            {n / t_parse:10,.0f} decks/s  {t_parse / n * 1e6:7.1f} "
          f"µs/deck  ratio {t_parse / base:.1f}x baseline")
    print(f"5,000 decks at this rate:   {5000 * t_full / n:.2f} s (event budget: 10 s with "
          "validation)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

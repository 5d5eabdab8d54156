"""Hostile deck files are refused fast and in bounded memory (issue 12): goal < 2 s, < 256 MB.

Each input is generated first (tests/decks/hostile_files.py builds them; nothing is copied),
written to a temporary folder, then read by `read_decks` in a fresh Python process, which
reports its wall time, CPU time, peak resident memory (VmHWM from /proc, else
`resource.getrusage`; the whole process: interpreter and imports included) and the peak of
Python allocations during the read
(`tracemalloc`). The yardstick, measured in the same run, is reading a normal 40-card xlsx
decklist; ratios are to it.

Run: `python benchmarks/bench_hostile.py [--only NAME ...]`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "decks"))
import hostile_files as hf  # noqa: E402
from _local import PEAK_MB_SOURCE  # noqa: E402

GOAL_S = 2.0
GOAL_MB = 256

#: name -> (file name, builder); the first is the yardstick. The last one is read, not refused:
#: it is a deck, once slow (24 s) and now read at the speed of any other.
READ_NOT_REFUSED = ("normal 40-card xlsx", "card + 450 spaces (.txt)")
#: Inputs under every count limit: read up to where the deck readers' own bound refuses them.
CASES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "normal 40-card xlsx": ("normal.xlsx", hf.normal_deck_xlsx),
    "1,048,576-row sheet": ("rows.xlsx", hf.many_rows),
    "4.2 M shared strings": ("sst.xlsx", hf.many_shared_strings),
    "zip-bomb xlsx": ("bomb.xlsx", hf.zip_bomb),
    "1 M cell styles": ("styles.xlsx", hf.many_styles),
    "10,000 x 60 dense cells": ("dense.xlsx", hf.dense_cells),
    # the worst a workbook under every count limit can cost: openpyxl reads it all
    "19,980 cells unsized (under limit)": ("under.xlsx", lambda: hf.dense_cells(333, 60)),
    "99,990 distinct passcodes (.ydk)": ("many.ydk", hf.many_ydk_passcodes),
    "200,000 newlines (.ydk)": ("newlines.ydk", lambda: b"\n" * 200_000),
    "card + 450 spaces (.txt)": ("spaces.txt", lambda: b"3 Pot of Greed\n" + b" " * 450 + b"x"),
}

CHILD = r"""
import json, sys, time, tracemalloc
""" + PEAK_MB_SOURCE + r"""
from deckcheck.cards.builtin import builtin_pool
from deckcheck.decks.files import read_decks
from deckcheck.decks import xlsx, xlsx_guard  # imported before measuring, as in a real run
import openpyxl
from deckcheck.errors import DeckReadError
pool = builtin_pool()
before = peak_mb()
tracemalloc.start()
wall, cpu = time.perf_counter(), time.process_time()
try:
    decks = read_decks(sys.argv[1], pool)
    outcome = f"read: {len(decks)} deck(s), {sum(d.size('main') for d in decks)} Main Deck cards"
except DeckReadError as exc:
    outcome = "refused: " + str(exc)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
peak = tracemalloc.get_traced_memory()[1] / 2**20
tracemalloc.stop()
rss = peak_mb()
print(json.dumps({"wall": wall, "cpu": cpu, "rss": rss, "rss_before": before, "py_peak": peak,
                  "outcome": outcome}))
"""


def measure(path: Path) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="run only the cases whose name contains these")
    args = parser.parse_args()
    names = [n for n in CASES if not args.only or any(o in n for o in args.only)]
    if "normal 40-card xlsx" not in names:
        names.insert(0, "normal 40-card xlsx")
    print(f"goal: every hostile input refused in < {GOAL_S} s of CPU (and < {2 * GOAL_S} s wall "
          f"on a busy machine) and < {GOAL_MB} MB (peak resident memory of the whole process)")
    print(f"{'input':34} {'size':>9} {'wall s':>7} {'cpu s':>6} {'x yard':>7} {'RSS MB':>7} "
          f"{'py MB':>6}  outcome")
    failed = 0
    yard = None
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            file_name, build = CASES[name]
            path = Path(tmp) / file_name
            path.write_bytes(build())
            m = measure(path)
            wall, cpu, rss = (float(m[k]) for k in ("wall", "cpu", "rss"))  # type: ignore[arg-type]
            if yard is None:
                yard = wall
            ok = cpu < GOAL_S and wall < 2 * GOAL_S and rss < GOAL_MB
            want = "read" if name in READ_NOT_REFUSED else "refused"
            if not ok or not str(m["outcome"]).startswith(want):
                failed += 1
            size = path.stat().st_size
            peak = float(m["py_peak"])  # type: ignore[arg-type]
            print(f"{name:34} {size / 1024:8.0f}K {wall:7.3f} {cpu:6.3f} {wall / yard:7.1f} "
                  f"{rss:7.0f} {peak:6.1f}  {'' if ok else 'OVER GOAL: '}"
                  f"{str(m['outcome'])[:90]}")
    print(f"\n{len(names) - failed} of {len(names)} inputs met the goal and were {'read or '}"
          f"refused as expected (yardstick: a normal 40-card xlsx read in {yard:.3f} s wall)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

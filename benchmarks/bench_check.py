"""How fast `deckcheck check` is, as ratios against baselines measured in the same run.

1. Throughput over the real .ydk corpus (../shared/data/decks), one core: decks per second
   for reading alone and for reading + every rule (2026.05 TCG list, full YGOPRODeck card
   pool in an imported store), against the target of 5,000 decks in 10 s (500 decks/s).
2. Cold start: `deckcheck check` on one deck in a fresh process (built-in card set, and the
   imported store), against `python -c pass` and `python -c "import click, pydantic"` (the
   floor of any click + pydantic tool).

    python benchmarks/bench_check.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import ROOT, need_data, store_path, ydk_files  # noqa: E402

TARGET = 5000 / 10  # decks per second, reading included (the event workflow's budget)


def throughput() -> None:
    from deckcheck.cards.store import StorePool
    from deckcheck.checker import Checker
    from deckcheck.decks.files import read_decks
    from deckcheck.errors import DeckcheckError

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


def _medians(cmds: dict[str, tuple[list[str], dict[str, str]]], repeat: int) -> dict[str, float]:
    """Median wall time of each command, the commands taking turns (so a burst of load on
    the machine hits them alike), after one untimed warm-up run each."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for i in range(repeat + 1):
        for key, (cmd, env) in cmds.items():
            t = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False, cwd=ROOT)
            if i:
                times[key].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def cold_start(repeat: int) -> None:
    """`deckcheck check` in a fresh process, with the built-in card set and with the imported
    store, against `python -c pass` and against the floor of any click + pydantic tool.

    Byte code is cached (in a temporary folder), as it is for an installed package, even
    when PYTHONDONTWRITEBYTECODE is set in the calling shell."""
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base.update(PYTHONPYCACHEPREFIX=tmp, NO_COLOR="1")
        builtin = dict(base, DECKCHECK_DB=str(Path(tmp) / "no-store.sqlite"))
        store = dict(base, DECKCHECK_DB=str(store_path()))
        exe = [sys.executable, "-c", "from deckcheck.cli.main import main; main()", "check"]
        real = ydk_files()[0]
        cmds = {
            "python -c pass": ([sys.executable, "-c", "pass"], builtin),
            "python -c 'import click, pydantic'": (
                [sys.executable, "-c", "import click, pydantic"], builtin),
            # pydantic imports most of itself on the first model class: the real floor
            "... and build one pydantic model": (
                [sys.executable, "-c", "import click, pydantic\n"
                 "class M(pydantic.BaseModel):\n    a: int = 0\nM(a=1)"], builtin),
            "deckcheck check examples/tcg-legal.ydk (built-in set)": (
                [*exe, str(ROOT / "examples" / "tcg-legal.ydk")], builtin),
            f"deckcheck check {real.name} (imported store)": ([*exe, str(real)], store),
        }
        med = _medians(cmds, repeat)
    floor, pydantic_floor = med["python -c pass"], med["python -c 'import click, pydantic'"]
    model_floor = med["... and build one pydantic model"]
    print(f"cold start (median of {repeat}, byte code cached), as multiples of `python -c pass`, "
          "of importing click + pydantic, and of that plus one model:")
    for key, t in med.items():
        print(f"  {key:<62} {t * 1000:5.0f} ms {t / floor:5.1f}× {t / pydantic_floor:5.2f}× "
              f"{t / model_floor:5.2f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    need_data()
    throughput()
    cold_start(args.repeat)


if __name__ == "__main__":
    main()

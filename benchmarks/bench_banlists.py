"""What shipping every format's whole list history costs `deckcheck check`, measured against
the same run with only each format's newest list shipped (the old `banlists/`).

    python benchmarks/bench_banlists.py [--repeat 11]

Goal: with the full history (hundreds of list files) `deckcheck check` starts and checks as
fast as with one list per format — lists load lazily, so a check parses its format's
`format.toml` and the one list in force, nothing else.

Yardsticks, all measured in this run:
1. Loading a format and its list in force: `load_format("tcg").banlist_at(day)` with the full
   history, against the same with one list, and against parsing every list of the format
   (what an eager loader would do).
2. Cold start: `deckcheck check` on one deck in a fresh process with the full history, against
   the same with one list per format (byte code cached; commands take turns).
3. Corpus throughput (needs ../shared/data): the real .ydk corpus checked under the TCG list
   of 2026-06-01, full history against one list.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import best_of, installed_env  # noqa: E402

from deckcheck.formats import loader, native  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DAY = dt.date(2026, 6, 1)


def newest_only(src: Path, dest: Path) -> Path:
    """A copy of `src` (a banlists folder) keeping only each format's newest list."""
    for fmt_dir in sorted(p for p in src.iterdir() if p.is_dir()):
        out = dest / fmt_dir.name
        out.mkdir(parents=True)
        shutil.copy(fmt_dir / "format.toml", out / "format.toml")
        lists = sorted(p for p in fmt_dir.glob("*.toml") if p.name != "format.toml")
        if lists:
            shutil.copy(lists[-1], out / lists[-1].name)
    return dest


def _use(shipped: Path) -> None:
    loader.shipped_dir = lambda: shipped  # type: ignore[assignment]
    loader.clear_cache()


def load_times(full: Path, small: Path) -> None:
    n_full = len(list((full / "tcg").glob("????-??-??.toml")))
    rows = []
    for label, where in (("full history", full), ("newest only", small)):
        _use(where)
        rows.append((label, best_of(lambda: loader.load_format("tcg").banlist_at(DAY), 7,
                                    setup=loader.clear_cache)))
    files = sorted((full / "tcg").glob("????-??-??.toml"))
    eager = best_of(lambda: [native.parse_list(p.read_text(encoding="utf-8"), p)
                             for p in files], 3)
    base = rows[1][1]
    print(f"1. load_format('tcg').banlist_at({DAY}) (best of 7):")
    for label, t in rows:
        print(f"   {label:<13} {t * 1000:7.2f} ms  = {t / base:5.2f}x newest only")
    print(f"   parsing all {n_full} TCG lists (an eager loader): {eager * 1000:7.1f} ms "
          f"= {eager / base:5.1f}x newest only")


def cold_start(full: Path, small: Path, repeat: int) -> None:
    deck = ROOT / "examples" / "tcg-legal.ydk"
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        env = installed_env(PYTHONPYCACHEPREFIX=tmp, NO_COLOR="1",
                            DECKCHECK_DB=str(Path(tmp) / "no-store.sqlite"),
                            DECKCHECK_BANLISTS=str(Path(tmp) / "no-imports"))

        def cmd(shipped: Path) -> list[str]:
            return [sys.executable, "-c",
                    "import sys; from pathlib import Path\n"
                    "import deckcheck.formats.loader as L\n"
                    f"L.shipped_dir = lambda: Path({str(shipped)!r})\n"
                    "from deckcheck.cli.main import main; main()",
                    "check", str(deck), "--date", DAY.isoformat()]

        cmds = {"full history": cmd(full), "newest only": cmd(small)}
        times: dict[str, list[float]] = {k: [] for k in cmds}
        for i in range(repeat + 1):
            for key, c in cmds.items():
                t = time.perf_counter()
                subprocess.run(c, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               check=False, cwd=ROOT)
                if i:
                    times[key].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"2. cold start, `deckcheck check examples/tcg-legal.ydk` (median of {repeat}):")
    for key, t in med.items():
        print(f"   {key:<13} {t * 1000:6.0f} ms  = {t / med['newest only']:5.3f}x newest only")


def throughput(full: Path, small: Path) -> None:
    from _realdata import SHARED, store_path, ydk_files

    if not (SHARED / "cards" / "ygoprodeck-cardinfo.zip").is_file():
        print(f"3. (no {SHARED}: corpus throughput not measured)")
        return
    from deckcheck.cards.store import StorePool
    from deckcheck.checker import Checker
    from deckcheck.decks.files import read_decks
    from deckcheck.errors import DeckcheckError

    pool = StorePool(store_path())
    decks = []
    for path in ydk_files():
        try:
            decks.extend(read_decks(str(path), pool))
        except DeckcheckError:
            pass
    checkers = {}
    for label, where in (("full history", full), ("newest only", small)):
        _use(where)
        checkers[label] = Checker("tcg", DAY, pool=pool)
        for deck in decks:  # warm the card lookups once, for both alike
            checkers[label].check(deck)
    best = dict.fromkeys(checkers, float("inf"))
    for _ in range(3):  # the two take turns, so a burst of load hits both alike
        for label, checker in checkers.items():
            best[label] = min(best[label], best_of(
                lambda checker=checker: [checker.check(d) for d in decks], 1))
    rates = {label: len(decks) / t for label, t in best.items()}
    print(f"3. corpus throughput, {len(decks)} real decks under the TCG list of {DAY}:")
    for label, r in rates.items():
        print(f"   {label:<13} {r:8.0f} decks/s = {r / rates['newest only']:5.3f}x newest only")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    full = loader.shipped_dir()
    assert full is not None
    lists = sum(1 for _ in full.glob("*/????-??-??.toml"))
    size = sum(p.stat().st_size for p in full.rglob("*") if p.is_file())
    print(f"shipped banlists/: {lists} lists, {size / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        small = newest_only(full, Path(tmp) / "banlists")
        os.environ["DECKCHECK_BANLISTS"] = str(Path(tmp) / "no-imports")
        load_times(full, small)
        cold_start(full, small, args.repeat)
        throughput(full, small)


if __name__ == "__main__":
    main()

"""How fast `deckcheck event check` is on a 5,000-player event built from the real corpus.

The event is a folder of 5,000 .ydk registrations (the real .ydk files of ../shared/data/decks,
cycled, named "Player 0001 0300000001.ydk" so player and id come from the file name), made
in a temporary folder. Measured in one run, on one core:

- baseline: reading every file's bytes (what any tool must do at least);
- the event check (find, read, check every deck under the 2026.05 TCG list, duplicates),
  with the full YGOPRODeck card pool in an imported store (or the built-in set, --builtin);
- writing the xlsx, CSV and JSON reports;
- peak memory (maxrss of the process) and its growth over the run;
- CPU time beside wall time (a busy machine inflates the wall time, not the CPU time).

It prints decks per second and ratios to the baseline, against the goal: 5,000 players
checked in under 10 s with the xlsx report (500 registrations/s).

    python benchmarks/bench_event.py [--players 5000] [--builtin]
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import need_data, store_path, ydk_files

GOAL_SECONDS = 10.0
DATE = dt.date(2026, 12, 5)


def maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def build_event(folder: Path, players: int) -> list[Path]:
    corpus = ydk_files()
    out = []
    for i in range(players):
        dest = folder / f"Player {i + 1:04d} {300000000 + i + 1:010d}.ydk"
        shutil.copyfile(corpus[i % len(corpus)], dest)
        out.append(dest)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=5000)
    ap.add_argument("--builtin", action="store_true",
                    help="check against the small built-in card set instead of the full pool")
    args = ap.parse_args()
    need_data()

    from deckcheck.cards.builtin import builtin_pool
    from deckcheck.cards.store import StorePool
    from deckcheck.event.report_csv import write_csv
    from deckcheck.event.report_json import write_json
    from deckcheck.event.report_xlsx import write_xlsx
    from deckcheck.event.run import check_event

    pool = builtin_pool() if args.builtin else StorePool(store_path())
    with tempfile.TemporaryDirectory(prefix="deckcheck-event-") as tmp:
        folder = Path(tmp) / "event"
        folder.mkdir()
        files = build_event(folder, args.players)
        rss0 = maxrss_mb()

        t = time.perf_counter()
        total_bytes = sum(len(p.read_bytes()) for p in files)
        baseline = time.perf_counter() - t

        t, c = time.perf_counter(), time.process_time()
        report = check_event([folder], pool, format="tcg", date=DATE)
        t_check, c_check = time.perf_counter() - t, time.process_time() - c

        t, c = time.perf_counter(), time.process_time()
        write_xlsx(report, Path(tmp) / "report.xlsx")
        t_xlsx, c_xlsx = time.perf_counter() - t, time.process_time() - c
        t = time.perf_counter()
        write_csv(report, Path(tmp) / "report.csv")
        t_csv = time.perf_counter() - t
        t = time.perf_counter()
        write_json(report, Path(tmp) / "report.json")
        t_json = time.perf_counter() - t
        xlsx_size = (Path(tmp) / "report.xlsx").stat().st_size
        rss1 = maxrss_mb()

    n = report.total
    total = t_check + t_xlsx
    print(f"event: {n:,} registrations ({total_bytes / 2**20:.1f} MB of .ydk), card pool: "
          f"{'built-in set' if args.builtin else 'full (imported store)'}")
    print(f"  {report.legal:,} legal, {report.illegal:,} illegal, {report.unreadable:,} could "
          f"not be read, {report.duplicates:,} duplicates, {len(report.problems):,} problems")
    print(f"baseline, read the bytes:   {baseline:7.3f} s  {n / baseline:9,.0f} files/s")
    print(f"event check:                {t_check:7.3f} s  {n / t_check:9,.0f} decks/s  "
          f"({t_check / baseline:,.0f}x baseline)")
    print(f"xlsx report:                {t_xlsx:7.3f} s  ({xlsx_size / 2**20:.1f} MB)")
    print(f"csv report:                 {t_csv:7.3f} s")
    print(f"json report:                {t_json:7.3f} s")
    print(f"check + xlsx:               {total:7.3f} s  {n / total:9,.0f} decks/s  "
          f"({total / baseline:,.0f}x baseline)")
    cpu = c_check + c_xlsx
    print(f"check + xlsx, CPU time:     {cpu:7.3f} s  {n / cpu:9,.0f} decks/s  "
          f"(wall/CPU {total / cpu:.2f}: above 1 when other processes share the cores)")
    for label, secs in (("wall", total), ("CPU", cpu)):
        scaled = secs * 5000 / n
        print(f"goal, 5,000 players in {GOAL_SECONDS:.0f} s with the xlsx ({label:>4}): "
              f"{scaled:5.1f} s -> {'met' if scaled < GOAL_SECONDS else 'NOT met'} "
              f"({GOAL_SECONDS / scaled:.2f}x the goal's speed)")
    print(f"peak memory (maxrss):       {rss1:7.0f} MB  (+{rss1 - rss0:.0f} MB during the run)")


if __name__ == "__main__":
    main()

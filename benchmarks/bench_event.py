"""How fast `deckcheck event check` is, end to end from process start, against reading the bytes
(issues 13, 24).

An event is a folder of .ydk registrations (the real .ydk files of ../shared/data/decks,
cycled, named "Player 000001 0300000001.ydk" so player and id come from the file name), made
in a temporary folder. Each measurement runs in a fresh bench process, which then:

- the yardstick: reads every file's bytes (what any tool must do at least);
- end to end, as a user runs it: starts the installed `deckcheck event check FOLDER --date
  2026-06-01 -o report.xlsx` (`--jobs` default: one worker per core) in a subprocess, the
  clock started before the spawn and stopped when it has exited (Python's start, deckcheck's
  imports, opening the pool, finding, reading and checking every registration, duplicates,
  the xlsx report); CPU time of the whole tree (`RUSAGE_CHILDREN`: the command and the
  workers it waited for);
- memory of every process in the tree, two ways: the peak of the tree's summed proportional
  set size (PSS, /proc/PID/smaps_rollup of the command and every descendant, polled every
  50 ms: the sum is what the tree holds at once, PSS counts pages a forked worker shares with
  its parent once; a poll can miss a peak shorter than 50 ms), and the largest single
  process's exact peak RSS (`ru_maxrss` of RUSAGE_CHILDREN, which the kernel keeps for
  every waited-for descendant, but as a max, not a sum);
- plain read + check: `read_deck` and a reused `Checker` over the same files in one process,
  without cyclic GC as in the event (the per-deck work the event wraps).

The package's bytecode is compiled first, as `pip install` does (bench_odds, bench_check do
the same), so that a shell's PYTHONDONTWRITEBYTECODE does not add compiling deckcheck's
modules to every command. The card pools are what a user has after the README's steps
(issue 24): the built-in pool of every card (empty home, no DECKCHECK_DB) and a store
imported from every card source (cached in the temp folder; `_realdata.full_store_path`).

Rows:
1. the goal (issue 24): 4,000 registrations in under 1 s of wall time from process start,
   `--jobs` default, on each pool, beside the yardstick and plain read + check, and the
   command's start-up and exit alone (`event check --help`): what the event adds to plain
   read + check is the event's wall less these two;
2. scale (store of every source, `--jobs` default): 1,000 / 4,000 / 16,000 / 100,000
   registrations: time per registration should stay flat, and the peak memory of the whole
   tree at 100,000 at most 1.25x that at 16,000 with the xlsx report (issue 24).

    python benchmarks/bench_event.py [--sizes 1000,4000,16000,100000] [--goal-repeat 3]
                                     [--pool built-in]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import (  # noqa: E402
    POOLS,
    builtin_env,
    fresh_builtin_pool,
    full_store_path,
    need_data,
    ydk_files,
)
from _timing import installed_env, machine_check, machine_line  # noqa: E402

GOAL_SECONDS = 1.0  # 4,000 registrations, end to end from process start
GOAL_PLAYERS = 4000
MEMORY_GOAL = 1.25  # peak of the tree at 100,000 registrations / at 16,000
DATE = dt.date(2026, 6, 1)  # as bench_check: the card data settles every point on it
POLL = 0.05  # seconds between two looks at the tree's memory


def tree(pid: int) -> list[int]:
    """`pid` and every descendant still alive (from /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return out


def memory_kb(pid: int) -> tuple[int, int]:
    """(PSS, RSS) of one process in KiB; (0, 0) once it is gone."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def build_event(folder: Path, players: int) -> list[Path]:
    corpus = ydk_files()
    out = []
    for i in range(players):
        dest = folder / f"Player {i + 1:06d} {300000000 + i + 1:010d}.ydk"
        try:  # a hard link: the same bytes, without copying 100,000 files on a slow disk
            os.link(corpus[i % len(corpus)], dest)
        except OSError:  # another file system
            shutil.copyfile(corpus[i % len(corpus)], dest)
        out.append(dest)
    return out


def command() -> list[str]:
    """The installed console script, as a user runs it (else `python -m deckcheck`)."""
    script = Path(sys.executable).parent / "deckcheck"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "deckcheck"]


def pool_env(pool: str, tmp: str) -> dict[str, str]:
    env = installed_env(builtin_env(tmp))  # as installed: the bytecode is read (`main`)
    if pool != "built-in":
        env["DECKCHECK_DB"] = str(full_store_path())
    return env


def read_bytes(folder: Path) -> tuple[float, float, float]:
    c, t = time.process_time(), time.perf_counter()
    total = 0
    for p in sorted(folder.glob("*.ydk")):
        with open(p, "rb") as f:
            total += len(f.read())
    return time.perf_counter() - t, time.process_time() - c, total / 2**20


def one(pool: str, folder: Path, mode: str) -> dict[str, float]:
    """Measure one event from this (fresh) process; the folder is built beforehand. `mode`
    "event": the command end to end; "plain": read_deck + a reused Checker in this process;
    "start": `deckcheck event check --help`, the command's start-up and exit alone."""
    baseline, baseline_cpu, mb = read_bytes(folder)
    out: dict[str, float] = {"baseline": baseline, "baseline_cpu": baseline_cpu, "mb": mb}
    if mode == "start":
        with tempfile.TemporaryDirectory(prefix="deckcheck-event-home-") as tmp:
            t0 = time.perf_counter()
            subprocess.run([*command(), "event", "check", "--help"], env=pool_env(pool, tmp),
                           stdout=subprocess.DEVNULL, check=True)
            out.update(wall=time.perf_counter() - t0)
        return out
    if mode == "plain":  # under the event's conditions: no cyclic GC either
        from deckcheck.cards.store import StorePool
        from deckcheck.checker import Checker
        from deckcheck.decks.files import read_deck
        from deckcheck.gc_pause import gc_paused

        files = sorted(folder.glob("*.ydk"))
        c0, t0 = time.process_time(), time.perf_counter()
        cards = fresh_builtin_pool() if pool == "built-in" else StorePool(full_store_path())
        checker = Checker("tcg", DATE, pool=cards)
        with gc_paused():
            for p in files:
                try:
                    checker.check(read_deck(p, cards))
                except Exception:  # noqa: BLE001 - a file of the corpus that is no deck
                    pass
        out.update(wall=time.perf_counter() - t0, cpu=time.process_time() - c0)
        return out
    with tempfile.TemporaryDirectory(prefix="deckcheck-event-home-") as tmp:
        env = pool_env(pool, tmp)
        report = Path(tmp) / "report.xlsx"
        cmd = [*command(), "event", "check", str(folder), "--date", DATE.isoformat(),
               "-o", str(report)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak_pss = peak_rss = 0
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        # the end is taken when the process ends, not at the next look at the memory (up to
        # POLL later); the sampler stops then
        ended: list[float] = []
        waiter = threading.Thread(target=lambda: (proc.wait(), ended.append(time.perf_counter())))
        waiter.start()
        while waiter.is_alive():
            pss = rss = 0
            for pid in tree(proc.pid):
                a, b = memory_kb(pid)
                pss, rss = pss + a, rss + b
            peak_pss, peak_rss = max(peak_pss, pss), max(peak_rss, rss)
            waiter.join(POLL)
        wall = ended[0] - t0
        err = proc.stderr.read().decode() if proc.stderr else ""
        # 2 is expected: the corpus holds a file that is no deck (an unreadable registration)
        if proc.returncode not in (0, 1, 2) or not report.is_file():
            sys.exit(f"event check exited {proc.returncode}: {err.strip()[-500:]}")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.update(wall=wall, code=proc.returncode,
                   cpu=(after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
                   tree_pss=peak_pss / 1024, tree_rss=peak_rss / 1024,
                   largest=after.ru_maxrss / 1024)
    return out


def run_child(pool: str, folder: Path, mode: str = "event") -> dict[str, float]:
    out = subprocess.run([sys.executable, __file__, "--child", "--pool", pool, "--folder",
                          str(folder), "--mode", mode], check=True, capture_output=True,
                         text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def goal_rows(pools: list[str], repeat: int, n_cores: int) -> None:
    """The goal: 4,000 registrations from process start, on each pool."""
    with tempfile.TemporaryDirectory(prefix="deckcheck-event-") as tmp:
        folder = Path(tmp) / "event"
        folder.mkdir()
        build_event(folder, GOAL_PLAYERS)
        keys = [(p, m) for p in pools for m in ("event", "plain")] + [(pools[0], "start")]
        runs: dict[tuple[str, str], list[dict[str, float]]] = {k: [] for k in keys}
        before = machine_check()
        for _ in range(repeat):  # taking turns, so a burst of load hits them alike
            for pool, mode in keys:
                runs[pool, mode].append(run_child(pool, folder, mode))
        after = machine_check()
        base = statistics.median(r["baseline"] for rs in runs.values() for r in rs)
        print(f"goal: {GOAL_PLAYERS:,} registrations, `deckcheck event check FOLDER -o "
              f"report.xlsx` (--jobs default: {n_cores} on this machine) timed from before "
              f"the process starts until it exits, < {GOAL_SECONDS:.0f} s wall; medians of "
              f"{repeat}, each from a fresh process (load average now "
              f"{os.getloadavg()[0]:.1f} on {n_cores} cores)")
        print(f"  {machine_line(before, after)}")
        print(f"  yardstick, reading the bytes:         {base:7.3f} s")
        start = statistics.median(r["wall"] for r in runs[pools[0], "start"])
        print(f"  breakdown: `deckcheck event check --help` (Python, the CLI's imports, exit): "
              f"{start:.3f} s wall")
        for pool in pools:
            ev, pl = runs[pool, "event"], runs[pool, "plain"]
            wall = statistics.median(r["wall"] for r in ev)
            used = statistics.median(r["cpu"] for r in ev)
            pss = statistics.median(r["tree_pss"] for r in ev)
            largest = statistics.median(r["largest"] for r in ev)
            print(f"  [{pool}] event check:  {wall:7.3f} s wall ({wall / base:4.0f}x the "
                  f"yardstick), {used:6.3f} s CPU of the tree; peak memory of the tree "
                  f"{pss:.0f} MiB PSS (largest process {largest:.0f} MiB RSS) -> "
                  f"{'met' if wall < GOAL_SECONDS else 'NOT met'}")
            print(f"  [{pool}] plain read_deck + Checker.check, one process, no start-up: "
                  f"{statistics.median(r['wall'] for r in pl):.3f} s wall, "
                  f"{statistics.median(r['cpu'] for r in pl):.3f} s CPU")
        shutil.rmtree(folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,4000,16000,100000")
    ap.add_argument("--goal-repeat", type=int, default=3)
    ap.add_argument("--pool", choices=POOLS, action="append",
                    help="the goal rows on this pool only (repeatable; default: both)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="event", help=argparse.SUPPRESS)
    args = ap.parse_args()
    need_data()
    if args.child:
        print(json.dumps(one(args.pool[0], Path(args.folder), args.mode)))
        return
    full_store_path()  # imported once, before any timing
    # an installed package has its bytecode (pip compiles it); PYTHONDONTWRITEBYTECODE, set
    # in some shells, would otherwise compile deckcheck's modules again in every command
    import compileall

    import deckcheck

    compileall.compile_dir(str(Path(deckcheck.__file__).parent), quiet=1)
    pools = args.pool or list(POOLS)
    n_cores = cores()
    if args.goal_repeat > 0:
        goal_rows(pools, args.goal_repeat, n_cores)

    sizes = [int(s) for s in args.sizes.split(",") if s]
    if not sizes:
        return
    pool = "every source" if "every source" in pools else pools[0]
    print(f"scale ([{pool}], --jobs default, one run per size): time and memory of the tree")
    print(f"  {'registrations':>13} {'read bytes':>10} {'wall':>8} {'CPU':>8} "
          f"{'CPU/reg':>9} {'tree PSS':>9} {'tree RSS':>9} {'largest':>8}")
    peaks: dict[int, float] = {}
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="deckcheck-event-") as tmp:
            folder = Path(tmp) / "event"
            folder.mkdir()
            build_event(folder, n)
            r = run_child(pool, folder)
        peaks[n] = r["tree_pss"]
        print(f"  {n:>13,} {r['baseline']:9.3f}s {r['wall']:7.2f}s {r['cpu']:7.2f}s "
              f"{r['cpu'] / n * 1e6:7.0f}µs {r['tree_pss']:7.0f}MB {r['tree_rss']:7.0f}MB "
              f"{r['largest']:6.0f}MB")
    if 16000 in peaks and 100000 in peaks:
        ratio = peaks[100000] / peaks[16000]
        print(f"  peak memory of the tree (PSS) at 100,000 / at 16,000 registrations: "
              f"{ratio:.2f}x; goal <= {MEMORY_GOAL}x: "
              f"{'met' if ratio <= MEMORY_GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()

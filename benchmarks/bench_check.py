"""How fast deckcheck checks decks, against yardsticks measured in the same run (issue 13).

1. Throughput over the real .ydk corpus (../shared/data/decks), one core, CPU-time medians,
   reading always included (a figure that re-checks decks already read says nothing about
   checking files):
   - the README's library path: `deckcheck.read_deck(path, pool)` + `deckcheck.check(deck,
     format="tcg", date=…, pool=pool)` per file;
   - a `Checker` made once, then `read_deck` + `checker.check` per file;
   - the yardstick: a plain-Python validator written below, over deckcheck's own store
     (cards, ids and names read into dicts beforehand) and the same list, reading each file's
     bytes and parsing them itself. It must give the same verdict as deckcheck on every file
     (legal, illegal, unreadable); the run says how many agree.
   Goal: >= 5,000 decks/s on both paths. Absolute speeds follow the machine's load, so the
   goal is also given as a ratio to the yardstick: the issue measured the yardstick at 7,855
   decks/s, so 5,000 decks/s is 0.64x the yardstick.
2. Cold cards: the same `read_deck` + `Checker.check` over the 3,753 real files with a fresh
   card store and a fresh `Checker` each run, so that each of the ~10,000 different cards the
   files hold is looked up for the first time (store query, card, facts) as in an event of
   that many registrations; cyclic GC paused, as `deckcheck event check` runs it (the same
   loop with the collector on is printed too). Goal (issue 13's event row, whose per-deck work
   this is): <= 120 µs/deck. Yardsticks from the same run: the same loop again with every card
   known (the floor: cold can only add the first look at each card), and the plain-Python
   validator above with its tables built from the store in the run. The goal as a ratio: the
   first look at the cards adds at most 15% to the known-cards loop. `--cards-only` runs just
   this part.
3. Cold start: `deckcheck check` on one real deck (it must exit 0 or 1: a file that exits 2
   measures the error path, not a check) in a fresh process, with the built-in card set and
   with the imported store, against `python -c pass` and `python -c "import pydantic, click"`,
   the commands taking turns; medians of wall time and of the process's CPU time (steadier on
   a loaded machine). Goal: <= 1.5x the latter. `--cold-only` runs just this part.

    python benchmarks/bench_check.py [--repeat 5] [--cold-repeat 11]
                                     [--skip-cold | --cold-only | --cards-only]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import ROOT, need_data, store_path, ydk_files  # noqa: E402

if TYPE_CHECKING:
    from deckcheck.decks.model import Deck
    from deckcheck.reports.model import Report

DATE = "2026-06-01"
GOAL = 5000.0  # decks per second
ISSUE_YARDSTICK = 7855.0  # the yardstick's speed when issue 13 set the goal
GOAL_RATIO = GOAL / ISSUE_YARDSTICK
COLD_GOAL = 1.5  # x `python -c "import pydantic, click"`
CARDS_GOAL = 120.0  # µs per deck, every card looked up for the first time in the run
CARDS_GOAL_RATIO = 1.15  # x the same loop with every card known


# -- the yardstick: a plain validator ------------------------------------------------------

class PlainValidator:
    """The TCG rules that decide a verdict, over plain dicts: deck sizes, unknown ids, tokens
    and skills, Main/Extra placement, cards outside the region, release dates, copies by rule
    name (across alternate artworks and cards treated as another name) and list limits."""

    def __init__(self, store: Path, fmt: object, banlist: object) -> None:
        from deckcheck.cards.names import normalize

        con = sqlite3.connect(Path(store).resolve().as_uri() + "?mode=ro", uri=True)
        limits: dict[int, int] = {e.passcode: e.limit for e in banlist.entries  # type: ignore[attr-defined]
                                  if e.limit is not None}
        excluded = set(fmt.excluded_scopes)  # type: ignore[attr-defined]
        self.sizes = {s: (getattr(fmt, s).min, getattr(fmt, s).max)
                      for s in ("main", "extra", "side")}
        self.copies: int = fmt.copies  # type: ignore[attr-defined]
        self.date = DATE
        by_name: dict[str, int] = {}
        cards: dict[int, dict[str, object]] = {}
        for pc, data in con.execute("SELECT passcode, data FROM cards"):
            c = json.loads(data)
            cards[pc] = c
            by_name.setdefault(c["name"], pc)

        def strictest(codes: list[int]) -> int | None:
            found = [limits[p] for p in codes if p in limits]
            return min(found) if found else None

        # id -> (rule-name key, place, illegal here whatever the count, limit, named limit)
        self.facts: dict[int, tuple[str, str | None, bool, int | None, int | None]] = {}
        for id_, pc in con.execute("SELECT id, passcode FROM ids"):
            c = cards[pc]
            own = [pc, *c.get("alt_passcodes", ())]
            kind = c["kind"]
            frame = c["frame"]
            place = None if kind in ("token", "skill") else (
                "extra" if frame.split("_")[0] in ("fusion", "synchro", "xyz", "link")
                else "main")
            released = (c.get("released") or {}).get("tcg")
            bad = (place is None or bool(set(c.get("scopes", ())) & excluded)
                   or (released is not None and released > DATE))
            named = None
            if c["name"] != c["rule_name"] and c["rule_name"] in by_name:
                other = cards[by_name[c["rule_name"]]]
                named = strictest([other["passcode"], *other.get("alt_passcodes", ())])
            self.facts[id_] = (normalize(c["rule_name"]) or c["rule_name"], place, bad,
                               strictest([id_, *own]), named)
        con.close()

    def verdict(self, path: str) -> str:
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8", "replace").lstrip("\ufeff")
        sizes = {"main": 0, "extra": 0, "side": 0}
        counts: dict[str, int] = {}
        limit: dict[str, int] = {}
        section, active, header, illegal = "main", True, False, False
        facts = self.facts
        for raw in text.splitlines():
            line = raw.strip()
            if not line:
                continue
            first = line[0]
            if "0" <= first <= "9":
                end = 1
                while end < len(line) and "0" <= line[end] <= "9":
                    end += 1
                if end < len(line) and not (line[end].isspace() or line[end] in "#/-;,"):
                    end = 0
                if not active:
                    continue
                if end == 0 or end > 10 or int(line[:end]) >= 2**32:
                    illegal = True  # an unreadable line
                    continue
                f = facts.get(int(line[:end]))
                sizes[section] += 1
                if f is None:
                    illegal = True  # unknown card
                    continue
                key, place, bad, lim, named = f
                if bad or (place != section and section != "side"):
                    illegal = True
                counts[key] = counts.get(key, 0) + 1
                for x in (lim, named):
                    if x is not None and x < limit.get(key, 99):
                        limit[key] = x
                continue
            low = line.lower()
            if first == "#":
                word = low[1:].strip()
                if word in ("main", "extra"):
                    section, active, header = word, True, True
                elif low.startswith("##") or word in (
                        "pickup", "case", "protector", "field", "grave", "stand", "mate",
                        "spare", "representative"):
                    active = False
            elif first == "!":
                if low[1:].strip() == "side":
                    section, active, header = "side", True, True
                else:
                    active = False
            elif first != "$" and active:
                illegal = True
        if not header and not any(sizes.values()):
            return "unreadable"
        for s, (lo, hi) in self.sizes.items():
            if not lo <= sizes[s] <= hi:
                return "illegal"
        if illegal:
            return "illegal"
        for key, n in counts.items():
            if n > self.copies or n > limit.get(key, 99):
                return "illegal"
        return "legal"


# -- throughput ----------------------------------------------------------------------------

def _cpu(fn: Callable[[], object]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def throughput(repeat: int) -> None:
    import deckcheck
    from deckcheck.cards.store import StorePool
    from deckcheck.errors import DeckcheckError

    store = store_path()
    pool = StorePool(store)
    files = [str(p) for p in ydk_files()]
    checker = deckcheck.Checker("tcg", DATE, pool=pool)
    assert checker.banlist is not None
    plain = PlainValidator(store, checker.format, checker.banlist)

    def verdicts(check: Callable[[Deck], Report]) -> list[str]:
        out = []
        for path in files:
            try:
                deck = deckcheck.read_deck(path, pool)
            except DeckcheckError:
                out.append("unreadable")
                continue
            out.append(check(deck).verdict)
        return out

    def readme() -> list[str]:  # the README's library path: a `check` call per deck
        return verdicts(lambda d: deckcheck.check(d, format="tcg", date=DATE, pool=pool))

    def reused() -> list[str]:
        return verdicts(checker.check)

    def yardstick() -> list[str]:
        return [plain.verdict(p) for p in files]

    ours, theirs = readme(), yardstick()  # also warms every cache
    same = sum(a == b for a, b in zip(ours, theirs, strict=True))
    runs: dict[str, list[float]] = {"readme": [], "reused": [], "yardstick": []}
    fns = {"readme": readme, "reused": reused, "yardstick": yardstick}
    for _ in range(repeat):  # the three take turns, so a burst of load hits them alike
        for key, fn in fns.items():
            gc.collect()
            runs[key].append(_cpu(fn))
    n = len(files)
    speed = {k: n / statistics.median(v) for k, v in runs.items()}
    base = speed["yardstick"]
    counts = {v: ours.count(v) for v in ("legal", "illegal", "unreadable")}
    print(f"{n} real .ydk files ({counts['legal']} legal, {counts['illegal']} illegal, "
          f"{counts['unreadable']} unreadable under {checker.banlist.name} on {DATE}); "
          f"CPU-time medians of {repeat}, reading included")
    print(f"  yardstick: plain-Python validator  {base:8,.0f} decks/s  (same verdict as "
          f"deckcheck on {same:,} of {n:,} files)")
    if same != n:
        bad = [f for f, a, b in zip(files, ours, theirs, strict=True) if a != b][:5]
        print(f"    verdicts differ on: {', '.join(Path(b).name for b in bad)}")
    for key, label in (("readme", "read_deck + deckcheck.check"),
                       ("reused", "read_deck + Checker reused")):
        s = speed[key]
        ok = s >= GOAL
        ok_ratio = s / base >= GOAL_RATIO
        print(f"  {label:<34} {s:8,.0f} decks/s = {s / base:.2f}x the yardstick; goal "
              f"{GOAL:,.0f}/s: {'met' if ok else 'NOT met'}; goal as a ratio "
              f"({GOAL_RATIO:.2f}x): {'met' if ok_ratio else 'NOT met'}")


# -- cold cards ----------------------------------------------------------------------------

def cold_cards(repeat: int) -> None:
    """`read_deck` + `Checker.check` over every real file with a fresh store and `Checker`
    each run (every card met for the first time), against the same loop with every card
    known and against the plain validator built from the store in the run."""
    import deckcheck
    from deckcheck.cards.store import StorePool
    from deckcheck.errors import DeckcheckError
    from deckcheck.gc_pause import gc_paused

    store = store_path()
    files = [str(p) for p in ydk_files()]
    distinct: set[int] = set()

    def loop(checker: deckcheck.Checker, pool: StorePool) -> None:
        for path in files:
            try:
                deck = deckcheck.read_deck(path, pool)
            except DeckcheckError:
                continue
            checker.check(deck)

    def fresh() -> tuple[deckcheck.Checker, StorePool]:
        pool = StorePool(store)
        return deckcheck.Checker("tcg", DATE, pool=pool), pool

    def cold() -> None:
        loop(*fresh())

    def known(state: tuple[deckcheck.Checker, StorePool]) -> Callable[[], None]:
        return lambda: loop(*state)

    def plain() -> None:
        checker, _ = fresh()
        validator = PlainValidator(store, checker.format, checker.banlist)
        for path in files:
            validator.verdict(path)

    warm_state = fresh()
    loop(*warm_state)  # every card of the files known to this checker from now on
    distinct.update(warm_state[0]._facts)
    runs: dict[str, list[float]] = {"cold": [], "known": [], "plain": [], "cold, GC on": []}
    fns = {"known": known(warm_state), "cold": cold, "plain": plain}
    for _ in range(repeat):  # taking turns, so a burst of load hits them alike
        for key, fn in fns.items():
            gc.collect()
            with gc_paused():
                runs[key].append(_cpu(fn))
        gc.collect()
        runs["cold, GC on"].append(_cpu(cold))
    n = len(files)
    per = {k: statistics.median(v) / n * 1e6 for k, v in runs.items()}
    best = {k: min(v) / n * 1e6 for k, v in runs.items()}
    ratio = per["cold"] / per["known"]
    print(f"cold cards: read_deck + Checker.check over the {n:,} real files ({len(distinct):,} "
          f"different passcodes), a fresh card store and Checker each run, cyclic GC paused "
          f"as in `event check`; CPU-time medians of {repeat}")
    print(f"  yardstick: the same loop, every card known     {per['known']:6.1f} µs/deck")
    print(f"  yardstick: plain-Python validator, its tables built from the store in the run "
          f"{per['plain']:6.1f} µs/deck")
    print(f"  every card looked up for the first time        {per['cold']:6.1f} µs/deck = "
          f"{ratio:.2f}x the known-cards loop (the first looks: "
          f"{per['cold'] - per['known']:.1f} µs/deck); goal <= {CARDS_GOAL:.0f} µs/deck: "
          f"{'met' if per['cold'] <= CARDS_GOAL else 'NOT met'}; goal as a ratio "
          f"(<= {CARDS_GOAL_RATIO:.2f}x): {'met' if ratio <= CARDS_GOAL_RATIO else 'NOT met'}")
    print(f"  the same with cyclic GC on (a library caller's default) "
          f"{per['cold, GC on']:6.1f} µs/deck")
    print(f"  best runs (least disturbed): cards known {best['known']:.1f}, first looked up "
          f"{best['cold']:.1f} µs/deck = {best['cold'] / best['known']:.2f}x")


# -- cold start ----------------------------------------------------------------------------

def _medians(cmds: dict[str, tuple[list[str], dict[str, str]]], repeat: int
             ) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall time and median CPU time (user + system of the child process) of each
    command, the commands taking turns (so a burst of load on the machine hits them alike),
    after one untimed warm-up run each."""
    import resource

    wall: dict[str, list[float]] = {k: [] for k in cmds}
    cpu: dict[str, list[float]] = {k: [] for k in cmds}

    def used() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    for i in range(repeat + 1):
        for key, (cmd, env) in cmds.items():
            c, t = used(), time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False, cwd=ROOT)
            if i:
                wall[key].append(time.perf_counter() - t)
                cpu[key].append(used() - c)
    return ({k: statistics.median(v) for k, v in wall.items()},
            {k: statistics.median(v) for k, v in cpu.items()})


def _checkable_deck(env: dict[str, str], exe: list[str]) -> tuple[Path, int]:
    """The first real deck `deckcheck check` gives a verdict on (exit 0 or 1)."""
    for path in ydk_files():
        code = subprocess.run([*exe, str(path)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False, cwd=ROOT).returncode
        if code in (0, 1):
            return path, code
    raise SystemExit("no deck of the corpus gets a verdict: the cold-start row cannot run")


def cold_start(repeat: int) -> None:
    """`deckcheck check` in a fresh process against the floor of any click + pydantic tool.

    Byte code is cached (in a temporary folder), as it is for an installed package, even
    when PYTHONDONTWRITEBYTECODE is set in the calling shell."""
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        base.update(PYTHONPYCACHEPREFIX=tmp, NO_COLOR="1")
        builtin = dict(base, DECKCHECK_DB=str(Path(tmp) / "no-store.sqlite"))
        store = dict(base, DECKCHECK_DB=str(store_path()))
        exe = [sys.executable, "-m", "deckcheck", "check"]
        example = ROOT / "examples" / "tcg-legal.ydk"
        real, code = _checkable_deck(store, exe)
        ex_code = subprocess.run([*exe, str(example)], env=builtin, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, check=False, cwd=ROOT).returncode
        cmds = {
            "python -c pass": ([sys.executable, "-c", "pass"], builtin),
            "python -c 'import pydantic, click'": (
                [sys.executable, "-c", "import pydantic, click"], builtin),
            f"deckcheck check {example.name} (built-in set, exit {ex_code})": (
                [*exe, str(example)], builtin),
            f"deckcheck check {real.name} (imported store, exit {code})": (
                [*exe, str(real)], store),
        }
        wall, cpu = _medians(cmds, repeat)
    print(f"cold start, medians of {repeat} runs (byte code cached), wall time and CPU time "
          "(user + system) of the process; multiples of `python -c pass` and of the yardstick "
          f"`python -c 'import pydantic, click'` from the same run. Goal: <= {COLD_GOAL}x the "
          "yardstick.")
    for label, med in (("wall", wall), ("CPU", cpu)):
        floor, yard = med["python -c pass"], med["python -c 'import pydantic, click'"]
        print(f"  {label} time:")
        for key, t in med.items():
            ratio = t / yard
            verdict = ""
            if key.startswith("deckcheck"):
                verdict = f"  goal <= {COLD_GOAL}x: {'met' if ratio <= COLD_GOAL else 'NOT met'}"
            print(f"    {key:<62} {t * 1000:5.0f} ms {t / floor:5.1f}x {ratio:5.2f}x{verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cold-repeat", type=int, default=11)
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--cold-only", action="store_true", help="only the cold-start part")
    ap.add_argument("--cards-only", action="store_true", help="only the cold-cards part")
    args = ap.parse_args()
    need_data()
    if args.cards_only:
        cold_cards(args.repeat)
        return
    if not args.cold_only:
        throughput(args.repeat)
        cold_cards(args.repeat)
    if not args.skip_cold:
        cold_start(args.cold_repeat)


if __name__ == "__main__":
    main()

"""How fast deckcheck checks decks, against yardsticks measured in the same run (issues 13, 24).

Every part runs on the card pools a user has after the README's steps (issue 24): the
built-in pool of every card (nothing imported) and a store imported from every card source
of ../shared/data/cards (YGOPRODeck dump, YAML Yugi, every EDOPro cdb and mappings.json,
YGOJSON: dates, so the release-date, card-pool and prerelease-id rules are on), imported once
and cached in the temp folder. `--pool` picks one.

1. Throughput over the real .ydk corpus (../shared/data/decks), one core, CPU-time medians,
   reading always included (a figure that re-checks decks already read says nothing about
   checking files):
   - the README's library path: `deckcheck.read_deck(path, pool)` + `deckcheck.check(deck,
     format="tcg", date=…, pool=pool)` per file;
   - a `Checker` made once, then `read_deck` + `checker.check` per file;
   - the yardstick: a plain-Python validator written below, over the same pool's data read
     as plain Python (the built-in TSVs, or the store's rows; cards, ids, release dates and
     names in dicts beforehand) and the same list, reading each file's bytes and parsing them
     itself. It must give the same verdict as deckcheck on every file (legal, illegal,
     unreadable); the run says how many agree.
   Goal (issue 24): >= 0.8x the yardstick with the same verdicts; issue 13's 5,000 decks/s is
   printed too.
2. Cold cards: the same `read_deck` + `Checker.check` over the 3,753 real files with a fresh
   card pool and a fresh `Checker` each run, so that each of the ~10,000 different cards the
   files hold is looked up for the first time (store query, card, facts) as in an event of
   that many registrations; cyclic GC paused, as `deckcheck event check` runs it (the same
   loop with the collector on is printed too). Goal (issue 13's event row, whose per-deck work
   this is): <= 120 µs/deck. Yardsticks from the same run: the same loop again with every card
   known (the floor: cold can only add the first look at each card), and the plain-Python
   validator above with its tables built in the run. The goal as a ratio: the first look at
   the cards adds at most 15% to the known-cards loop. `--cards-only` runs just this part.
3. Cold start: the installed `deckcheck check` console script on one deck (it must exit 0 or
   1: a file that exits 2 measures the error path, not a check) in a fresh process, with the
   built-in pool (empty home, no DECKCHECK_DB) and with the store of every source, against
   `python -c pass` and `python -c "import click"` (the command imports no pydantic: the run
   says so, from `-X importtime`), the commands taking turns; medians of wall time and of the
   process's CPU time (steadier on a loaded machine). Goal (issue 24): <= 1.5x
   `import click`. `--cold-only` runs just this part.

    python benchmarks/bench_check.py [--repeat 5] [--cold-repeat 11] [--pool built-in]
                                     [--skip-cold | --cold-only | --cards-only]
"""

from __future__ import annotations

import argparse
import gc
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import (  # noqa: E402
    POOLS,
    ROOT,
    builtin_env,
    fresh_builtin_pool,
    full_store_path,
    need_data,
    ydk_files,
)
from _timing import command_medians, installed_env, machine_check, machine_line  # noqa: E402

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Deck
    from deckcheck.reports.model import Report

DATE = "2026-06-01"
GOAL = 5000.0  # decks per second (issue 13)
GOAL_RATIO = 0.8  # x the plain-Python validator, same verdicts (issue 24)
COLD_GOAL = 1.5  # x `python -c "import click"` (issue 24: the command never imports pydantic)
CARDS_GOAL = 120.0  # µs per deck, every card looked up for the first time in the run
CARDS_GOAL_RATIO = 1.15  # x the same loop with every card known


# -- the yardstick: a plain validator ------------------------------------------------------

def plain_tables(pool: str) -> tuple[dict[int, dict[str, Any]], list[tuple[int, int]]]:
    """The yardstick's tables, read as plain Python from the data the pool `pool` ("built-in"
    or "every source") holds: passcode -> the card's name, rule name, kind, frame, alternate
    passcodes, scopes and first TCG release; and every id (passcode, alternate artwork,
    prerelease id) -> its card's passcode."""
    cards: dict[int, dict[str, Any]] = {}
    ids: list[tuple[int, int]] = []
    if pool == "built-in":
        from deckcheck.cards import builtin

        folder = Path(builtin.__file__).parent
        cols = {c: i for i, c in enumerate(builtin.COLUMNS)}
        for line in (folder / builtin.CARDS_FILE).read_text("utf-8").splitlines():
            if not line or line[0] == "#":
                continue
            f = line.split("\t")
            pc = int(f[0])
            released = dict(r.split("=", 1) for r in f[cols["released"]].split(",") if r)
            cards[pc] = {"passcode": pc, "name": f[cols["name"]],
                         "rule_name": f[cols["rule_name"]] or f[cols["name"]],
                         "kind": f[cols["kind"]], "frame": f[cols["frame"]],
                         "alt_passcodes": [int(a) for a in f[cols["alt"]].split(",") if a],
                         "scopes": [x for x in f[cols["scopes"]].split(",") if x],
                         "released": released.get("tcg")}
            ids.append((pc, pc))
        for line in (folder / builtin.IDS_FILE).read_text("utf-8").splitlines():
            if line and line[0] != "#":
                id_, card, _ = line.split("\t")
                ids.append((int(id_), int(card)))
        return cards, ids
    con = sqlite3.connect(full_store_path().resolve().as_uri() + "?mode=ro", uri=True)
    for pc, data in con.execute("SELECT passcode, data FROM cards"):
        c = json.loads(data)
        c["released"] = (c.get("released") or {}).get("tcg")
        cards[pc] = c
    ids = list(con.execute("SELECT id, passcode FROM ids"))
    con.close()
    return cards, ids


class PlainValidator:
    """The TCG rules that decide a verdict, over plain dicts: deck sizes, unknown ids, tokens
    and skills, Main/Extra placement, cards outside the region, release dates, copies by rule
    name (across alternate artworks and cards treated as another name) and list limits."""

    def __init__(self, pool: str, fmt: object, banlist: object) -> None:
        from deckcheck.cards.model import rule_key_of

        cards, ids = plain_tables(pool)
        limits: dict[int, int] = {e.passcode: e.limit for e in banlist.entries  # type: ignore[attr-defined]
                                  if e.limit is not None}
        excluded = set(fmt.excluded_scopes)  # type: ignore[attr-defined]
        self.sizes = {s: (getattr(fmt, s).min, getattr(fmt, s).max)
                      for s in ("main", "extra", "side")}
        self.copies: int = fmt.copies  # type: ignore[attr-defined]
        self.date = DATE
        by_name: dict[str, int] = {}
        for pc, c in cards.items():
            by_name.setdefault(c["name"], pc)

        def strictest(codes: list[int]) -> int | None:
            found = [limits[p] for p in codes if p in limits]
            return min(found) if found else None

        self.facts: dict[int, tuple[str, str | None, bool, int | None, int | None]] = {}
        for id_, pc in ids:
            c = cards[pc]
            own = [pc, *c.get("alt_passcodes", ())]
            kind = c["kind"]
            frame = c["frame"]
            place = None if kind in ("token", "skill") else (
                "extra" if frame.split("_")[0] in ("fusion", "synchro", "xyz", "link")
                else "main")
            released = c["released"]
            bad = (place is None or bool(set(c.get("scopes", ())) & excluded)
                   or (released is not None and released > DATE))
            named = None
            if c["name"] != c["rule_name"] and c["rule_name"] in by_name:
                other = cards[by_name[c["rule_name"]]]
                named = strictest([other["passcode"], *other.get("alt_passcodes", ())])
            self.facts[id_] = (rule_key_of(c["rule_name"]), place, bad,
                               strictest([id_, *own]), named)

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


def open_pool(name: str) -> CardPool:
    """A new pool of the kind a user has: the built-in pool of every card (no store) or the
    store imported from every card source; as a fresh process has it (no release-date cell
    remembered from an earlier pool)."""
    if name == "built-in":
        return fresh_builtin_pool()
    from deckcheck.cards.compact import forget_released
    from deckcheck.cards.store import StorePool

    forget_released()
    return StorePool(full_store_path())


def throughput(repeat: int, pool_name: str) -> None:
    import deckcheck
    from deckcheck.errors import DeckcheckError

    pool = open_pool(pool_name)
    files = [str(p) for p in ydk_files()]
    checker = deckcheck.Checker("tcg", DATE, pool=pool)
    assert checker.banlist is not None
    plain = PlainValidator(pool_name, checker.format, checker.banlist)

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
    before = machine_check()
    for _ in range(repeat):  # the three take turns, so a burst of load hits them alike
        for key, fn in fns.items():
            gc.collect()
            runs[key].append(_cpu(fn))
    after = machine_check()
    n = len(files)
    speed = {k: n / statistics.median(v) for k, v in runs.items()}
    base = speed["yardstick"]
    counts = {v: ours.count(v) for v in ("legal", "illegal", "unchecked", "unreadable")}
    print(f"[{pool_name} pool, {len(pool):,} cards] {n} real .ydk files ({counts['legal']} "
          f"legal, {counts['illegal']} illegal, {counts['unchecked']} unchecked, "
          f"{counts['unreadable']} unreadable under {checker.banlist.name} on {DATE}); "
          f"CPU-time medians of {repeat}, reading included")
    print(f"  {machine_line(before, after)}")
    print(f"  yardstick: plain-Python validator  {base:8,.0f} decks/s  (same verdict as "
          f"deckcheck on {same:,} of {n:,} files)")
    if same != n:
        bad = [f for f, a, b in zip(files, ours, theirs, strict=True) if a != b][:5]
        print(f"    verdicts differ on: {', '.join(Path(b).name for b in bad)}")
    for key, label in (("readme", "read_deck + deckcheck.check"),
                       ("reused", "read_deck + Checker reused")):
        s = speed[key]
        ok = s >= GOAL
        ok_ratio = s / base >= GOAL_RATIO and same == n
        print(f"  {label:<34} {s:8,.0f} decks/s = {s / base:.2f}x the yardstick; goal "
              f">= {GOAL_RATIO:.1f}x with the same verdicts: {'met' if ok_ratio else 'NOT met'}"
              f" (issue 13's {GOAL:,.0f}/s: {'met' if ok else 'NOT met'})")


# -- cold cards ----------------------------------------------------------------------------

def cold_cards(repeat: int, pool_name: str) -> None:
    """`read_deck` + `Checker.check` over every real file with a fresh store and `Checker`
    each run (every card met for the first time), against the same loop with every card
    known and against the plain validator built from the store in the run."""
    import deckcheck
    from deckcheck.errors import DeckcheckError
    from deckcheck.gc_pause import gc_paused

    files = [str(p) for p in ydk_files()]
    distinct: set[int] = set()

    def loop(checker: deckcheck.Checker, pool: CardPool) -> None:
        for path in files:
            try:
                deck = deckcheck.read_deck(path, pool)
            except DeckcheckError:
                continue
            checker.check(deck)

    def fresh() -> tuple[deckcheck.Checker, CardPool]:
        pool = open_pool(pool_name)
        return deckcheck.Checker("tcg", DATE, pool=pool), pool

    def cold() -> None:
        loop(*fresh())

    def known(state: tuple[deckcheck.Checker, CardPool]) -> Callable[[], None]:
        return lambda: loop(*state)

    def plain() -> None:
        checker, _ = fresh()
        validator = PlainValidator(pool_name, checker.format, checker.banlist)
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
    print(f"[{pool_name} pool] cold cards: read_deck + Checker.check over the {n:,} real "
          f"files ({len(distinct):,} "
          f"different passcodes), a fresh card pool and Checker each run, cyclic GC paused "
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


def _checkable_deck(env: dict[str, str], exe: list[str]) -> tuple[Path, int]:
    """The first real deck `deckcheck check` gives a verdict on (exit 0 or 1)."""
    for path in ydk_files():
        code = subprocess.run([*exe, str(path)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False, cwd=ROOT).returncode
        if code in (0, 1):
            return path, code
    raise SystemExit("no deck of the corpus gets a verdict: the cold-start row cannot run")


def _imports_pydantic(cmd: list[str], env: dict[str, str]) -> bool:
    """Whether the command imports pydantic (`python -X importtime`, which lists every
    module a process imports)."""
    traced = ([sys.executable, "-X", "importtime", *cmd[1:]] if cmd[0] == sys.executable
              else [sys.executable, "-X", "importtime", *cmd])  # the console script's file
    err = subprocess.run(traced, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         check=False, cwd=ROOT).stderr
    return any(line.rsplit("|", 1)[-1].strip().split(".")[0] == "pydantic"
               for line in err.splitlines() if line.startswith("import time:"))


def cold_start(repeat: int) -> None:
    """`deckcheck check` in a fresh process (the installed console script, as a user runs
    it) against the floor of any click tool, with the built-in pool (nothing imported: empty
    home, no DECKCHECK_DB) and with the store of every card source.

    Byte code is cached (in a temporary folder), as it is for an installed package, even
    when PYTHONDONTWRITEBYTECODE is set in the calling shell."""
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as tmp:
        builtin = installed_env(builtin_env(tmp), PYTHONPYCACHEPREFIX=tmp, NO_COLOR="1")
        store = dict(builtin, DECKCHECK_DB=str(full_store_path()))
        script = Path(sys.executable).parent / "deckcheck"
        exe = ([str(script), "check"] if script.is_file()
               else [sys.executable, "-m", "deckcheck", "check"])
        example = ROOT / "examples" / "tcg-legal.ydk"
        real, code = _checkable_deck(store, exe)
        ex_code = subprocess.run([*exe, str(example)], env=builtin, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, check=False, cwd=ROOT).returncode
        b_real, b_code = _checkable_deck(builtin, exe)
        cmds = {
            "python -c pass": ([sys.executable, "-c", "pass"], builtin),
            "python -c 'import click'": ([sys.executable, "-c", "import click"], builtin),
            f"deckcheck check {example.name} (built-in pool, exit {ex_code})": (
                [*exe, str(example)], builtin),
            f"deckcheck check {b_real.name} (built-in pool, exit {b_code})": (
                [*exe, str(b_real)], builtin),
            f"deckcheck check {real.name} (every source, exit {code})": (
                [*exe, str(real)], store),
        }
        pyd = {k: _imports_pydantic(c, env) for k, (c, env) in cmds.items()
               if k.startswith("deckcheck")}
        wall, cpu = command_medians(cmds, repeat, ROOT, exit_codes={0, 1})
    print(f"cold start (`{Path(exe[0]).name} check`), medians of {repeat} "
          "runs (byte code cached), wall time and CPU time (user + system) of the process; "
          "multiples of `python -c pass` and of the yardstick `python -c 'import click'` from "
          f"the same run. Goal: <= {COLD_GOAL}x the yardstick.")
    for key, imported in pyd.items():
        print(f"  {key}: imports pydantic: {'yes' if imported else 'no'}")
    for label, med in (("wall", wall), ("CPU", cpu)):
        floor, yard = med["python -c pass"], med["python -c 'import click'"]
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
    ap.add_argument("--pool", choices=POOLS, action="append",
                    help="measure this pool only (repeatable; default: both)")
    args = ap.parse_args()
    need_data()
    pools = args.pool or list(POOLS)
    full_store_path()  # imported once, before any timing
    if args.cards_only:
        for name in pools:
            cold_cards(args.repeat, name)
        return
    if not args.cold_only:
        for name in pools:
            throughput(args.repeat, name)
        for name in pools:
            cold_cards(args.repeat, name)
    if not args.skip_cold:
        cold_start(args.cold_repeat)


if __name__ == "__main__":
    main()

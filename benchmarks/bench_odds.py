"""Benchmark the goldfishing engines, each against its goal and a yardstick in the same run.

Measures (CPU time, one core):
- the exact engine: milliseconds per opening-hand question on a 40-card, 5-role profile
  (goal: <= 1 ms);
- opening-hand Monte Carlo (NumPy) in hands per second (goal: >= 10 M/s), against a
  plain-Python sampler (random.sample per hand, the same evaluation);
- the draw-card path: Monte Carlo on the example deck and its profile (Trade-In, Pot of
  Prosperity, a searcher, named conditions) with every default row measured on the one
  game per hand, going first and going second, in hands per second, the median of 5 runs
  of `--draw-hands` hands each (goal: >= 3 M/s for each seat), against a pure-Python
  simulator of the same turn (shuffle, draw cards by the same policy; success only);
- the exact engine with Pot of Desires and four roles no goal uses (once 63 s): the default
  `odds` report (exact tried to its work limit, then Monte Carlo) and `--exact` (stops at
  the limit), CPU (goal: < 1 s each), beside the same deck with one role (exact in full);
- `--copies` on the example deck (0-3 copies of Ash Blossom, both seats), CPU, beside one
  success rate of the same engine and hand count;
- the default `deckcheck odds examples/tcg-legal.ydk` (exactly what a user runs and reads:
  every default row, both seats, the failing hands, the +-1 copy table) in fresh processes
  from process start, CPU and wall, the median of 9 (goal: < 0.3 s CPU), with the caller's
  environment (not this script's one-thread settings) and deckcheck's bytecode compiled (as
  installed), interleaved with `python -c pass`, `python -c "import numpy"` and `deckcheck
  --help` (the start-up floor) in the same run (`_timing.command_medians`). The card pool
  is the one the caller's environment gives `odds` (a store of every source when the
  README's `cards update` steps were run, else the built-in pool); the command's note says
  which.

    python benchmarks/bench_odds.py [--hands N] [--draw-hands N]
"""

from __future__ import annotations

import os

USER_ENV = dict(os.environ)  # the CLI is timed as a user runs it
os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from _timing import IDLE_MACHINE_CHECK, command_medians, machine_check  # noqa: E402

from deckcheck.cards.model import Card, Frame, Kind  # noqa: E402
from deckcheck.sim.goldfish import exact  # noqa: E402
from deckcheck.sim.goldfish.compiled import CompiledProfile, compile_profile  # noqa: E402
from deckcheck.sim.goldfish.exact import Evaluator, exact_odds  # noqa: E402
from deckcheck.sim.goldfish.profile import load_profile_file, parse_profile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "tcg-legal.ydk"


def _card(pc: int, name: str) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.MONSTER, frame=Frame.EFFECT, level=4,
                rule_name=name)


SPEC = {"Starter A": 3, "Starter B": 3, "Starter C": 2, "Extender A": 3, "Extender B": 2,
        "Ash": 3, "Veiler": 2, "Imperm": 3, "Brick": 2, "Garnet": 1}
PROFILE = {
    "roles": {"starter": ["Starter A", "Starter B", "Starter C"],
              "extender": ["Extender A", "Extender B", "Starter C"],
              "hand trap": ["Ash", "Veiler", "Imperm"],
              "brick": ["Brick"], "garnet": ["Garnet"]},
    "conditions": {"a starter": "starter >= 1",
                   "follow-up": {"any": ["extender >= 1", "starter >= 2"]},
                   "interaction": "hand trap >= 1",
                   "few bricks": "brick <= 1",
                   "no garnet": {"not": "garnet >= 1"}},
}


def build() -> CompiledProfile:
    cards: list[Card] = []
    pc = 1
    for name, n in SPEC.items():
        cards += [_card(pc, name)] * n
        pc += 1
    while len(cards) < 40:
        cards.append(_card(pc, f"Filler {pc}"))
        pc += 1
    return compile_profile(parse_profile(PROFILE), cards, None, "bench")


def example() -> CompiledProfile:
    from deckcheck.cards.builtin import builtin_pool
    from deckcheck.decks.files import read_deck
    from deckcheck.sim.state import deal_cards

    pool = builtin_pool()
    main, extra = deal_cards(read_deck(str(EXAMPLE), pool), pool)
    prof = EXAMPLE.with_suffix(".profile.toml")
    return compile_profile(load_profile_file(prof), main, pool, str(prof), extra=len(extra))


def cpu(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.process_time()
    fn()
    return time.process_time() - t


def median_of(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Median CPU seconds of `repeat` calls of `fn` (CPU time: the shared machine's load
    moves wall time far more)."""
    return statistics.median(cpu(fn) for _ in range(repeat))


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def _counts(cards: list[int], m: int) -> tuple[int, ...]:
    r = [0] * m
    for c in cards:
        r[c] += 1
    return tuple(r)


def python_draw_turn(cp: CompiledProfile, hands: int, seed: int) -> int:
    """The yardstick for the draw-card path: turn 1 going first, one hand at a time in plain
    Python, by the same policy (`play`) and the same goal evaluation."""
    from deckcheck.sim.goldfish import play

    ev = Evaluator(cp, cp.success)
    order_of = play.play_order(cp)
    pref = play.preference(cp)
    m = len(cp.K)
    layout = [c for c, n in enumerate(cp.K) for _ in range(n)]
    rng = random.Random(seed)
    size = cp.rules.hand_size
    wins = 0
    for _ in range(hands):
        deck = rng.sample(layout, len(layout))
        k = list(_counts(deck[:size], m))
        top, bottom = deck[size:], []
        st = play.TurnState(extra=cp.extra_size)
        while not ev.succeeds(tuple(k), _counts(top + bottom, m)):
            left = len(top) + len(bottom)
            d = next((d for d in order_of
                      if play.playable(cp, d, tuple(k), left, sum(k), st)), None)
            if d is None:
                break
            b = cp.behaviours[d]
            draw, excavate = play.amounts(b, st.extra)
            st = play.after_play(cp, d, st)
            if b.is_spent:
                k[d] -= 1
            rest = _counts(top + bottom, m)
            if d in cp.costs:
                members = cp.class_members(cp.costs[d])
                c = play.remove_choice(members, k, lambda c, k=k, rest=rest: ev.succeeds(
                    tuple(x - (i == c) for i, x in enumerate(k)), rest))
                if c is not None:
                    k[c] -= 1
            if draw:
                for c in top[:draw]:
                    k[c] += 1
                top = top[draw:]
            elif excavate:
                seen, top = top[:excavate], top[excavate:]
                after = _counts(top + bottom, m)
                good = [t for t in pref if t in seen and ev.succeeds(
                    tuple(x + (i == t) for i, x in enumerate(k)),
                    tuple(x + seen.count(i) - (i == t) for i, x in enumerate(after)))]
                pick = good[0] if good else next(t for t in pref if t in seen)
                seen.remove(pick)
                k[pick] += 1
                bottom += seen
        else:
            wins += 1
    return wins


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=5_000_000)
    ap.add_argument("--python-hands", type=int, default=100_000)
    ap.add_argument("--draw-hands", type=int, default=1_000_000)
    ap.add_argument("--python-draw-hands", type=int, default=20_000)
    args = ap.parse_args()
    print(f"machine check: sum(range(10**7)) takes {machine_check():.2f} s (about "
          f"{IDLE_MACHINE_CHECK:.2f} s on an idle core); rates below are per CPU second")
    cp = build()
    print(f"deck: 40 cards, {len(cp.classes)} classes, 5 roles, "
          f"{len(cp.success)} DNF term(s) for success")

    goals = {"success": cp.success}

    def cold() -> None:  # no cached hand vectors or compiled conditions
        exact.hand_vectors.cache_clear()
        exact._compile_checks.cache_clear()
        exact_odds(cp, 5, goals=goals)

    cold_s = median_of(cold, 31)
    exact_s = median_of(lambda: exact_odds(cp, 5, goals=goals), 51)
    res = exact_odds(cp, 5)
    p = float(res.probabilities["success"])
    print(f"exact, first question:       {cold_s * 1e3:8.3f} ms (median of 31)   goal <= 1 ms: "
          f"{verdict(cold_s <= 1e-3)}   ({res.vectors} hand vectors, p = {p:.6f})")
    print(f"exact, repeated question:    {exact_s * 1e3:8.3f} ms   (hand vectors and compiled "
          f"conditions cached, as in the +-1 copy table)")

    import numpy as np  # noqa: F401  (imported before timing the Monte Carlo engine)

    from deckcheck.sim.goldfish.montecarlo import simulate

    simulate(cp, 10_000, seed=0, goals=goals)  # warm-up
    box: dict[str, object] = {}
    mc_rate = statistics.median(
        args.hands / cpu(lambda run=run: box.update(mc=simulate(cp, args.hands, seed=1 + run,
                                                                 goals=goals)))
        for run in range(3))
    mc = box["mc"]
    lo, hi = mc.interval()  # type: ignore[attr-defined]
    ev = Evaluator(cp, cp.success)
    deck = [i for i, c in enumerate(cp.classes) for _ in range(c.size)]
    m = len(cp.classes)
    rng = random.Random(1)

    def python_sampler() -> None:
        wins = 0
        for _ in range(args.python_hands):
            k = [0] * m
            for c in rng.sample(deck, 5):
                k[c] += 1
            wins += ev.ok(tuple(k))
        box["py"] = wins

    py_rate = args.python_hands / cpu(python_sampler)
    print(f"opening hands, Monte Carlo:  {mc_rate / 1e6:8.2f} M hands/s (median of 3 runs)   "
          f"goal >= 10 M/s: "
          f"{verdict(mc_rate >= 10e6)}   (p = {mc.rate():.6f}, 95% CI "  # type: ignore
          f"[{lo:.6f}, {hi:.6f}], exact inside: {lo <= p <= hi})")
    print(f"  yardstick, plain Python (random.sample): {py_rate / 1e6:.3f} M hands/s; "
          f"ratio {mc_rate / py_rate:.0f}x")

    ex = example()
    py_d_s = cpu(lambda: box.update(pyd=python_draw_turn(ex, args.python_draw_hands, 3)))
    py_d_rate = args.python_draw_hands / py_d_s
    py_p = int(box["pyd"]) / args.python_draw_hands  # type: ignore[call-overload]
    for second in (False, True):
        sg = ex.goals(second)  # every default row, measured on the one game per hand
        simulate(ex, 10_000, seed=0, goals=sg, going_second=second)  # warm-up
        rates = []
        for run in range(5):
            d_s = cpu(lambda run=run, sg=sg, second=second: box.update(dr=simulate(
                ex, args.draw_hands, seed=2 + run, goals=sg, going_second=second)))
            rates.append(args.draw_hands / d_s)
        d_rate = statistics.median(rates)
        dr = box["dr"]
        dlo, dhi = dr.interval()  # type: ignore[attr-defined]
        print(f"draw cards (example deck: Trade-In, Pot of Prosperity, a searcher), Monte "
              f"Carlo, all {len(sg)} rows, going {'second' if second else 'first'}: "
              f"{d_rate / 1e6:.2f} M hands/s (median of 5 runs of {args.draw_hands:,}; "
              f"{min(rates) / 1e6:.2f}-{max(rates) / 1e6:.2f})   goal >= 3 M/s: "
              f"{verdict(d_rate >= 3e6)}   (p = {dr.rate():.4f}, 95% CI "  # type: ignore
              f"[{dlo:.4f}, {dhi:.4f}])")
    print(f"  yardstick, pure-Python simulator of turn 1 going first: {py_d_rate / 1e6:.3f} "
          f"M hands/s (p = {py_p:.4f} on {args.python_draw_hands:,} hands)")

    desires_and_copies(ex)

    script = Path(sys.executable).parent / "deckcheck"
    exe = [str(script)] if script.is_file() else [
        sys.executable, "-c", "from deckcheck.cli.main import cli; cli()"]
    env = USER_ENV
    commands = {"odds": ([*exe, "odds", str(EXAMPLE.relative_to(ROOT))], env),
                "pass": ([sys.executable, "-c", "pass"], env),
                # NumPy as `odds` loads it: one BLAS thread unless the user set it
                # (`cli/sim.py` `_one_blas_thread`); with a thread per core the yardstick
                # costs ~0.1 s more CPU than what `odds` pays for the same import
                "numpy": ([sys.executable, "-c", "import numpy"],
                          {**env, "OPENBLAS_NUM_THREADS": env.get("OPENBLAS_NUM_THREADS", "1")}),
                "help": ([*exe, "--help"], env)}
    # an installed package has its bytecode; PYTHONDONTWRITEBYTECODE (set in some shells)
    # would otherwise compile deckcheck's modules again in every fresh process
    import compileall

    compileall.compile_dir(str(ROOT / "deckcheck"), quiet=1)
    shown = subprocess.run(commands["odds"][0], capture_output=True, text=True, cwd=ROOT,
                           env=env, check=True)
    pool_note = next((ln for ln in shown.stderr.splitlines() if "card pool" in ln),
                     "(the card store)")
    wall, cpu_s = command_medians(commands, 9, ROOT, exit_codes={0})
    print(f"default `deckcheck odds examples/tcg-legal.ydk` ({len(shown.stdout.splitlines())} "
          f"lines printed, as a user runs it): {cpu_s['odds']:.3f} s CPU "
          f"({wall['odds']:.3f} s wall), median of 9 fresh processes   goal < 0.3 s CPU: "
          f"{verdict(cpu_s['odds'] < 0.3)}")
    print(f"  card pool: {pool_note[:90]}")
    print(f"  yardsticks in the same run, CPU (wall): `python -c pass` {cpu_s['pass']:.3f} s "
          f"({wall['pass']:.3f}); `python -c \"import numpy\"` {cpu_s['numpy']:.3f} s "
          f"({wall['numpy']:.3f}); `deckcheck --help` (the CLI's start-up) {cpu_s['help']:.3f} "
          f"s ({wall['help']:.3f})")
    print(f"  odds / `import numpy`: {cpu_s['odds'] / cpu_s['numpy']:.2f}x CPU; the odds work "
          f"beyond the CLI's start-up: {cpu_s['odds'] - cpu_s['help']:.3f} s CPU")


def desires(roles: int) -> CompiledProfile:
    """40 cards: 2 Pot of Desires, 3 targets, `roles` roles of 3 cards no goal uses."""
    cards = [Card(passcode=1, name="Pot of Desires", kind=Kind.SPELL, frame=Frame.SPELL,
                  rule_name="Pot of Desires")] * 2 + [_card(2, "Target")] * 3
    for i in range(roles):
        cards += [_card(10 + i, f"Role {i}")] * 3
    cards += [_card(100 + i, f"Filler {i}") for i in range(40 - len(cards))]
    data = {"roles": {f"r{i}": [f"Role {i}"] for i in range(roles)}, "success": "Target",
            "conditions": {"t": "Target"}}
    return compile_profile(parse_profile(data), cards, None, "desires")


def desires_and_copies(ex: CompiledProfile) -> None:
    from deckcheck.errors import ExactTooLarge
    from deckcheck.sim.goldfish.copies import copies_curve
    from deckcheck.sim.goldfish.report import SENSITIVITY_HANDS, odds, success_at

    box: dict[str, object] = {}
    four = desires(4)
    auto_s = cpu(lambda: box.update(rep=odds(four, mode="auto", seed=1,
                                             with_sensitivity=False)))
    rep = box["rep"]

    def exact_four() -> None:
        try:
            odds(four, mode="exact", with_sensitivity=False)
        except ExactTooLarge as exc:
            box["why"] = str(exc)

    exact_s = cpu(exact_four)
    one_s = cpu(lambda: box.update(one=odds(desires(1), mode="exact",
                                            with_sensitivity=False)))
    print(f"Pot of Desires + 4 unused roles, default odds report (exact to its work limit, "
          f"then Monte Carlo): {auto_s:.2f} s CPU   goal < 1 s: {verdict(auto_s < 1)}   "
          f"(engine: {rep.engine})")  # type: ignore[attr-defined]
    print(f"  --exact: stops at the work limit in {exact_s:.2f} s CPU   goal < 1 s: "
          f"{verdict(exact_s < 1)}   ({box.get('why', 'finished')})")
    print(f"  yardstick, the same deck with 1 role, exact in full: {one_s:.2f} s CPU")
    ash = "Ash Blossom & Joyous Spring"
    c_s = cpu(lambda: box.update(cc=copies_curve(ex, ash, target=0.9, seed=3)))
    one_rate = cpu(lambda: success_at(ex, False, "auto", ex.K, SENSITIVITY_HANDS, 3))
    cc = box["cc"]
    print(f"--copies '{ash}' (0-3 copies, both seats, {cc.method}): "  # type: ignore
          f"{c_s:.2f} s CPU")
    print(f"  yardstick, one success rate by the same engine and hand count: {one_rate:.2f} s "
          f"CPU; ratio {c_s / one_rate:.1f}x (8 rates)")


if __name__ == "__main__":
    main()

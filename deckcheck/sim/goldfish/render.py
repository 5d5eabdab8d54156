"""The goldfishing report for people: `render_text` (what `deckcheck odds` prints without
--json), with the side plan (`render_sided`) and copies (`render_copies`) tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deckcheck.sim.goldfish.derived import render_derived
from deckcheck.sim.goldfish.results import OddsReport, Rate

if TYPE_CHECKING:
    from deckcheck.sim.goldfish.copies import CopiesResult
    from deckcheck.sim.goldfish.side import SidedResult


def _pct(r: Rate) -> str:
    s = f"{r.percent:6.2f}%"
    if r.method == "monte-carlo" and r.low is not None and r.high is not None:
        s += f" ±{(r.high - r.low) * 50:.2f}"
    elif r.fraction and len(r.fraction) <= 9:
        s += f" ({r.fraction})"
    return s


def _delta(base: float, value: float | None, lo: float | None, hi: float | None) -> str:
    if value is None:
        return f"{'—':>7}"
    out = f"{(value - base) * 100:+7.2f}"
    if lo is not None and hi is not None:
        out += f" ±{(hi - lo) * 50:.2f}"
    return out


def render_text(rep: OddsReport) -> str:
    """The report for people: what was run, success per seat and goal, then each part the
    report holds (by turn, draw cards played, deck-outs, failing hands, +-1 copy, side plan,
    copies, A/B)."""
    width = _label_width(rep)
    lines = [*_heading(rep), *_success_table(rep, width), *_by_turn(rep, width),
             *_played(rep), *_failing(rep), *_sensitivity(rep)]
    if rep.sided:
        lines.append("")
        lines.extend(render_sided(rep.sided, {res.going: res.goal().by_turn[0]
                                              for res in rep.results}))
    if rep.copies:
        lines.append("")
        lines.extend(render_copies(rep.copies))
    lines += _comparison(rep)
    return "\n".join(lines) + "\n"


def _heading(rep: OddsReport) -> list[str]:
    """Deck, profile, engine, policy and notes, then a blank line."""
    lines: list[str] = []
    what = f"{rep.deck} ({rep.deck_size} cards)" if rep.deck else f"{rep.deck_size} cards"
    lines.append(f"Deck: {what}")
    lines.append(f"Profile: {rep.profile}")
    eng = rep.engine.replace("monte-carlo", "Monte Carlo")
    hands = {r.hands for res in rep.results for g in res.goals for r in g.by_turn if r.hands}
    if hands:
        eng += f" ({', '.join(f'{h:,}' for h in sorted(hands))} hands, seed {rep.seed}, " \
               f"± is the 95% Wilson interval)"
    lines.append(f"Engine: {eng}")
    lines.append(f"Policy: {rep.policy}")
    for note in rep.notes:
        lines.append(f"Note: {note}")
    lines.append("")
    return lines


def _label_width(rep: OddsReport) -> int:
    """The width of the row labels of the success tables."""
    goals = rep.results[0].goals
    return max([len(goals[0].name), *(len(g.name) + 2 for g in goals[1:]),
                *(len(r.name) + 2 + 17 * (r.kind == "count") for r in rep.results[0].rows)]
               ) + 2


def _success_table(rep: OddsReport, width: int) -> list[str]:
    """Turn 1's success per seat: the goal, each condition, each derived row."""
    lines: list[str] = []
    seats = [r.going for r in rep.results]
    header = "".join(f"{'going ' + s:>22}" for s in seats)
    lines.append(f"{'':{width}}{header}")
    for gi, goal in enumerate(rep.results[0].goals):
        name = goal.name if gi == 0 else "  " + goal.name
        cells = "".join(f"{_pct(res.goals[gi].by_turn[0]):>22}" for res in rep.results)
        lines.append(f"{name:{width}}{cells}")
    for ri, dr in enumerate(rep.results[0].rows):
        label = f"  {dr.name}" + (" (expected cards)" if dr.kind == "count" else "")
        cells = "".join(f"{render_derived(res.rows[ri].by_turn[0], dr.kind):>22}"
                        for res in rep.results)
        lines.append(f"{label:{width}}{cells}")
    return lines


def _by_turn(rep: OddsReport, width: int) -> list[str]:
    """Success by turn per seat (none for turn 1 alone)."""
    lines: list[str] = []
    turns = len(rep.results[0].goal().by_turn)
    if turns > 1:
        lines.append("")
        lines.append("Success by turn:")
        lines.append(f"{'':{width}}" + "".join(f"{'turn ' + str(t):>18}"
                                              for t in range(1, turns + 1)))
        for res in rep.results:
            cells = "".join(f"{_pct(r):>18}" for r in res.goal().by_turn)
            lines.append(f"{'going ' + res.going:{width}}{cells}")
    return lines


def _played(rep: OddsReport) -> list[str]:
    """The draw cards played and the deck-outs, per seat."""
    lines: list[str] = []
    for res in rep.results:
        if res.played:
            p0 = res.played[0]
            when = "turn 1" if p0.turn == 1 else f"by turn {p0.turn}"
            cards = ", ".join(f"{p.card} {p.probability * 100:.2f}%" for p in res.played)
            lines.append(f"Draw cards played (going {res.going}, {when}, share of hands): "
                         f"{cards}")
    for res in rep.results:
        if res.deck_outs:
            lines.append(f"Deck-outs going {res.going}: {res.deck_outs} hands.")
    return lines


def _failing(rep: OddsReport) -> list[str]:
    """The most common failing hands of the first seat."""
    lines: list[str] = []
    if rep.results[0].failing:
        lines.append("")
        lines.append(f"Most common failing hands (going {rep.results[0].going}, turn 1):")
        for fh in rep.results[0].failing:
            desc = ", ".join(f"{n} {label}" for label, n in fh.cards.items())
            lines.append(f"  {fh.probability * 100:6.2f}%  {desc}")
    return lines


def _sensitivity(rep: OddsReport) -> list[str]:
    """The +-1 copy table."""
    lines: list[str] = []
    if rep.sensitivity:
        lines.append("")
        s0 = rep.sensitivity[0]
        how = s0.method if s0.hands is None else (
            f"Monte Carlo, {s0.hands:,} hands each, the same hands as without the change; "
            f"± is the 95% interval of the difference")
        lines.append(f"Effect of one copy more / fewer (success, going {rep.results[0].going}, "
                     f"turn 1, {how}):")
        cw = max(len(d.card) for d in rep.sensitivity) + 6
        for d in rep.sensitivity:
            plus = _delta(d.base, d.plus_one, d.plus_low, d.plus_high)
            minus = _delta(d.base, d.minus_one, d.minus_low, d.minus_high)
            lines.append(f"  {d.card + ' x' + str(d.copies):{cw}} +1: {plus} pp   "
                         f"-1: {minus} pp")
    return lines


def _comparison(rep: OddsReport) -> list[str]:
    """The A/B comparison."""
    lines: list[str] = []
    if rep.compare:
        c = rep.compare
        lines.append("")
        lines.append(f"A/B: A = {c.label_a}, B = {c.label_b} (Monte Carlo rows: the same "
                     f"hands for A and B, [95% interval of B-A])")
        for row in c.rows:
            span = "" if row.method == "exact" else \
                f" [{row.low * 100:+.2f}, {row.high * 100:+.2f}]"
            lines.append(f"  going {row.going:<6} turn {row.turn}:  A {row.a * 100:6.2f}%  "
                         f"B {row.b * 100:6.2f}%  B-A {row.difference * 100:+.2f} pp{span} "
                         f"({row.method})")
    return lines


def render_sided(results: list[SidedResult], game1: dict[str, Any]) -> list[str]:
    """The side plan's lines for people; `game1`: seat -> game 1's success Rate."""
    lines = ["Games 2 and 3 after siding (success, turn 1):"]
    for r in results:
        moves = ", ".join([*(f"+{n} {c}" for c, n in r.cards_in.items()),
                           *(f"-{n} {c}" for c, n in r.cards_out.items())]) or "no change"
        rate = r.success
        cell = f"{rate.percent:.2f}%"
        if rate.low is not None and rate.high is not None:
            cell += f" ±{(rate.high - rate.low) * 50:.2f}"
        before = game1.get(r.going)
        vs = f" (game 1: {before.percent:.2f}%)" if before is not None else ""
        lines.append(f"  going {r.going}: {cell}{vs}, {r.deck_size} cards; {moves}")
        for note in r.notes:
            lines.append(f"    Note: {note}")
    return lines


def render_copies(res: CopiesResult) -> list[str]:
    """The copies table for people."""
    how = "exact" if res.method == "exact" else (
        f"Monte Carlo, {res.hands:,} hands each, ± is the 95% interval")
    lines = [f"Copies of {res.card} (now {res.now}; making room: {res.swap}; success, turn 1, "
             f"{how}):"]
    lines.append("  copies" + "".join(f"{'going ' + s:>22}" for s in res.seats))
    for row in res.rows:
        cells = []
        for rate, lo, hi in zip(row.rates, row.lows, row.highs, strict=True):
            cell = f"{rate * 100:6.2f}%"
            if lo is not None and hi is not None:
                cell += f" ±{(hi - lo) * 50:.2f}"
            cells.append(f"{cell:>22}")
        mark = "  (now)" if row.copies == res.now else ""
        lines.append(f"  {row.copies:>6}" + "".join(cells) + mark)
    for seat, n in zip(res.seats, res.smallest, strict=True):
        goal = f"{res.target * 100:g}%"
        lines.append(f"  Going {seat}: " + (
            f"{n} cop{'y' if n == 1 else 'ies'} reach {goal}." if n is not None else
            f"{goal} is not reached even with {res.rows[-1].copies} copies."))
    return lines

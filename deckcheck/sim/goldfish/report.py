"""Goldfishing reports: success going first and second, per condition, by turn, the most
common failing hands, the effect of +-1 copy of each card, and A/B comparisons.

`odds()` picks the engine: exact wherever the maths allows (opening hands, searchers
included, and later turns for conditions that only say "at least" with no draw cards,
before the hand size limit can bite), Monte Carlo for the rest. The result is a pydantic
model (`OddsReport`): `--json` prints it as is; `render_text` prints it for people.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.errors import ExactTooLarge, SimError
from deckcheck.sim.goldfish.compiled import CompiledProfile
from deckcheck.sim.goldfish.exact import (
    DEFAULT_BUDGET,
    NeedsMonteCarlo,
    count_vectors,
    exact_odds,
)

Mode = Literal["auto", "exact", "mc"]
MAX_TURNS = 10
DEFAULT_HANDS_OPENING = 1_000_000
DEFAULT_HANDS_TURNS = 100_000
SENSITIVITY_HANDS = 200_000
COPY_LIMIT = 3


class Rate(BaseModel):
    """One probability: exact (with its fraction) or estimated (with a 95% Wilson interval)."""

    model_config = ConfigDict(extra="forbid")

    turn: int
    probability: float
    percent: float
    method: Literal["exact", "monte-carlo"]
    fraction: str | None = None
    low: float | None = None
    high: float | None = None
    hands: int | None = None


class GoalResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    by_turn: list[Rate]


class FailingHand(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: dict[str, int]
    probability: float


class GoingResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    going: Literal["first", "second"]
    goals: list[GoalResult]
    failing: list[FailingHand] = Field(default_factory=list)
    deck_outs: int = 0

    def goal(self, name: str = "success") -> GoalResult:
        return next(g for g in self.goals if g.name == name)


class CardDelta(BaseModel):
    """The success rate (turn 1) with one copy more / one copy fewer of a card."""

    model_config = ConfigDict(extra="forbid")

    card: str
    copies: int
    base: float
    plus_one: float | None
    minus_one: float | None
    method: Literal["exact", "monte-carlo"]


class ClassSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    size: int
    roles: list[str]
    cards: dict[str, int]


class Comparison(BaseModel):
    """A/B: the same questions for a second deck or profile, on the same seed. Two profiles
    of one deck see the very same Monte Carlo opening hands (deck positions are laid out by
    card, not by class); exact rows need no hands at all."""

    model_config = ConfigDict(extra="forbid")

    label_a: str
    label_b: str
    rows: list[dict[str, float | int | str | None]]


class OddsReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deck: str | None
    profile: str
    deck_size: int
    engine: str
    seed: int | None
    policy: str
    notes: list[str]
    classes: list[ClassSummary]
    results: list[GoingResult]
    sensitivity: list[CardDelta] = Field(default_factory=list)
    compare: Comparison | None = None


def exact_turn_ok(cp: CompiledProfile, turn: int, going_second: bool) -> bool:
    """Whether "by turn `turn`" is a question the exact engine answers: turn 1 always (draw
    cards enumerated); later only for "at least"-only conditions with no draw/search cards,
    before any End Phase discard could have happened."""
    if turn == 1:
        return True
    return (cp.monotone and not cp.behaviours
            and not cp.rules.discards_possible_by(turn, going_second))


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def _exact_rate(turn: int, p: Fraction) -> Rate:
    return Rate(turn=turn, probability=float(p), percent=round(float(p) * 100, 4),
                method="exact", fraction=_frac(p))


def _mc_rate(turn: int, k: int, n: int) -> Rate:
    from deckcheck.sim.goldfish.montecarlo import wilson

    lo, hi = wilson(k, n)
    return Rate(turn=turn, probability=k / n, percent=round(k / n * 100, 4),
                method="monte-carlo", low=lo, high=hi, hands=n)


def _label(cp: CompiledProfile, vec: tuple[int, ...]) -> dict[str, int]:
    return {cp.classes[i].label: n for i, n in enumerate(vec) if n}


def _exact_possible(cp: CompiledProfile, hand_size: int,
                    K: tuple[int, ...] | None = None) -> bool:
    sizes = K or cp.K
    budget = DEFAULT_BUDGET // 20 if cp.has_draws else DEFAULT_BUDGET
    return hand_size <= sum(sizes) and count_vectors(sizes, hand_size) <= budget


def going_result(cp: CompiledProfile, going_second: bool, *, mode: Mode, turns: int,
                 hands: int | None, seed: int, failing: int = 5) -> GoingResult:
    """Every goal by turn 1..`turns` for one seat."""
    goal_terms = cp.goals(going_second)
    goals = list(goal_terms)
    exact_turns = []
    rules = cp.rules
    if mode != "mc":
        for t in range(1, turns + 1):
            n = rules.cards_by(t, going_second)
            if exact_turn_ok(cp, t, going_second) and _exact_possible(cp, n):
                exact_turns.append(t)
            else:
                break
    if mode == "exact" and len(exact_turns) < turns:
        t = len(exact_turns) + 1
        if _exact_possible(cp, rules.hand_size) and t > 1:
            raise SimError(f"Turn {t} cannot be computed exactly (draws, discards or 'at most' "
                           f"conditions over several turns); drop --exact or use --turns "
                           f"{t - 1}.")
        raise ExactTooLarge(f"The exact calculation needs more than "
                            f"{DEFAULT_BUDGET // 20 if cp.has_draws else DEFAULT_BUDGET} hand "
                            f"vectors; drop --exact (Monte Carlo) or tag fewer cards.")
    rates: dict[str, list[Rate]] = {g: [] for g in goals}
    fails: list[FailingHand] = []
    for t in list(exact_turns):
        n = rules.cards_by(t, going_second)
        try:
            res = exact_odds(cp, n, goals=goal_terms, failing=failing if t == 1 else 0,
                             budget=DEFAULT_BUDGET)
        except (NeedsMonteCarlo, ExactTooLarge):
            if mode == "exact":
                raise
            exact_turns = []
            rates = {g: [] for g in goals}
            break
        for g in goals:
            rates[g].append(_exact_rate(t, res.probabilities[g]))
        if t == 1:
            fails = [FailingHand(cards=_label(cp, k), probability=float(p))
                     for k, p in res.failing]
    deck_outs = 0
    if len(exact_turns) < turns:
        from deckcheck.sim.goldfish.montecarlo import simulate

        n_hands = hands or (DEFAULT_HANDS_OPENING if turns == 1 and not cp.has_draws
                            else DEFAULT_HANDS_TURNS)
        mc = simulate(cp, n_hands, seed=seed, going_second=going_second, turns=turns,
                      goals=goal_terms, failing=failing if not exact_turns else 0)
        for g in goals:
            for t in range(len(exact_turns) + 1, turns + 1):
                rates[g].append(_mc_rate(t, mc.by_turn[g][t - 1], n_hands))
        if not exact_turns:
            fails = [FailingHand(cards=_label(cp, k), probability=c / n_hands)
                     for k, c in mc.failing]
        deck_outs = mc.deck_outs
    return GoingResult(going="second" if going_second else "first",
                       goals=[GoalResult(name=g, by_turn=rates[g]) for g in goals],
                       failing=fails, deck_outs=deck_outs)


def success_at(cp: CompiledProfile, going_second: bool, mode: Mode, K: tuple[int, ...],
               hands: int, seed: int) -> tuple[float, Literal["exact", "monte-carlo"]]:
    """The turn-1 success rate with class sizes `K`."""
    n = cp.rules.cards_by(1, going_second)
    goal = {"success": cp.success_for(going_second)}
    if mode != "mc" and _exact_possible(cp, n, K):
        try:
            res = exact_odds(cp, n, goals=goal, K=K)
            return float(res.probabilities["success"]), "exact"
        except (NeedsMonteCarlo, ExactTooLarge):
            if mode == "exact":
                raise
    from deckcheck.sim.goldfish.montecarlo import simulate

    mc = simulate(cp, hands, seed=seed, going_second=going_second, goals=goal, K=K)
    return mc.rate(), "monte-carlo"


def sensitivity(cp: CompiledProfile, going_second: bool, mode: Mode, hands: int | None,
                seed: int) -> list[CardDelta]:
    """The turn-1 success rate with +-1 copy of each card of the Main Deck."""
    cap = SENSITIVITY_HANDS if not cp.has_draws else SENSITIVITY_HANDS // 4
    n_hands = min(hands or cap, cap)
    base_K = cp.K
    base, method = success_at(cp, going_second, mode, base_K, n_hands, seed)
    cache: dict[tuple[int, ...], float] = {}

    def at(K: tuple[int, ...]) -> float | None:
        if sum(K) < cp.rules.cards_by(1, True):
            return None
        if K not in cache:
            cache[K] = success_at(cp, going_second, mode, K, n_hands, seed)[0]
        return cache[K]

    out = []
    for ci, cls in enumerate(cp.classes):
        for name, copies in sorted(cls.cards.items()):
            plus = list(base_K)
            plus[ci] += 1
            minus = list(base_K)
            minus[ci] -= 1
            out.append(CardDelta(
                card=name, copies=copies, base=base, method=method,
                plus_one=at(tuple(plus)) if copies < COPY_LIMIT else None,
                minus_one=at(tuple(minus))))
    out.sort(key=lambda d: (-(abs((d.minus_one if d.minus_one is not None else d.base)
                                  - d.base)), d.card))
    return out


def _classes(cp: CompiledProfile) -> list[ClassSummary]:
    return [ClassSummary(label=c.label, size=c.size, cards=dict(c.cards),
                         roles=sorted(cp.features[f].name for f in c.features
                                      if cp.features[f].kind == "role"))
            for c in cp.classes]


def odds(cp: CompiledProfile, *, deck: str | None = None, mode: Mode = "auto",
         hands: int | None = None, seed: int = 0, turns: int = 1,
         seats: tuple[bool, ...] = (False, True), with_sensitivity: bool = True,
         failing: int = 5) -> OddsReport:
    """The full goldfishing report for one compiled profile."""
    if not 1 <= turns <= MAX_TURNS:
        raise SimError(f"--turns must be between 1 and {MAX_TURNS}, not {turns}.")
    if hands is not None and hands < 1:
        raise SimError(f"--hands must be at least 1, not {hands}.")
    hs = cp.rules.hand_size
    need = cp.rules.cards_by(1, any(seats))
    if cp.deck_size < need:
        raise SimError(f"{deck or 'The deck'}: its Main Deck has {cp.deck_size} card"
                       f"{'' if cp.deck_size == 1 else 's'}, too few to deal an opening hand "
                       f"({hs} cards, {hs + 1} going second); add cards to it.")
    results = [going_result(cp, s, mode=mode, turns=turns, hands=hands, seed=seed,
                            failing=failing) for s in seats]
    methods = {r.method for res in results for g in res.goals for r in g.by_turn}
    engine = " + ".join(sorted(methods))
    sens = sensitivity(cp, seats[0], mode, hands, seed) if with_sensitivity else []
    return OddsReport(deck=deck, profile=cp.source, deck_size=cp.deck_size, engine=engine,
                      seed=seed if "monte-carlo" in methods or any(
                          d.method == "monte-carlo" for d in sens) else None,
                      policy=cp.policy(), notes=list(dict.fromkeys(cp.notes)),
                      classes=_classes(cp), results=results, sensitivity=sens)


def compare(a: OddsReport, b: OddsReport, label_a: str, label_b: str) -> Comparison:
    """Success of A and B side by side (same seats, turns and seed)."""
    rows: list[dict[str, float | int | str | None]] = []
    for ra, rb in zip(a.results, b.results, strict=True):
        for x, y in zip(ra.goal().by_turn, rb.goal().by_turn, strict=True):
            rows.append({"going": ra.going, "turn": x.turn, "a": x.probability,
                         "b": y.probability, "difference": y.probability - x.probability,
                         "method": x.method if x.method == y.method else "mixed"})
    return Comparison(label_a=label_a, label_b=label_b, rows=rows)


# -- text --------------------------------------------------------------------------------
def _pct(r: Rate) -> str:
    s = f"{r.percent:6.2f}%"
    if r.method == "monte-carlo" and r.low is not None and r.high is not None:
        s += f" ±{(r.high - r.low) * 50:.2f}"
    elif r.fraction and len(r.fraction) <= 9:
        s += f" ({r.fraction})"
    return s


def render_text(rep: OddsReport) -> str:
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
    seats = [r.going for r in rep.results]
    goals = rep.results[0].goals
    width = max([len(goals[0].name), *(len(g.name) + 2 for g in goals[1:])]) + 2
    header = "".join(f"{'going ' + s:>22}" for s in seats)
    lines.append(f"{'':{width}}{header}")
    for gi, goal in enumerate(rep.results[0].goals):
        name = goal.name if gi == 0 else "  " + goal.name
        cells = "".join(f"{_pct(res.goals[gi].by_turn[0]):>22}" for res in rep.results)
        lines.append(f"{name:{width}}{cells}")
    turns = len(rep.results[0].goal().by_turn)
    if turns > 1:
        lines.append("")
        lines.append("Success by turn:")
        lines.append(f"{'':{width}}" + "".join(f"{'turn ' + str(t):>18}"
                                              for t in range(1, turns + 1)))
        for res in rep.results:
            cells = "".join(f"{_pct(r):>18}" for r in res.goal().by_turn)
            lines.append(f"{'going ' + res.going:{width}}{cells}")
    for res in rep.results:
        if res.deck_outs:
            lines.append(f"Deck-outs going {res.going}: {res.deck_outs} hands.")
    if rep.results[0].failing:
        lines.append("")
        lines.append(f"Most common failing hands (going {rep.results[0].going}, turn 1):")
        for fh in rep.results[0].failing:
            desc = ", ".join(f"{n} {label}" for label, n in fh.cards.items())
            lines.append(f"  {fh.probability * 100:6.2f}%  {desc}")
    if rep.sensitivity:
        lines.append("")
        lines.append(f"Effect of one copy more / fewer (success, going {rep.results[0].going}, "
                     f"turn 1, {rep.sensitivity[0].method}):")
        cw = max(len(d.card) for d in rep.sensitivity) + 6
        for d in rep.sensitivity:
            plus = f"{(d.plus_one - d.base) * 100:+.2f}" if d.plus_one is not None else "  —"
            minus = f"{(d.minus_one - d.base) * 100:+.2f}" if d.minus_one is not None else "  —"
            lines.append(f"  {d.card + ' x' + str(d.copies):{cw}} +1: {plus:>7} pp   "
                         f"-1: {minus:>7} pp")
    if rep.compare:
        c = rep.compare
        lines.append("")
        lines.append(f"A/B: A = {c.label_a}, B = {c.label_b} (same seed)")
        for row in c.rows:
            a, b, diff = (float(row[k] or 0) for k in ("a", "b", "difference"))
            lines.append(f"  going {row['going']:<6} turn {row['turn']}:  A {a * 100:6.2f}%  "
                         f"B {b * 100:6.2f}%  B-A {diff * 100:+.2f} pp")
    return "\n".join(lines) + "\n"

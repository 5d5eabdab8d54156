"""Goldfishing reports: success going first and second, per condition, by turn, the most
common failing hands, the effect of +-1 copy of each card, and A/B comparisons.

`odds()` picks the engine: exact wherever the maths allows (opening hands, searchers
included; draw cards too when the enumeration is small, any size with --exact; and later
turns for conditions that only say "at least" with no draw cards, before the hand size
limit can bite), Monte Carlo for the rest. `compare()` and the +-1 copy table report each
difference with its interval, Monte Carlo runs paired on common random numbers. The result
is plain data (`results.OddsReport`): `--json` prints `results.as_json(report)`;
`render.render_text` prints it for people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from deckcheck.errors import ExactTooLarge, SimError
from deckcheck.sim.goldfish.checks import DEFAULT_BUDGET, count_vectors
from deckcheck.sim.goldfish.compiled import HIDDEN, CompiledProfile
from deckcheck.sim.goldfish.derived import derived_result
from deckcheck.sim.goldfish.results import (
    CardDelta,
    ClassSummary,
    Comparison,
    ComparisonRow,
    FailingHand,
    GoalResult,
    GoingResult,
    OddsReport,
    PlayedCard,
    Rate,
)

if TYPE_CHECKING:
    from fractions import Fraction

    from deckcheck.sim.goldfish.conditions import Term


Mode = Literal["auto", "exact", "mc"]
MAX_TURNS = 10
DEFAULT_HANDS_OPENING = 1_000_000
DEFAULT_HANDS_TURNS = 100_000
SENSITIVITY_HANDS = 200_000
#: Hand states the exact engine explores with draw cards before auto mode turns to Monte
#: Carlo (--exact allows many more).
AUTO_DRAW_WORK = 20_000
#: Opening hand vectors above which auto mode goes straight to Monte Carlo for draw cards.
AUTO_DRAW_VECTORS = 600
#: ... and with --exact (past it, --exact fails in about a second, saying why).
EXACT_DRAW_WORK = 120_000
COPY_LIMIT = 3


def exact_turn_ok(cp: CompiledProfile, turn: int, going_second: bool) -> bool:
    """Whether "by turn `turn`" is a question the exact engine answers: turn 1 always (draw
    cards enumerated); later only for "at least"-only conditions with no draw/search cards,
    before any End Phase discard could have happened."""
    if cp.zones:
        return False
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
                    K: tuple[int, ...] | None = None, mode: Mode = "exact") -> bool:
    """Whether the exact engine is worth trying: with draw cards each opening hand's draws
    are enumerated too, so auto mode tries it only for small profiles (Monte Carlo is
    faster beyond); --exact allows more."""
    sizes = K or cp.K
    budget = DEFAULT_BUDGET
    if cp.has_draws:
        budget = AUTO_DRAW_VECTORS if mode == "auto" else DEFAULT_BUDGET // 20
    return hand_size <= sum(sizes) and count_vectors(sizes, hand_size) <= budget


def going_result(cp: CompiledProfile, going_second: bool, *, mode: Mode, turns: int,
                 hands: int | None, seed: int, failing: int = 5,
                 one_game: bool = True) -> GoingResult:
    """Every goal by turn 1..`turns` for one seat. `one_game`: one game per hand, played
    for success, every goal measured on it (else each goal played for on its own)."""
    goal_terms = cp.goals(going_second)
    goals = list(goal_terms)
    rules = cp.rules
    exact_turns = _turns_exact(cp, going_second, mode, turns)
    rates: dict[str, list[Rate]] = {g: [] for g in goals}
    fails: list[FailingHand] = []
    played: list[PlayedCard] = []
    notes: list[str] = []
    seat = "going second" if going_second else "going first"
    for t in list(exact_turns):
        n = rules.cards_by(t, going_second)
        from deckcheck.sim.goldfish.exact import NeedsMonteCarlo, exact_odds

        try:
            res = exact_odds(cp, n, goals=goal_terms, failing=failing if t == 1 else 0,
                             budget=DEFAULT_BUDGET, draw_work=_draw_work(mode),
                             one_game=one_game)
        except (NeedsMonteCarlo, ExactTooLarge) as exc:
            if mode == "exact":
                if isinstance(exc, ExactTooLarge) and cp.has_draws:
                    raise ExactTooLarge(f"{exc} {seat}; drop --exact (or give --hands N) "
                                        f"for Monte Carlo.") from None
                raise
            why = str(exc).split(";")[0].rstrip(".")
            notes.append(f"{why} {seat}, so these odds are Monte Carlo." if isinstance(
                exc, ExactTooLarge) else f"{why}: {seat} is Monte Carlo.")
            exact_turns = []
            rates = {g: [] for g in goals}
            break
        for g in goals:
            rates[g].append(_exact_rate(t, res.probabilities[g]))
        if t == 1:
            fails = [FailingHand(cards=_label(cp, k), probability=float(p))
                     for k, p in res.failing]
            played = [PlayedCard(card=cp.classes[d].label, turn=1, probability=float(p),
                                 method="exact") for d, p in res.played.items()]
    deck_outs = 0
    if len(exact_turns) < turns:
        mc_fails, mc_played, deck_outs = _monte_carlo_turns(
            cp, going_second, goal_terms, rates, len(exact_turns) + 1, turns=turns,
            hands=hands, seed=seed, failing=failing if not exact_turns else 0,
            one_game=one_game)
        if not exact_turns:
            fails = mc_fails
        if mc_played:
            played = mc_played
    return GoingResult(going="second" if going_second else "first",
                       goals=[GoalResult(name=g, by_turn=rates[g]) for g in goals
                              if not g.startswith(HIDDEN)],
                       rows=[derived_result(dv, rates) for dv in cp.derived],
                       failing=fails, deck_outs=deck_outs, played=played, notes=notes)


def _turns_exact(cp: CompiledProfile, going_second: bool, mode: Mode, turns: int
                 ) -> list[int]:
    """The turns 1, 2, ... the exact engine is tried for (up to the first it cannot answer);
    with --exact (`mode` "exact"), a SimError or ExactTooLarge saying why when that is not
    every turn."""
    exact_turns: list[int] = []
    rules = cp.rules
    if mode != "mc":
        for t in range(1, turns + 1):
            n = rules.cards_by(t, going_second)
            if exact_turn_ok(cp, t, going_second) and _exact_possible(cp, n, mode=mode):
                exact_turns.append(t)
            else:
                break
    if mode == "exact" and len(exact_turns) < turns:
        if cp.zones:
            raise SimError("Conditions on the GY or banished cards need the Monte Carlo "
                           "engine; drop --exact.")
        t = len(exact_turns) + 1
        if _exact_possible(cp, rules.hand_size, mode=mode) and t > 1:
            raise SimError(f"Turn {t} cannot be computed exactly (draws, discards or 'at most' "
                           f"conditions over several turns); drop --exact or use --turns "
                           f"{t - 1}.")
        raise ExactTooLarge(f"The exact calculation needs more than "
                            f"{DEFAULT_BUDGET // 20 if cp.has_draws else DEFAULT_BUDGET} hand "
                            f"vectors; drop --exact (Monte Carlo) or tag fewer cards.")
    return exact_turns


def _monte_carlo_turns(cp: CompiledProfile, going_second: bool,
                       goal_terms: dict[str, list[Term]], rates: dict[str, list[Rate]],
                       first: int, *, turns: int, hands: int | None, seed: int, failing: int,
                       one_game: bool) -> tuple[list[FailingHand], list[PlayedCard], int]:
    """Monte Carlo for turns `first`..`turns` of one seat, their rates added to `rates`:
    (the failing hands, the draw cards played, deck-outs)."""
    from deckcheck.sim.goldfish.montecarlo import simulate

    n_hands = hands or (DEFAULT_HANDS_OPENING if turns == 1 and not cp.has_draws
                        else DEFAULT_HANDS_TURNS)
    mc = simulate(cp, n_hands, seed=seed, going_second=going_second, turns=turns,
                  goals=goal_terms, failing=failing, one_game=one_game)
    for g in goal_terms:
        for t in range(first, turns + 1):
            rates[g].append(_mc_rate(t, mc.by_turn[g][t - 1], n_hands))
    fails = [FailingHand(cards=_label(cp, k), probability=c / n_hands) for k, c in mc.failing]
    played = [PlayedCard(card=cp.classes[d].label, turn=turns, probability=c / n_hands,
                         method="monte-carlo", hands=n_hands) for d, c in mc.played.items()]
    return fails, played, mc.deck_outs


class _At:
    """A turn-1 success rate: exact, or a Monte Carlo run kept for paired differences."""

    __slots__ = ("rate", "method", "run")

    def __init__(self, rate: float, method: Literal["exact", "monte-carlo"],
                 run: Any = None) -> None:
        self.rate = rate
        self.method = method
        self.run = run


def _exact_at(cp: CompiledProfile, going_second: bool, mode: Mode,
              K: tuple[int, ...]) -> _At | None:
    """The exact turn-1 success rate with class sizes `K`; None where it takes Monte
    Carlo."""
    n = cp.rules.cards_by(1, going_second)
    goal = {"success": cp.success_for(going_second)}
    if mode != "mc" and _exact_possible(cp, n, K, mode):
        from deckcheck.sim.goldfish.exact import NeedsMonteCarlo, exact_odds

        try:
            res = exact_odds(cp, n, goals=goal, K=K, draw_work=_draw_work(mode))
            return _At(float(res.probabilities["success"]), "exact")
        except (NeedsMonteCarlo, ExactTooLarge):
            if mode == "exact":
                raise
    return None


def success_at(cp: CompiledProfile, going_second: bool, mode: Mode, K: tuple[int, ...],
               hands: int, seed: int, *, exact_ok: bool = True) -> _At:
    """The turn-1 success rate with class sizes `K`."""
    goal = {"success": cp.success_for(going_second)}
    found = _exact_at(cp, going_second, mode, K) if exact_ok else None
    if found is not None:
        return found
    from deckcheck.sim.goldfish.montecarlo import simulate

    mc = simulate(cp, hands, seed=seed, going_second=going_second, goals=goal, K=K,
                  per_hand=True)
    return _At(mc.rate(), "monte-carlo", mc)


def _draw_work(mode: Mode) -> int:
    return AUTO_DRAW_WORK if mode == "auto" else EXACT_DRAW_WORK


def _difference(base: _At, other: _At) -> tuple[float, float | None, float | None]:
    """other - base, with its 95% interval when Monte Carlo (paired: the same hands)."""
    if base.method == "exact" and other.method == "exact":
        d = other.rate - base.rate
        return d, d, d
    from deckcheck.sim.goldfish.montecarlo import paired_difference

    return paired_difference(base.run, other.run)


def sensitivity(cp: CompiledProfile, going_second: bool, mode: Mode, hands: int | None,
                seed: int) -> list[CardDelta]:
    """The turn-1 success rate with +-1 copy of each card of the Main Deck. Monte Carlo rows
    use common random numbers (the same seed and layout) and a paired interval; `hands`
    (--hands) sets their size."""
    # paired differences need far fewer hands than separate rates for the same precision
    n_hands = hands or (SENSITIVITY_HANDS if not cp.has_draws else SENSITIVITY_HANDS // 16)
    base_K = cp.K
    found = _exact_at(cp, going_second, mode, base_K)
    cache: dict[tuple[int, ...], _At] = {}
    variants = [(ci, copies) for ci, cls in enumerate(cp.classes)
                for copies in cls.cards.values()]

    def changed(ci: int, by: int) -> tuple[int, ...]:
        K = list(base_K)
        K[ci] += by
        return tuple(K)

    if found is None:  # Monte Carlo: every variant on the same hands, in one paired run
        from deckcheck.sim.goldfish.montecarlo import simulate_paired

        Ks = [base_K]
        for ci, copies in variants:
            if copies < COPY_LIMIT:
                Ks.append(changed(ci, 1))
            Ks.append(changed(ci, -1))
        Ks = [K for K in dict.fromkeys(Ks)
              if K == base_K or sum(K) >= cp.rules.cards_by(1, True)]
        runs = simulate_paired(cp, Ks, n_hands, seed=seed, going_second=going_second,
                               goals={"success": cp.success_for(going_second)})
        cache = {K: _At(r.rate(), "monte-carlo", r) for K, r in zip(Ks, runs, strict=True)}
        found = cache[base_K]
    base = found
    exact_ok = base.method == "exact"

    def at(K: tuple[int, ...]) -> _At | None:
        if sum(K) < cp.rules.cards_by(1, True):
            return None
        if K not in cache:
            cache[K] = success_at(cp, going_second, mode, K, n_hands, seed,
                                  exact_ok=exact_ok)
            if cache[K].method != base.method:  # one engine for the whole table
                cache[K] = success_at(cp, going_second, "mc", K, n_hands, seed)
        return cache[K]

    def delta(other: _At | None) -> tuple[float | None, float | None, float | None]:
        if other is None:
            return None, None, None
        d, lo, hi = _difference(base, other)
        return base.rate + d, lo, hi

    out = []
    for ci, cls in enumerate(cp.classes):
        for name, copies in sorted(cls.cards.items()):
            plus = list(base_K)
            plus[ci] += 1
            minus = list(base_K)
            minus[ci] -= 1
            p, p_lo, p_hi = delta(at(tuple(plus)) if copies < COPY_LIMIT else None)
            m, m_lo, m_hi = delta(at(tuple(minus)))
            mc = base.method == "monte-carlo"
            out.append(CardDelta(
                card=name, copies=copies, base=base.rate, method=base.method,
                plus_one=p, minus_one=m,
                plus_low=p_lo if mc else None, plus_high=p_hi if mc else None,
                minus_low=m_lo if mc else None, minus_high=m_hi if mc else None,
                hands=n_hands if mc else None))
    out.sort(key=lambda d: (-(abs((d.minus_one if d.minus_one is not None else d.base)
                                  - d.base)), d.card))
    return out


def _classes(cp: CompiledProfile) -> list[ClassSummary]:
    return [ClassSummary(label=c.label, size=c.size, cards=dict(c.cards),
                         roles=sorted(cp.features[f].name for f in c.features
                                      if cp.features[f].kind == "role"))
            for c in cp.classes]


def require_deck_size(cp: CompiledProfile, deck: str | None,
                      seats: tuple[bool, ...] = (False, True)) -> None:
    """SimError naming the deck when its Main Deck cannot deal an opening hand."""
    hs = cp.rules.hand_size
    need = cp.rules.cards_by(1, any(seats))
    if cp.deck_size < need:
        raise SimError(f"{deck or 'The deck'}: its Main Deck has {cp.deck_size} card"
                       f"{'' if cp.deck_size == 1 else 's'}, too few to deal an opening hand "
                       f"({hs} cards, {hs + 1} going second); add cards to it.")


def odds(cp: CompiledProfile, *, deck: str | None = None, mode: Mode = "auto",
         hands: int | None = None, seed: int = 0, turns: int = 1,
         seats: tuple[bool, ...] = (False, True), with_sensitivity: bool = True,
         failing: int = 5, one_game: bool = True) -> OddsReport:
    """The full goldfishing report for one compiled profile. `one_game` (the default): draw
    cards are played once per hand, for success, and every row is measured on the hand
    that play left (rows are a breakdown of the same games); False: each row is played
    for on its own."""
    if not 1 <= turns <= MAX_TURNS:
        raise SimError(f"--turns must be between 1 and {MAX_TURNS}, not {turns}.")
    if hands is not None and hands < 1:
        raise SimError(f"--hands must be at least 1, not {hands}.")
    require_deck_size(cp, deck, seats)
    results = [going_result(cp, s, mode=mode, turns=turns, hands=hands, seed=seed,
                            failing=failing, one_game=one_game) for s in seats]
    methods = {r.method for res in results for g in res.goals for r in g.by_turn}
    engine = " + ".join(sorted(methods))
    sens = sensitivity(cp, seats[0], mode, hands, seed) if with_sensitivity else []
    return OddsReport(deck=deck, profile=cp.source, deck_size=cp.deck_size, engine=engine,
                      seed=seed if "monte-carlo" in methods or any(
                          d.method == "monte-carlo" for d in sens) else None,
                      policy=cp.policy() + _rows_policy(cp, one_game),
                      notes=list(dict.fromkeys([*cp.notes, *(n for r in results
                                                             for n in r.notes)])),
                      classes=_classes(cp), results=results, sensitivity=sens)


def _rows_policy(cp: CompiledProfile, one_game: bool) -> str:
    if not cp.behaviours:
        return ""
    if one_game:
        return (" Rows: one game per hand, its draw cards and searches played for success; "
                "every row is measured on the hand that game left (the rows are a breakdown "
                "of the same games).")
    return (" Rows: each row played for on its own (its own draw cards and searches, "
            "played for that row): the rows are not a breakdown of the same games, and a "
            "row and its NOT need not add up to 100%.")


def compare(a: CompiledProfile, b: CompiledProfile, label_a: str, label_b: str, *,
            mode: Mode = "auto", hands: int | None = None, seed: int = 0, turns: int = 1,
            seats: tuple[bool, ...] = (False, True)) -> Comparison:
    """Success of A and B side by side, B - A with its interval. Exact where both sides
    are; otherwise both by Monte Carlo on common random numbers, `hands` each."""
    rows: list[ComparisonRow] = []
    for seat in seats:
        going: Literal["first", "second"] = "second" if seat else "first"
        ea = _exact_turns(a, seat, mode, turns)
        eb = _exact_turns(b, seat, mode, turns)
        both = min(len(ea), len(eb))
        for t in range(1, both + 1):
            pa, pb = ea[t - 1], eb[t - 1]
            d = float(pb - pa)
            rows.append(ComparisonRow(going=going, turn=t, a=float(pa), b=float(pb),
                                      difference=d, low=d, high=d, method="exact"))
        if both < turns:
            from deckcheck.sim.goldfish.montecarlo import paired_difference, simulate

            n = hands or DEFAULT_HANDS_TURNS
            ra, rb = (simulate(cp, n, seed=seed, going_second=seat, turns=turns,
                               goals={"success": cp.success_for(seat)}, per_hand=True)
                      for cp in (a, b))
            for t in range(both + 1, turns + 1):
                d, lo, hi = paired_difference(ra, rb, t)
                rows.append(ComparisonRow(going=going, turn=t, a=ra.rate(turn=t),
                                          b=rb.rate(turn=t), difference=d, low=lo, high=hi,
                                          method="monte-carlo", hands=n))
    return Comparison(label_a=label_a, label_b=label_b, rows=rows)


def _exact_turns(cp: CompiledProfile, seat: bool, mode: Mode, turns: int) -> list[Fraction]:
    """The exact success rates for turns 1.. as far as the exact engine goes."""
    out: list[Fraction] = []
    if mode == "mc":
        return out
    for t in range(1, turns + 1):
        n = cp.rules.cards_by(t, seat)
        if not (exact_turn_ok(cp, t, seat) and _exact_possible(cp, n, mode=mode)):
            break
        from deckcheck.sim.goldfish.exact import NeedsMonteCarlo, exact_odds

        try:
            res = exact_odds(cp, n, goals={"success": cp.success_for(seat)},
                             draw_work=_draw_work(mode))
        except (NeedsMonteCarlo, ExactTooLarge):
            break
        out.append(res.probabilities["success"])
    return out

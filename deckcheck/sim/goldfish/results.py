"""The goldfishing report's result models: plain data (`Plain` value classes, no validation
for the package's own values) for one probability (`Rate`), a seat's goals, failing hands
and draw cards played (`GoingResult`), the +-1 copy table (`CardDelta`), A/B comparisons and
the whole report (`OddsReport`); `as_json` is what `--json` prints. The odds are worked out
in `report`, rendered for people in `render`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from deckcheck.plain import Plain
from deckcheck.sim.goldfish.derived import DerivedResult

if TYPE_CHECKING:
    from deckcheck.sim.goldfish.copies import CopiesResult
    from deckcheck.sim.goldfish.side import SidedResult


class Rate(Plain):
    """One probability: exact (with its fraction) or estimated (with a 95% Wilson interval)."""

    __slots__ = ("turn", "probability", "percent", "method", "fraction", "low", "high",
                 "hands")

    def __init__(self, turn: int, probability: float, percent: float,
                 method: Literal["exact", "monte-carlo"], fraction: str | None = None,
                 low: float | None = None, high: float | None = None,
                 hands: int | None = None) -> None:
        self.turn = turn
        self.probability = probability
        self.percent = percent
        self.method = method
        self.fraction = fraction
        self.low = low
        self.high = high
        self.hands = hands


class GoalResult(Plain):
    __slots__ = ("name", "by_turn")

    def __init__(self, name: str, by_turn: list[Rate]) -> None:
        self.name = name
        self.by_turn = by_turn


class FailingHand(Plain):
    __slots__ = ("cards", "probability")

    def __init__(self, cards: dict[str, int], probability: float) -> None:
        self.cards = cards
        self.probability = probability


class PlayedCard(Plain):
    """How often a draw card was played in the games of one seat: by turn `turn` (Monte
    Carlo: of `hands` hands)."""

    __slots__ = ("card", "turn", "probability", "method", "hands")

    def __init__(self, card: str, turn: int, probability: float,
                 method: Literal["exact", "monte-carlo"], hands: int | None = None) -> None:
        self.card = card
        self.turn = turn
        self.probability = probability
        self.method = method
        self.hands = hands


class GoingResult(Plain):
    __slots__ = ("going", "goals", "rows", "failing", "deck_outs", "played", "notes")

    def __init__(self, going: Literal["first", "second"], goals: list[GoalResult],
                 failing: list[FailingHand] | None = None, deck_outs: int = 0,
                 played: list[PlayedCard] | None = None,
                 notes: list[str] | None = None,
                 rows: list[DerivedResult] | None = None) -> None:
        self.going = going
        self.goals = goals
        #: Derived rows (`[rows]`): conditional probabilities and expected counts.
        self.rows = [] if rows is None else rows
        self.failing = [] if failing is None else failing
        self.deck_outs = deck_outs
        #: The draw cards played in this seat's games, and how often.
        self.played = [] if played is None else played
        #: Why an engine was chosen here (e.g. exact given up past its work limit).
        self.notes = [] if notes is None else notes

    def goal(self, name: str = "success") -> GoalResult:
        return next(g for g in self.goals if g.name == name)


class CardDelta(Plain):
    """The success rate (turn 1) with one copy more / one copy fewer of a card; Monte
    Carlo: the 95% interval of each difference (paired, the same hands)."""

    __slots__ = ("card", "copies", "base", "plus_one", "minus_one", "method", "plus_low",
                 "plus_high", "minus_low", "minus_high", "hands")

    def __init__(self, card: str, copies: int, base: float, plus_one: float | None,
                 minus_one: float | None, method: Literal["exact", "monte-carlo"],
                 plus_low: float | None = None, plus_high: float | None = None,
                 minus_low: float | None = None, minus_high: float | None = None,
                 hands: int | None = None) -> None:
        self.card = card
        self.copies = copies
        self.base = base
        self.plus_one = plus_one
        self.minus_one = minus_one
        self.method = method
        self.plus_low = plus_low
        self.plus_high = plus_high
        self.minus_low = minus_low
        self.minus_high = minus_high
        self.hands = hands


class ClassSummary(Plain):
    __slots__ = ("label", "size", "roles", "cards")

    def __init__(self, label: str, size: int, roles: list[str], cards: dict[str, int]
                 ) -> None:
        self.label = label
        self.size = size
        self.roles = roles
        self.cards = cards


class ComparisonRow(Plain):
    """Success of A and B for one seat and turn, and B - A with its 95% interval (exact:
    the interval is the difference itself)."""

    __slots__ = ("going", "turn", "a", "b", "difference", "low", "high", "method", "hands")

    def __init__(self, going: Literal["first", "second"], turn: int, a: float, b: float,
                 difference: float, low: float, high: float,
                 method: Literal["exact", "monte-carlo"], hands: int | None = None) -> None:
        self.going = going
        self.turn = turn
        self.a = a
        self.b = b
        self.difference = difference
        self.low = low
        self.high = high
        self.method = method
        self.hands = hands


class Comparison(Plain):
    """A/B: the same questions for a second deck or profile. Monte Carlo rows use common
    random numbers: the same seed, hand count and (for two profiles of one deck) the same
    classes, so both see the very same hands, and the interval of B - A is paired."""

    __slots__ = ("label_a", "label_b", "rows")

    def __init__(self, label_a: str, label_b: str, rows: list[ComparisonRow]) -> None:
        self.label_a = label_a
        self.label_b = label_b
        self.rows = rows


class OddsReport(Plain):
    __slots__ = ("deck", "profile", "deck_size", "engine", "seed", "policy", "notes",
                 "classes", "results", "sensitivity", "compare", "copies", "sided")

    def __init__(self, deck: str | None, profile: str, deck_size: int, engine: str,
                 seed: int | None, policy: str, notes: list[str], classes: list[ClassSummary],
                 results: list[GoingResult], sensitivity: list[CardDelta] | None = None,
                 compare: Comparison | None = None, copies: CopiesResult | None = None,
                 sided: list[SidedResult] | None = None) -> None:
        self.deck = deck
        self.profile = profile
        self.deck_size = deck_size
        self.engine = engine
        self.seed = seed
        self.policy = policy
        self.notes = notes
        self.classes = classes
        self.results = results
        self.sensitivity = [] if sensitivity is None else sensitivity
        self.compare = compare
        #: `--copies CARD`: success with 0..3 copies and the smallest count for a target.
        self.copies = copies
        #: Games 2 and 3 after the profile's side plan, per seat it names.
        self.sided = [] if sided is None else sided


def as_json(report: OddsReport) -> dict[str, Any]:
    """The report as JSON-ready data (`--json`): every field, in the order declared."""
    return report.model_dump()



"""What checking produces: `Report` (the verdict on one deck), `Outcome` (what became of one
input: its reports, or why it could not be read, or why it was skipped) and `CheckResult`
(every input of one run, in order).

`Report` and `Violation` are the stable JSON schema of `deckcheck check --output-format json`
(see `deckcheck.reports.json_output` and README.md): fields are only ever added, never renamed or
removed. A read failure is never dressed up as a report: it is an `Outcome` with `error` set.
"""

from __future__ import annotations

from typing import Literal

from deckcheck.decks.model import Deck
from deckcheck.plain import Plain
from deckcheck.rules.violation import Severity, Violation

__all__ = ["CheckResult", "Outcome", "Report", "Severity", "Verdict", "Violation"]

#: "unchecked": no error, but points the card data could not settle on the date (it ends
#: before it): "could not be fully checked" (exit code 2), never "illegal".
Verdict = Literal["legal", "illegal", "unchecked"]
#: How each verdict reads for people.
VERDICT_WORDS = {"legal": "legal", "illegal": "illegal", "unchecked": "could not be fully checked"}


class Report(Plain):
    """The verdict on one deck under one format, list and date."""

    __slots__ = ("deck", "verdict", "format", "banlist", "date", "sizes", "points",
                 "violations", "notices", "format_name", "cap", "open_points", "pool")
    _nested = {"violations": [Violation]}

    deck: str  # the deck's source (file name) or name
    verdict: Verdict
    format: str  # format id, e.g. "tcg"
    banlist: str | None
    date: str | None  # ISO date the deck was checked as of
    sizes: dict[str, int]  # main/extra/side
    points: int | None
    violations: list[Violation]  # in reading order
    notices: list[str]  # e.g. "built-in card set in use"
    format_name: str | None  # the format's name for people, e.g. "TCG Advanced"
    cap: int | None  # the points cap the deck was checked against (points formats)
    #: What the card data could not settle on the date (past the day it ends), one sentence
    #: each: with no error, the verdict is "unchecked".
    open_points: list[str]
    #: When the deck has cards outside the card pool (unknown or open points): which pool was
    #: used and what to do, one sentence; else None.
    pool: str | None

    def __init__(self, *, deck: str, verdict: Verdict, format: str,  # noqa: A002
                 banlist: str | None = None, date: str | None = None,
                 sizes: dict[str, int] | None = None, points: int | None = None,
                 violations: list[Violation] | None = None, notices: list[str] | None = None,
                 format_name: str | None = None, cap: int | None = None,
                 open_points: list[str] | None = None, pool: str | None = None) -> None:
        self.deck = deck
        self.verdict = verdict
        self.format = format
        self.banlist = banlist
        self.date = date
        self.sizes = {} if sizes is None else dict(sizes)
        self.points = points
        self.violations = [] if violations is None else list(violations)
        self.notices = [] if notices is None else list(notices)
        self.format_name = format_name
        self.cap = cap
        self.open_points = [] if open_points is None else list(open_points)
        self.pool = pool

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]


class Checked(Plain):
    """One deck read from an input and checked: its report, and sample hands when asked."""

    __slots__ = ("report", "hands", "hands_note", "deck")
    _nested = {"report": Report, "deck": Deck}
    _excluded = frozenset({"deck"})

    report: Report
    #: Sample opening hands (card names), when hands were asked for.
    hands: list[list[str]]
    #: One sentence: why no hands could be dealt (e.g. an empty Main Deck), else None.
    hands_note: str | None
    #: The deck as read, kept only when asked (`keep_decks=True`); never dumped.
    deck: Deck | None

    def __init__(self, *, report: Report, hands: list[list[str]] | None = None,
                 hands_note: str | None = None, deck: Deck | None = None) -> None:
        self.report = report
        self.hands = [] if hands is None else list(hands)
        self.hands_note = hands_note
        self.deck = deck


class Outcome(Plain):
    """What became of one input: the decks it held (checked), or why it could not be read, or
    why it was skipped. Exactly one of `decks` (non-empty), `error` and `skipped` is set."""

    __slots__ = ("source", "decks", "error", "skipped")
    _nested = {"decks": [Checked]}

    source: str  # the input as given ("deck.ydk", "-", "ydke://…", an upload's name)
    decks: list[Checked]
    #: One sentence: why the input could not be read (what, where, what to do).
    error: str | None
    #: One sentence: why the input was not read as a deck (a README among the decks).
    skipped: str | None

    def __init__(self, *, source: str, decks: list[Checked] | None = None,
                 error: str | None = None, skipped: str | None = None) -> None:
        self.source = source
        self.decks = [] if decks is None else list(decks)
        self.error = error
        self.skipped = skipped

    @property
    def reports(self) -> list[Report]:
        return [c.report for c in self.decks]


class CheckResult(Plain):
    """Every input of one check, in the order given, under one format, list and date."""

    __slots__ = ("format", "format_name", "banlist", "date", "outcomes", "hands", "notices")
    _nested = {"outcomes": [Outcome]}

    format: str
    format_name: str | None
    banlist: str | None
    date: str | None
    outcomes: list[Outcome]
    #: How many sample hands per deck were asked for (0: none).
    hands: int
    #: Notes for the whole run (e.g. the built-in card set was used).
    notices: list[str]

    def __init__(self, *, format: str, format_name: str | None = None,  # noqa: A002
                 banlist: str | None = None, date: str | None = None,
                 outcomes: list[Outcome] | None = None, hands: int = 0,
                 notices: list[str] | None = None) -> None:
        self.format = format
        self.format_name = format_name
        self.banlist = banlist
        self.date = date
        self.outcomes = [] if outcomes is None else list(outcomes)
        self.hands = hands
        self.notices = [] if notices is None else list(notices)

    @property
    def reports(self) -> list[Report]:
        """Every report, in input order (a workbook gives one per deck)."""
        return [c.report for o in self.outcomes for c in o.decks]

    @property
    def checked(self) -> list[Checked]:
        return [c for o in self.outcomes for c in o.decks]

    @property
    def unreadable(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.error is not None]

    @property
    def skipped(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.skipped is not None]

    @property
    def exit_code(self) -> int:
        """0 every deck legal, 1 any deck illegal, 2 any input could not be read (or none held
        a deck) or any deck could not be fully checked (verdict "unchecked")."""
        if self.unreadable or not self.checked:
            return 2
        verdicts = {r.verdict for r in self.reports}
        return 2 if "unchecked" in verdicts else 1 if "illegal" in verdicts else 0

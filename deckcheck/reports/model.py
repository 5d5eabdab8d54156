"""What checking produces: `Report` (the verdict on one deck), `Outcome` (what became of one
input: its reports, or why it could not be read, or why it was skipped) and `CheckResult`
(every input of one run, in order).

`Report` and `Violation` are the stable JSON schema of `deckcheck check -o json` (see
`deckcheck.reports.json_output` and README.md): fields are only ever added, never renamed or
removed. A read failure is never dressed up as a report: it is an `Outcome` with `error` set.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.decks.model import Deck
from deckcheck.rules.violation import Severity, Violation

__all__ = ["CheckResult", "Outcome", "Report", "Severity", "Verdict", "Violation"]

Verdict = Literal["legal", "illegal"]


class Report(BaseModel):
    """The verdict on one deck under one format, list and date."""

    model_config = ConfigDict(extra="forbid")

    deck: str  # the deck's source (file name) or name
    verdict: Verdict
    format: str  # format id, e.g. "tcg"
    banlist: str | None = None
    date: str | None = None  # ISO date the deck was checked as of
    sizes: dict[str, int] = Field(default_factory=dict)  # main/extra/side
    points: int | None = None
    violations: list[Violation] = Field(default_factory=list)  # in reading order
    notices: list[str] = Field(default_factory=list)  # e.g. "built-in card set in use"
    format_name: str | None = None  # the format's name for people, e.g. "TCG Advanced"
    cap: int | None = None  # the points cap the deck was checked against (points formats)

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]


class Checked(BaseModel):
    """One deck read from an input and checked: its report, and sample hands when asked."""

    model_config = ConfigDict(extra="forbid")

    report: Report
    #: Sample opening hands (card names), when hands were asked for.
    hands: list[list[str]] = Field(default_factory=list)
    #: One sentence: why no hands could be dealt (e.g. an empty Main Deck), else None.
    hands_note: str | None = None
    #: The deck as read, kept only when asked (`keep_decks=True`).
    deck: Deck | None = Field(default=None, exclude=True)


class Outcome(BaseModel):
    """What became of one input: the decks it held (checked), or why it could not be read, or
    why it was skipped. Exactly one of `decks` (non-empty), `error` and `skipped` is set."""

    model_config = ConfigDict(extra="forbid")

    source: str  # the input as given ("deck.ydk", "-", "ydke://…", an upload's name)
    decks: list[Checked] = Field(default_factory=list)
    #: One sentence: why the input could not be read (what, where, what to do).
    error: str | None = None
    #: One sentence: why the input was not read as a deck (a README among the decks).
    skipped: str | None = None

    @property
    def reports(self) -> list[Report]:
        return [c.report for c in self.decks]


class CheckResult(BaseModel):
    """Every input of one check, in the order given, under one format, list and date."""

    model_config = ConfigDict(extra="forbid")

    format: str
    format_name: str | None = None
    banlist: str | None = None
    date: str | None = None
    outcomes: list[Outcome] = Field(default_factory=list)
    #: How many sample hands per deck were asked for (0: none).
    hands: int = 0
    #: Notes for the whole run (e.g. the built-in card set was used).
    notices: list[str] = Field(default_factory=list)

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
        a deck)."""
        if self.unreadable or not self.checked:
            return 2
        return 1 if any(r.verdict == "illegal" for r in self.reports) else 0

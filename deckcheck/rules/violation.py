"""`Violation` (one problem with a deck) and `Report` (the verdict on one deck).

These are the stable JSON schema of `deckcheck check -o json` (documented in README.md):
fields are only ever added, never renamed or removed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["error", "warning", "info"]
Verdict = Literal["legal", "illegal", "unreadable"]


class Violation(BaseModel):
    """One problem: which rule, what card, where it was written, and the numbers involved."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str  # stable, e.g. "DC201"
    name: str  # kebab-case, e.g. "too-many-copies"
    severity: Severity = "error"
    message: str  # one sentence
    card: str | None = None  # card name as deckcheck knows it (or as written if unknown)
    passcode: int | None = None  # as written in the deck
    section: Literal["main", "extra", "side"] | None = None
    location: str | None = None  # "deck.ydk:12", "Sheet1!B7"
    count: int | None = None
    limit: int | None = None
    points: int | None = None
    cap: int | None = None
    suggestions: list[str] = Field(default_factory=list)


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
    violations: list[Violation] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)  # e.g. "built-in card set in use"
    error: str | None = None  # when verdict == "unreadable": the one-sentence reason
    format_name: str | None = None  # the format's name for people, e.g. "TCG Advanced"
    cap: int | None = None  # the points cap the deck was checked against (points formats)

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

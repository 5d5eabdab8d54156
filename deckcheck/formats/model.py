"""`Format` and `Banlist`: what a format file and a list file say, as pydantic models.

A format is data (a file under `banlists/`), never code: sizes, the copy limit, how its lists
govern (standard Forbidden/Limited/Semi-Limited, Traditional, whitelist, Genesys points,
Speed Duel groups), banned card frames, skill requirements, and the region whose release dates
decide whether a card exists yet. A format has a history of lists; `banlist_at(date)` picks the
one in force that day.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ListMode = Literal["standard", "traditional", "whitelist", "points", "speed"]


class SizeRange(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    min: int = 0
    max: int


class LimitGroup(BaseModel):
    """Speed Duel "Limited 1/2/3" or Rush "Legend" style group: at most `max` cards in total
    (counting copies) from `passcodes` in one deck."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    max: int
    passcodes: frozenset[int] = frozenset()


class BanlistEntry(BaseModel):
    """One line of a list: a card (by passcode, with its name for people) and its status."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    passcode: int
    name: str | None = None
    limit: int | None = None  # 0 forbidden, 1 limited, 2 semi-limited, 3 unlimited (whitelist)
    points: int | None = None  # Genesys points


class Banlist(BaseModel):
    """One list, in force from `effective` until the format's next list."""

    model_config = ConfigDict(extra="forbid")

    name: str  # e.g. "2026.05 TCG"
    format: str  # format id, e.g. "tcg"
    effective: dt.date
    source: str | None = None  # where the facts come from (URL or publication)
    whitelist: bool = False  # unlisted cards are forbidden
    entries: list[BanlistEntry] = Field(default_factory=list)
    groups: list[LimitGroup] = Field(default_factory=list)

    def limits(self) -> dict[int, int]:
        """passcode -> max copies for every listed card with a limit."""
        return {e.passcode: e.limit for e in self.entries if e.limit is not None}

    def points(self) -> dict[int, int]:
        return {e.passcode: e.points for e in self.entries if e.points}


class Format(BaseModel):
    """A format file: the rules of deck construction for one way of playing."""

    model_config = ConfigDict(extra="forbid")

    id: str  # "tcg", "ocg", "traditional", "worlds", "master-duel", "genesys", "goat", …
    name: str
    main: SizeRange = SizeRange(min=40, max=60)
    extra: SizeRange = SizeRange(min=0, max=15)
    side: SizeRange = SizeRange(min=0, max=15)
    copies: int = 3  # copies per rule name across main + extra + side
    list_mode: ListMode = "standard"
    #: Traditional: Forbidden cards count as Limited.
    forbidden_as_limited: bool = False
    points_cap: int | None = None  # Genesys default cap (overridable with --points-cap)
    #: Card frames that may not be used at all (Genesys: "link", and every "*_pendulum").
    banned_frames: list[str] = Field(default_factory=list)
    skills: Literal["forbidden", "optional", "required-one"] = "forbidden"
    region: Literal["tcg", "ocg"] = "tcg"
    #: Cards marked with these scopes are not legal here (TCG: "ocg_only", "anime", "rush"…).
    excluded_scopes: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    history: list[Banlist] = Field(default_factory=list)

    def banlist_at(self, date: dt.date | None = None) -> Banlist | None:
        """The list in force on `date` (today when None): the latest effective on or before it."""
        day = date or dt.date.today()
        current: Banlist | None = None
        for bl in sorted(self.history, key=lambda b: b.effective):
            if bl.effective <= day:
                current = bl
        return current

"""`Format` and `Banlist`: what a format file and a list file say, as pydantic models.

A format is data (a file under `banlists/`), never code: sizes, the copy limit, how its lists
govern (standard Forbidden/Limited/Semi-Limited, Traditional, whitelist, Genesys points,
Speed Duel groups), banned card frames, skill requirements, and the region whose release dates
decide whether a card exists yet. A format has a history of lists; `banlist_at(date)` picks the
one in force that day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

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

    _limits_cache: dict[int, int] | None = PrivateAttr(default=None)
    _points_cache: dict[int, int] | None = PrivateAttr(default=None)

    def _limit_table(self) -> dict[int, int]:
        # Built on first use: a list's entries are not changed once it is in use.
        if self._limits_cache is None:
            self._limits_cache = self.limits()
        return self._limits_cache

    def limits(self) -> dict[int, int]:
        """passcode -> max copies for every listed card with a limit."""
        return {e.passcode: e.limit for e in self.entries if e.limit is not None}

    def points(self) -> dict[int, int]:
        return {e.passcode: e.points for e in self.entries if e.points}

    def limit_of(self, passcodes: Iterable[int]) -> int | None:
        """The limit of a card given all its passcodes (`Card.all_passcodes`: lists sometimes
        name an alternate artwork only); the strictest when several are listed; None when
        unlisted."""
        table = self._limit_table()
        found = [table[p] for p in passcodes if p in table]
        return min(found) if found else None

    def points_of(self, passcodes: Iterable[int]) -> int:
        """The points of a card given all its passcodes; 0 when unlisted."""
        if self._points_cache is None:
            self._points_cache = self.points()
        table = self._points_cache
        return max((table[p] for p in passcodes if p in table), default=0)

    def group_of(self, passcodes: Iterable[int]) -> LimitGroup | None:
        """The limit group (Speed Duel "Limited 1/2/3", Rush "Legend") a card belongs to."""
        codes = set(passcodes)
        return next((g for g in self.groups if g.passcodes & codes), None)


class FormatImports(BaseModel):
    """How lists published elsewhere are recognised as this format's (used by importers only).

    `names`: EDOPro list names without their date ("2026.05 TCG" -> "TCG"; case, spaces and
    punctuation do not matter) or whole undated names ("Edison"); the first is the label of
    lists imported from Konami ids. `dates`: fixed effective dates for EDOPro list names
    whose name carries no usable date. `konami`: the folder of Konami-id lists (YAML Yugi
    limit regulation) that are this format's; `derived_from`: a folder whose lists are this
    format's too under its own rules. `dates_from`: Konami-id folders whose official
    dates give the day of a "YYYY.MM" list. `ygoprodeck`: the `banlist_info` key.
    `lflist_groups`: `.lflist.conf` comment headers whose cards form a limit group
    (Speed Duel "#Limited 1" -> group "Limited 1" of at most 1 card)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    names: list[str] = Field(default_factory=list)
    dates: dict[str, dt.date] = Field(default_factory=dict)
    konami: str | None = None
    #: Konami-id folder whose official lists are this format's too, under this format's
    #: rules (Traditional: the TCG lists, Forbidden counted as Limited).
    derived_from: str | None = None
    dates_from: list[str] = Field(default_factory=list)
    ygoprodeck: str | None = None
    lflist_groups: dict[str, int] = Field(default_factory=dict)


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
    hand_size: int = 5  # cards in the opening hand (Speed Duel: 4)
    region: Literal["tcg", "ocg"] = "tcg"
    #: Cards marked with these scopes are not legal here (TCG: "ocg_only", "anime", "rush"…).
    excluded_scopes: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    #: How lists from EDOPro, Konami ids and YGOPRODeck map to this format (importers only).
    imports: FormatImports = FormatImports()
    history: list[Banlist] = Field(default_factory=list)

    def banlist_at(self, date: dt.date | None = None) -> Banlist | None:
        """The list in force on `date` (today when None): the latest effective on or before it."""
        day = date or dt.date.today()
        current: Banlist | None = None
        for bl in sorted(self.history, key=lambda b: b.effective):
            if bl.effective <= day:
                current = bl
        return current

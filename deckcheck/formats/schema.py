"""The strict (pydantic) schema of format and list files, for files people write.

`deckcheck.formats.model` holds plain classes (no pydantic on the check path). A format file
in the user's own folder is validated against `FormatSchema` (exact pydantic error
messages, `extra="forbid"`); the shipped format files are read by a plain loader, and
`tests/formats/test_schema.py` validates every shipped file against this schema, so a bad
shipped file still fails the tests. List files are checked by `deckcheck.formats.native`
line by line. The test also keeps these classes' fields in step with the plain ones.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.formats.model import ListMode


class SizeRangeSchema(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    min: int = 0
    max: int


class LimitGroupSchema(BaseModel):
    """Speed Duel "Limited 1/2/3" or Rush "Legend" style group: at most `max` cards in total
    (counting copies) from `passcodes` in one deck."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    max: int
    passcodes: frozenset[int] = frozenset()


class BanlistEntrySchema(BaseModel):
    """One line of a list: a card (by passcode, with its name for people) and its status."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    passcode: int
    name: str | None = None
    limit: int | None = None  # 0 forbidden, 1 limited, 2 semi-limited, 3 unlimited (whitelist)
    points: int | None = None  # Genesys points


class BanlistSchema(BaseModel):
    """One list, in force from `effective` until the format's next list."""

    model_config = ConfigDict(extra="forbid")

    name: str  # e.g. "2026.05 TCG"
    format: str  # format id, e.g. "tcg"
    effective: dt.date
    source: str | None = None  # where the facts come from (URL or publication)
    whitelist: bool = False  # unlisted cards are forbidden
    entries: list[BanlistEntrySchema] = Field(default_factory=list)
    groups: list[LimitGroupSchema] = Field(default_factory=list)


class FormatImportsSchema(BaseModel):
    """How lists published elsewhere are recognised as this format's (used by importers only).

    `names`: EDOPro list names without their date ("2026.05 TCG" -> "TCG"; case, spaces and
    punctuation do not matter) or whole undated names ("Edison"); the first is the label of
    lists imported from Konami ids. `dates`: fixed effective dates for EDOPro list names
    whose name carries no usable date. `konami`: the folder of Konami-id lists (YAML Yugi
    limit regulation) that are this format's; `derived_from`: a folder whose lists are this
    format's too under its own rules. `dates_from`: Konami-id folders whose official
    dates give the day of a "YYYY.MM" list. `ygoprodeck`: the `banlist_info` key.
    `lflist_groups`: `.lflist.conf` comment headers whose cards form a limit group
    (Speed Duel "#Limited 1" -> group "Limited 1" of at most 1 card); `lflist_kind_groups`
    the same, one group per card kind; `edopro = false`: EDOPro's lists are not imported."""

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
    #: `.lflist.conf` comment headers whose cards form one limit group per card kind (Rush
    #: Duel "# Legends" -> "Legend Monster", "Legend Spell", "Legend Trap", at most 1 each).
    lflist_kind_groups: dict[str, int] = Field(default_factory=dict)
    #: False: EDOPro's lists of this format are not imported (Master Duel: Konami's dated
    #: lists are complete, and EDOPro's are whitelists of a frozen card pool).
    edopro: bool = True


class FormatSchema(BaseModel):
    """A format file: the rules of deck construction for one way of playing."""

    model_config = ConfigDict(extra="forbid")

    id: str  # "tcg", "ocg", "traditional", "worlds", "master-duel", "genesys", "goat", …
    name: str
    main: SizeRangeSchema = SizeRangeSchema(min=40, max=60)
    extra: SizeRangeSchema = SizeRangeSchema(min=0, max=15)
    side: SizeRangeSchema = SizeRangeSchema(min=0, max=15)
    copies: int = 3  # copies per rule name across main + extra + side
    list_mode: ListMode = "standard"
    #: Traditional: Forbidden cards count as Limited.
    forbidden_as_limited: bool = False
    points_cap: int | None = None  # Genesys default cap (overridable with --points-cap)
    #: Card frames that may not be used at all (Genesys: "link", and every "*_pendulum").
    banned_frames: list[str] = Field(default_factory=list)
    skills: Literal["forbidden", "optional", "required-one"] = "forbidden"
    hand_size: int = 5  # cards in the opening hand (Speed Duel: 4)
    region: Literal["tcg", "ocg", "md"] = "tcg"
    #: Cards marked with these scopes are not legal here (TCG: "ocg_only", "anime", "rush"…).
    excluded_scopes: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    #: How lists from EDOPro, Konami ids and YGOPRODeck map to this format (importers only).
    imports: FormatImportsSchema = FormatImportsSchema()
    #: Lists given in code. Formats read from files (`load_format`) leave it empty and keep
    #: a catalog instead: each list is parsed only when asked for (`banlist_at`, `lists`).
    history: list[BanlistSchema] = Field(default_factory=list)
    #: Usual days between two lists; a date further past the newest list than this gets a
    #: notice that the list may be out of date (`deckcheck.formats.stale_notice`).
    cycle_days: int | None = None

"""The `Deck`: main, extra and side entries, each remembering where it came from.

Readers never move a card to the section it "should" be in, and never drop what they cannot
resolve: an unknown passcode stays an entry with `card=None`; a name that resolves to nothing
becomes a `ReadProblem` (with suggestions) so the validator can report it with its location.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Literal

from deckcheck.plain import Plain

Section = Literal["main", "extra", "side"]
SECTIONS: tuple[Section, ...] = ("main", "extra", "side")
#: How each section is named for people, in messages and headings.
SECTION_TITLES: dict[Section, str] = {"main": "Main Deck", "extra": "Extra Deck",
                                      "side": "Side Deck"}

# Patterns compiled on first use (re caches them): compiling at import slows start-up.
_CELL = r"([A-Za-z]{1,3})([0-9]{1,7})"
_PART = r"([a-z]+)\[([0-9]{1,9})\]"
_PART_ORDER: dict[str, int] = {s: i for i, s in enumerate(SECTIONS)}


class Location(Plain):
    """Where an entry was written: `deck.ydk:12`, `Sheet1!B7`, `ydke://…#main[3]`."""

    source: str | None  # file name (or "-" / "<url>")
    line: int | None
    sheet: str | None
    cell: str | None
    part: str | None  # URL component, e.g. "main[3]"

    __slots__ = tuple(__annotations__)  # the fields, declared once above

    def __init__(self, *, source: str | None = None, line: int | None = None,
                 sheet: str | None = None, cell: str | None = None,
                 part: str | None = None) -> None:
        self.source = source
        self.line = line
        self.sheet = sheet
        self.cell = cell
        self.part = part

    def __hash__(self) -> int:
        return hash((self.source, self.line, self.sheet, self.cell, self.part))

    def __str__(self) -> str:
        src = self.source or ""
        if self.sheet is not None:
            where = f"{self.sheet}!{self.cell}" if self.cell else self.sheet
            return f"{src}:{where}" if src else where
        if self.line is not None:
            return f"{src}:{self.line}" if src else f"line {self.line}"
        if self.part is not None:
            return f"{src}#{self.part}" if src else self.part
        return src or "?"

    @property
    def file(self) -> str | None:
        """The file (or "-" / "<url>") the entry was read from: `source` by its plain name."""
        return self.source

    @property
    def known(self) -> bool:
        """False when nothing is known about where it was written."""
        return not (self.source is None and self.line is None and self.sheet is None
                    and self.cell is None and self.part is None)

    @property
    def pointed(self) -> bool:
        """True when it points inside the file (a line, a sheet or cell, a URL part)."""
        return self.line is not None or self.sheet is not None or self.cell is not None \
            or self.part is not None

    def sort_key(self) -> tuple[str, str, int, int, int, int, str]:
        """Reading order: file, sheet, line, cell row and column, URL part; what points at
        the file as a whole comes before what points inside it."""
        row = col = part = 0
        if self.cell:
            m = re.fullmatch(_CELL, self.cell)
            if m:
                row = int(m.group(2))
                for ch in m.group(1).upper():
                    col = col * 26 + ord(ch) - 64
        section = ""
        if self.part:
            m = re.fullmatch(_PART, self.part)
            if m:
                part = _PART_ORDER.get(m.group(1), 3) * 1_000_000_000 + int(m.group(2)) + 1
            else:
                section = self.part
        return (self.source or "", self.sheet or "", self.line or 0, row, col, part, section)


class Entry(Plain):
    """`count` copies of one card in one section, as written at `location`."""

    #: The passcode as written (or the resolved one for names); None if the name is unknown.
    passcode: int | None
    #: The text as written (a name, or the passcode's digits).
    written: str | None
    count: int
    location: Location

    __slots__ = tuple(__annotations__)  # the fields, declared once above
    _nested = {"location": Location}

    def __init__(self, *, passcode: int | None = None, written: str | None = None,
                 count: int = 1, location: Location | None = None) -> None:
        self.passcode = passcode
        self.written = written
        self.count = count
        self.location = Location() if location is None else location

    def __hash__(self) -> int:
        return hash((self.passcode, self.written, self.count, self.location))


ProblemKind = Literal["unknown-name", "ambiguous-name", "bad-count", "bad-line",
                      "unknown-passcode", "bad-part", "written-total"]


class ReadProblem(Plain):
    """Something a reader could not turn into an entry, kept so it is reported, not lost."""

    kind: ProblemKind
    message: str
    section: Section | None
    written: str | None
    count: int | None
    suggestions: tuple[str, ...]
    location: Location

    __slots__ = tuple(__annotations__)  # the fields, declared once above
    _nested = {"location": Location}

    def __init__(self, *, kind: ProblemKind, message: str, section: Section | None = None,
                 written: str | None = None, count: int | None = None,
                 suggestions: tuple[str, ...] = (), location: Location | None = None) -> None:
        self.kind = kind
        self.message = message
        self.section = section
        self.written = written
        self.count = count
        self.suggestions = tuple(suggestions)
        self.location = Location() if location is None else location

    def __hash__(self) -> int:
        return hash(self._values())


class Deck(Plain):
    """A deck as read: entries per section, in the order written, plus what could not be read."""

    __slots__ = ("name", "source", "main", "extra", "side", "problems", "meta")
    _nested = {"main": [Entry], "extra": [Entry], "side": [Entry], "problems": [ReadProblem]}

    name: str | None
    source: str | None
    main: list[Entry]
    extra: list[Entry]
    side: list[Entry]
    problems: list[ReadProblem]
    #: Free fields found in the file: player name, player id, event, "created by", format…
    meta: dict[str, str]

    def __init__(self, *, name: str | None = None, source: str | None = None,
                 main: list[Entry] | None = None, extra: list[Entry] | None = None,
                 side: list[Entry] | None = None, problems: list[ReadProblem] | None = None,
                 meta: dict[str, str] | None = None) -> None:
        self.name = name
        self.source = source
        self.main = [] if main is None else list(main)
        self.extra = [] if extra is None else list(extra)
        self.side = [] if side is None else list(side)
        self.problems = [] if problems is None else list(problems)
        self.meta = {} if meta is None else dict(meta)

    def section(self, name: Section) -> list[Entry]:
        entries: list[Entry] = getattr(self, name)
        return entries

    def entries(self) -> Iterator[tuple[Section, Entry]]:
        for s in SECTIONS:
            for e in self.section(s):
                yield s, e

    def size(self, name: Section) -> int:
        return sum(e.count for e in self.section(name))

    def counts(self, name: Section) -> Counter[int]:
        """Copies per passcode (as written) in one section; entries without a passcode skipped."""
        c: Counter[int] = Counter()
        for e in self.section(name):
            if e.passcode is not None:
                c[e.passcode] += e.count
        return c

    def passcodes(self, name: Section) -> list[int]:
        """The section as a flat list of passcodes (one per copy), in order."""
        out: list[int] = []
        for e in self.section(name):
            if e.passcode is not None:
                out.extend([e.passcode] * e.count)
        return out

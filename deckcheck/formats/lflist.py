"""EDOPro `.lflist.conf` lists: read and write.

    #[2026.05 TCG]          a comment (every line starting with #)
    !2026.05 TCG            a new list begins, named so
    $whitelist              unlisted cards are forbidden
    $genesys                the numbers are Genesys points, not copy limits
    #Forbidden              comments also head sections ("#Limited 1" groups in Speed Duel)
    21044178 0 --Abyss Dweller
    4280259 0 --Apollousa, Bow of the Goddess     (an alternate artwork, listed too)

A file holds one or more lists. A count of -1 means "not allowed" and is read as 0. When a
passcode is listed twice the later line counts, as in EDOPro. Alternate-artwork passcodes
are folded onto their card when a card pool is given; without one they stay entries.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from deckcheck.errors import FormatError
from deckcheck.formats.model import Banlist, BanlistEntry, LimitGroup

if TYPE_CHECKING:
    from deckcheck.cards.model import Card
    from deckcheck.cards.pool import CardPool

_ENTRY = re.compile(r"^(\d+)\s+(-?\d+)\s*(?:--\s*(.*))?$")


@dataclass
class RawEntry:
    passcode: int
    count: int
    name: str | None
    section: str | None  # the last comment header above the line


@dataclass
class RawList:
    """One `!name` block as written, before it is given a format and a date."""

    name: str
    whitelist: bool = False
    genesys: bool = False
    entries: dict[int, RawEntry] = field(default_factory=dict)
    #: `--StartDate 1970-01-01` style notes, kept for people.
    notes: list[str] = field(default_factory=list)


def _comment_name(text: str | None) -> str | None:
    if not text:
        return None
    name = re.split(r"\t| {3,}", text.strip())[0].strip()
    return name or None


#: More list entries in one file than any card pool has cards (the largest real list, a
#: whitelist, has 13,035; the built-in pool 23,867 cards of every kind): such a file is no
#: banlist, and is refused before it is held in memory.
MAX_ENTRIES = 50_000


def parse(text: str | Iterable[str], source: str | None = None) -> list[RawList]:
    """Every list in an `.lflist.conf` text, in file order. `text` may be an open file (its
    lines are read one at a time, so a huge file is refused at `MAX_ENTRIES` without being
    read whole)."""
    lists: list[RawList] = []
    current: RawList | None = None
    section: str | None = None
    lines = text.lstrip("\ufeff").splitlines() if isinstance(text, str) else text
    entries = 0
    for lineno, line in enumerate(lines, 1):
        s = line.strip().lstrip("\ufeff") if lineno == 1 else line.strip()
        if not s:
            continue
        if s.startswith("!"):
            current = RawList(name=s[1:].strip())
            lists.append(current)
            section = None
            continue
        if s.startswith("#"):
            section = s.lstrip("#").strip() or section
            continue
        if current is None:
            if s.startswith(("$", "--")) or _ENTRY.match(s):
                raise FormatError(f"{source or 'the list'}:{lineno}: an entry comes before "
                                  "the first `!name` line; start each list with !name.")
            continue
        if s.startswith("$"):
            word = s[1:].strip().split()[0].casefold() if s[1:].strip() else ""
            if word == "whitelist":
                current.whitelist = True
            elif word == "genesys":
                current.genesys = True
            continue
        if s.startswith("--"):
            current.notes.append(s[2:].strip())
            continue
        m = _ENTRY.match(s)
        if m is None:
            continue  # EDOPro ignores lines it does not understand; so do we
        entries += 1
        if entries > MAX_ENTRIES:
            raise FormatError(f"{source or 'the list'}:{lineno}: more than {MAX_ENTRIES:,} "
                              "list entries, more than any card pool has cards, so this is "
                              "no banlist; nothing was changed.")
        code, count = int(m[1]), max(int(m[2]), 0)
        current.entries.pop(code, None)  # a later line wins, and moves to its section
        current.entries[code] = RawEntry(code, count, _comment_name(m[3]), section)
    return lists


def _kind_group(header: str, kind: str) -> str:
    """"Legends" + "monster" -> "Legend Monster"."""
    word = header.strip()
    word = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return f"{word} {kind.capitalize()}"


def _entry(e: RawEntry, card: Card | None, genesys: bool) -> BanlistEntry:
    """One line as an entry: the pool's card (its main passcode and name) when it knows it."""
    code, name = (card.passcode, card.name) if card is not None else (e.passcode, e.name)
    if genesys:
        return BanlistEntry(passcode=code, name=name, points=e.count)
    return BanlistEntry(passcode=code, name=name, limit=min(e.count, 3))


def _stricter(new: BanlistEntry, old: BanlistEntry | None, genesys: bool) -> BanlistEntry:
    """The stricter of two lines for one card (points: the highest; a limit: the lowest)."""
    if old is None:
        return new
    if genesys:
        return new if (new.points or 0) >= (old.points or 0) else old
    return new if (new.limit or 0) <= (old.limit or 0) else old


class _Groups:
    """The limit groups comment headers make: `headers` one group each, `kinds` one group
    per card kind."""

    def __init__(self, headers: Mapping[str, int] | None, kinds: Mapping[str, int] | None
                 ) -> None:
        self.headers = dict(headers or {})
        self._headers = {k.casefold(): k for k in self.headers}
        self._kinds = {k.casefold(): (k, v) for k, v in (kinds or {}).items()}
        self.kind_max: dict[str, int] = {}
        self.members: dict[str, set[int]] = {}

    def add(self, section: str | None, code: int, card: Card | None) -> None:
        key = (section or "").casefold()
        group = self._headers.get(key)
        if group is not None:
            self.members.setdefault(group, set()).add(code)
        kinded = self._kinds.get(key)
        if kinded is not None and card is not None:
            gname = _kind_group(kinded[0], card.kind.value)
            self.kind_max[gname] = kinded[1]
            self.members.setdefault(gname, set()).add(code)

    def groups(self) -> list[LimitGroup]:
        out = [LimitGroup(name=name, max=limit, passcodes=frozenset(self.members[name]))
               for name, limit in self.headers.items() if name in self.members]
        return out + [LimitGroup(name=name, max=limit, passcodes=frozenset(self.members[name]))
                      for name, limit in sorted(self.kind_max.items())]


def to_banlist(raw: RawList, *, format: str, effective: dt.date, source: str | None = None,
               pool: CardPool | None = None, group_headers: Mapping[str, int] | None = None,
               kind_headers: Mapping[str, int] | None = None) -> Banlist:
    """A parsed block as a `Banlist`. `group_headers` ({"Limited 1": 1, …}) turns the cards
    under those comment headers into limit groups. `kind_headers` ({"Legends": 1}) does the
    same with one group per card kind (Rush Duel: at most 1 "Legend Monster", 1 "Legend
    Spell", 1 "Legend Trap"); it needs the `pool` to know each card's kind. With a `pool`,
    alternate-artwork passcodes fold onto their card (the strictest status wins) and names
    come from the pool."""
    groups = _Groups(group_headers, kind_headers)
    entries: dict[int, BanlistEntry] = {}
    for e in raw.entries.values():
        card = pool.get(e.passcode) if pool is not None else None
        entry = _entry(e, card, raw.genesys)
        entries[entry.passcode] = _stricter(entry, entries.get(entry.passcode), raw.genesys)
        groups.add(e.section, entry.passcode, card)
    return Banlist(name=raw.name, format=format, effective=effective, source=source,
                   whitelist=raw.whitelist, entries=list(entries.values()),
                   groups=groups.groups())


def read(text: str, *, source: str | None = None, pool: CardPool | None = None,
         classify: Callable[[str], tuple[str, dt.date | None, Mapping[str, int]]]
         ) -> list[Banlist]:
    """Every list in a text as `Banlist`s; `classify(name)` gives (format id, date, group
    headers). A list without a date is a FormatError naming it."""
    out = []
    for raw in parse(text, source):
        fid, day, groups = classify(raw.name)
        if day is None:
            raise FormatError(f"{source or 'the list'}: the list {raw.name!r} has no date in "
                              "its name; rename it like \"2026.05 TCG\".")
        out.append(to_banlist(raw, format=fid, effective=day, source=source, pool=pool,
                              group_headers=groups))
    return out


_STATUS_HEADERS = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}


def _line(e: BanlistEntry, count: int) -> str:
    return f"{e.passcode} {count} --{e.name}" if e.name else f"{e.passcode} {count}"


def dump(lists: Iterable[Banlist]) -> str:
    """`Banlist`s -> one `.lflist.conf` text (groups under their own headers)."""
    out: list[str] = []
    for bl in lists:
        out += [f"#[{bl.name}]", f"!{bl.name}"]
        genesys = any(e.points is not None for e in bl.entries)
        if bl.whitelist:
            out.append("$whitelist")
        if genesys:
            out.append("$genesys")
        by_name = sorted(bl.entries, key=lambda e: ((e.name or "").casefold(), e.passcode))
        out += _points_lines(by_name) if genesys else _status_lines(bl, by_name)
        out += _group_lines(bl)
    return "\n".join(out) + "\n"


def _points_lines(by_name: list[BanlistEntry]) -> list[str]:
    """A points list's entries, under one header per points value."""
    out = []
    for value in sorted({e.points or 0 for e in by_name}):
        out.append(f"# {value} Point{'s' if value != 1 else ''}")
        out += [_line(e, e.points or 0) for e in by_name if (e.points or 0) == value]
    return out


def _status_lines(bl: Banlist, by_name: list[BanlistEntry]) -> list[str]:
    """The entries outside groups, under Forbidden, Limited, Semi-Limited, Unlimited."""
    grouped = {p for g in bl.groups for p in g.passcodes}
    out = []
    for limit, header in _STATUS_HEADERS.items():
        chosen = [e for e in by_name if e.limit == limit and e.passcode not in grouped]
        if chosen:
            out.append(f"#{header}")
            out += [_line(e, limit) for e in chosen]
    return out


def _group_lines(bl: Banlist) -> list[str]:
    """Each limit group under its own header, its cards by name."""
    entries = {e.passcode: e for e in bl.entries}
    out = []
    for g in bl.groups:
        out.append(f"#{g.name}")
        for code in sorted(g.passcodes, key=lambda p: ((entries[p].name or "").casefold()
                                                       if p in entries else "", p)):
            e = entries.get(code) or BanlistEntry(passcode=code, limit=g.max)
            out.append(_line(e, e.limit if e.limit is not None else g.max))
    return out


def unreadable_lines(text: str) -> list[int]:
    """Line numbers of lines EDOPro would ignore (not a `!name`, `$` flag, `#` comment, `--`
    note or entry): none in a list as published, so a download with one is cut off."""
    bad = []
    for lineno, line in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        s = line.strip()
        if s and not s.startswith(("!", "#", "$", "--")) and not _ENTRY.match(s):
            bad.append(lineno)
    return bad


def looks_like_lflist(text: str) -> bool:
    """True for text with a `!name` line; False for a .ydk deck (its only `!` line is `!side`,
    under a `#main` line), which must never pass for an empty list."""
    return any(line.startswith("!") for line in text.lstrip("\ufeff").splitlines()) and \
        not looks_like_ydk(text)


def looks_like_ydk(text: str) -> bool:
    """True for a .ydk deck: a `#main` line, and `!side` as the only `!` line."""
    lines = [ln.strip().casefold() for ln in text.lstrip("\ufeff").splitlines()]
    return "#main" in lines and all(ln == "!side" for ln in lines if ln.startswith("!"))

"""Where two sources disagree about one list: what the import's precedence resolved.

The importer (`deckcheck.formats.update`) keeps one list per format and day (Konami's own
dated lists over EDOPro's month-named files, deckcheck's own `.toml` lists over both). This
module lists what that cost: every card on which a replaced list disagreed with the one
kept, and every EDOPro list whose content is closer to another day's official list than to
the one its name points at (EDOPro renames a list's header after its content changed:
"2024.09 TCG" holds the list of 2024-12, "2021.03 TCG" the list of 2021-07-01). `render`
writes it as `CONFLICTS.md`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from deckcheck.formats.model import Banlist, BanlistEntry

FILE = "CONFLICTS.md"
_STATUS = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}


@dataclass(frozen=True)
class CardConflict:
    """One card on which a replaced list (`lost`) said something else than the kept one."""

    format: str
    effective: dt.date
    passcode: int
    card: str
    kept: str  # the kept list's value ("Limited", "20 points", "not listed")
    kept_from: str
    lost: str
    lost_from: str


@dataclass(frozen=True)
class Misnamed:
    """An EDOPro list whose content is another day's official list."""

    format: str
    name: str
    source: str
    named_day: dt.date
    content_day: dt.date
    content_name: str
    own_distance: int | None  # differences to the official list of its own day (None: none)
    distance: int  # differences to the official list it matches best


@dataclass(frozen=True)
class Moved:
    """A Konami list in force from another day than Konami's data gives (`days`): `day`, or
    left out (None), and the source that says so."""

    folder: str
    konami_day: dt.date
    day: dt.date | None
    why: str


@dataclass
class Conflicts:
    """What an import resolved between its sources: cards on which a replaced list
    disagreed, EDOPro lists holding another day's list, and the lists replaced."""

    cards: list[CardConflict] = field(default_factory=list)
    misnamed: list[Misnamed] = field(default_factory=list)
    #: (format, day, kept source, replaced source, cards that differ)
    replaced: list[tuple[str, dt.date, str, str, int]] = field(default_factory=list)


def _value(e: BanlistEntry | None, bl: Banlist) -> str:
    if e is None:
        return "not in the card pool" if bl.whitelist else "not listed"
    if e.points is not None:
        return f"{e.points} points"
    return _STATUS.get(e.limit if e.limit is not None else 3, str(e.limit))


def _table(bl: Banlist) -> dict[int, BanlistEntry]:
    return {e.passcode: e for e in bl.entries}


def _key(e: BanlistEntry | None) -> tuple[int | None, int | None]:
    return (None, None) if e is None else (e.limit, e.points)


def distance(a: Banlist, b: Banlist) -> int:
    """How many cards two lists treat differently."""
    ta, tb = _table(a), _table(b)
    return sum(1 for c in ta.keys() | tb.keys() if _key(ta.get(c)) != _key(tb.get(c)))


def _official(bl: Banlist) -> bool:
    return (bl.source or "").startswith("Konami-id")


def _edopro(bl: Banlist) -> bool:
    return (bl.source or "").startswith("EDOPro")


def find(groups: Iterable[list[Banlist]], lists: Iterable[Banlist]) -> Conflicts:
    """`groups`: the lists read for one format and day, in precedence order (the last one is
    kept). `lists`: every list read (to match EDOPro lists with official ones by content)."""
    found = Conflicts()
    for group in groups:
        _replaced(found, group)
    _misnamed(found, list(lists))
    return found


def _replaced(found: Conflicts, group: list[Banlist]) -> None:
    """Each card on which a list that lost to `group[-1]` (the same format and day) differs."""
    kept = group[-1]
    tk = _table(kept)
    for lost in group[:-1]:
        tl = _table(lost)
        n = 0
        for code in sorted(tk.keys() | tl.keys()):
            a, b = tk.get(code), tl.get(code)
            if _key(a) == _key(b):
                continue
            n += 1
            name = (a.name if a is not None else None) or (b.name if b else None) or "?"
            found.cards.append(CardConflict(
                kept.format, kept.effective, code, name, _value(a, kept),
                kept.source or kept.name, _value(b, lost), lost.source or lost.name))
        found.replaced.append((kept.format, kept.effective, kept.source or kept.name,
                               lost.source or lost.name, n))


def _misnamed(found: Conflicts, every: list[Banlist]) -> None:
    """EDOPro lists whose content is another day's official list of their format."""
    official: dict[str, list[Banlist]] = {}
    for bl in every:
        if _official(bl):
            official.setdefault(bl.format, []).append(bl)
    for bl in every:
        candidates = official.get(bl.format)
        if not _edopro(bl) or not candidates:
            continue
        # (two official lists of one day, the same content: the first read is named)
        scored = sorted(((distance(bl, o), o.effective, i, o) for i, o in enumerate(candidates)
                         if o.whitelist == bl.whitelist), key=lambda t: t[:3])
        if not scored:
            continue
        best_d, _, _, best = scored[0]
        own = next((d for d, day, _, _ in scored if day == bl.effective), None)
        # "is another list": the same but for a few alternate artworks or late corrections
        same = best_d <= max(2, len(best.entries) // 50)
        if same and best.effective != bl.effective and (own is None or best_d < own):
            found.misnamed.append(Misnamed(bl.format, bl.name, bl.source or "", bl.effective,
                                           best.effective, best.name, own, best_d))


def _cell(s: str) -> str:
    return s.replace("|", "\\|")


def render(found: Conflicts, sources: Iterable[str], moved: Iterable[Moved] = ()) -> str:
    """`CONFLICTS.md`: the precedence, then every resolved conflict, then the Konami lists
    given another day (`moved`)."""
    from pathlib import PurePath

    srcs = ", ".join(f"`{PurePath(s).name}`" for s in sources) or "the sources given"
    out = [
        "# Conflicts resolved while importing the lists",
        "",
        f"Generated by `deckcheck banlist update` from {srcs}; do not edit by hand.",
        "",
        "Precedence, for one format and day: Konami's own dated lists (by Konami id, or by "
        "card name for the oldest) win over EDOPro's month-named `.lflist.conf` files; "
        "deckcheck's own `.toml` lists and YGOPRODeck's win over both. EDOPro is used only "
        "where no official list exists (Worlds, Speed Duel, GOAT, Edison, Rush Duel's card "
        "pool). An EDOPro list named only by month is left out when the format has official "
        "lists and none of that month.",
        "",
        f"## EDOPro lists whose content is another day's official list ({len(found.misnamed)})",
        "",
    ]
    if found.misnamed:
        out += ["| format | EDOPro list | source | dated by its name | content is the official "
                "list of | differences (its own day's / that list) |",
                "|---|---|---|---|---|---|"]
        for m in sorted(found.misnamed, key=lambda m: (m.format, m.named_day, m.source)):
            own = "none that day" if m.own_distance is None else str(m.own_distance)
            out.append(f"| {m.format} | {_cell(m.name)} | {_cell(m.source)} | "
                       f"{m.named_day.isoformat()} | {m.content_day.isoformat()} "
                       f"({_cell(m.content_name)}) | {own} / {m.distance} |")
    else:
        out.append("None.")
    out += ["", f"## Lists replaced by another of the same format and day "
                f"({len(found.replaced)})", ""]
    if found.replaced:
        out += ["| format | day | kept | replaced | cards that differ |", "|---|---|---|---|---|"]
        for fid, day, kept, lost, n in sorted(found.replaced, key=lambda r: (r[0], r[1], r[3])):
            out.append(f"| {fid} | {day.isoformat()} | {_cell(kept)} | {_cell(lost)} | {n} |")
    else:
        out.append("None.")
    out += ["", f"## Cards on which a replaced list disagreed ({len(found.cards)})", ""]
    if found.cards:
        out += ["| format | day | card | passcode | kept | replaced |",
                "|---|---|---|---|---|---|"]
        for c in sorted(found.cards, key=lambda c: (c.format, c.effective, c.lost_from,
                                                   c.card.casefold(), c.passcode)):
            out.append(f"| {c.format} | {c.effective.isoformat()} | {_cell(c.card)} | "
                       f"{c.passcode} | {c.kept} ({_cell(c.kept_from)}) | {c.lost} "
                       f"({_cell(c.lost_from)}) |")
    else:
        out.append("None.")
    days = sorted(moved, key=lambda m: (m.folder, m.konami_day))
    out += ["", f"## Konami lists in force from another day than Konami's data gives "
                f"({len(days)})", ""]
    if days:
        out += ["| Konami-id list | Konami's day | day used | source of the day |",
                "|---|---|---|---|"]
        for mv in days:
            used = mv.day.isoformat() if mv.day is not None else "left out"
            out.append(f"| {mv.folder}/{mv.konami_day.isoformat()} | "
                       f"{mv.konami_day.isoformat()} | {used} | {_cell(mv.why)} |")
    else:
        out.append("None.")
    return "\n".join(out) + "\n"

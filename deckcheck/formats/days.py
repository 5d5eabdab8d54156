"""The day each Konami list took effect, where Konami's own data gives a wrong one.

Konami's database dates the TCG lists of 2002-2021 to the 1st of a month (and two later ones
a few days late), while the lists took effect on other days: 2019-07-15, 2020-01-20…
YGOJSON (`ygojson-v1.zip`, given to `banlist update --from` among the sources) keeps each
card's TCG history with its dates. A list's changes (the cards whose status differs from the
list before it) are matched with the day YGOJSON shows the same changes (`moves`); when the
match is clear (at least half of each side) and the day differs, the list takes YGOJSON's
day (`from_history`). Its `source` line says so ("…, dated 2020-01-20 by YGOJSON's tcg
history"), so an import without YGOJSON takes the same day from the shipped list
(`from_shipped`).

A list that names cards first released (anywhere) after its day cannot be in force that day
(`too_early`): Konami's Master Duel list filed as 2025-01-08 names cards first printed in
2025-03 and 2025-07 and is the list of 2026-01-08 under the wrong year.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from deckcheck.errors import FormatError
from deckcheck.formats.conflicts import Moved
from deckcheck.formats.model import Banlist

#: Konami-id folders whose days YGOJSON's history corrects (folder -> YGOJSON's format key).
#: OCG lists take effect on the 1st, as Konami dates them.
DATED = {"tcg": "tcg"}
#: Konami-id folders whose lists are held to YGOJSON's first releases (`too_early`): Master
#: Duel's, all from 2022. YGOJSON dates many early printings late (Exodia's pieces 2000-08-10,
#: on OCG lists from 2000-04), so older TCG and OCG lists are not.
RELEASE_CHECKED = frozenset({"master-duel"})
_LEGALITY = {"forbidden": 0, "limited": 1, "semilimited": 2, "unlimited": 3}
#: How far from Konami's day YGOJSON's day of the same changes may be.
WINDOW = dt.timedelta(days=92)
#: What a list's `source` line ends with when its day is not Konami's; `shipped_moves` reads
#: them back: "…, dated 2020-01-20 by YGOJSON's tcg history", and on the list a wrongly dated
#: copy of which is left out "…, also filed as master-duel/2025-01-08.vector.json (…)".
_MOVED = re.compile(r"^Konami-id list ([a-z0-9-]+)/(\d{4}-\d{2}-\d{2})\.\w+\.json.*, dated "
                    r"(\d{4}-\d{2}-\d{2}) by YGOJSON's")
_ALSO = re.compile(r"^Konami-id list ([a-z0-9-]+)/.*, also filed as \1/(\d{4}-\d{2}-\d{2})\.")


def note(day: dt.date, key: str) -> str:
    """The end of the `source` line of a list in force from `day` by YGOJSON's `key` data."""
    return f", dated {day.isoformat()} by YGOJSON's {key}"


def also_note(folder: str, file: str, why: str) -> str:
    """The end of the `source` line of a list a copy of which Konami filed under another day
    (left out)."""
    return f", also filed as {folder}/{file} ({why})"


@dataclass
class History:
    """What YGOJSON says: per format key, the cards whose status changed each day (each card
    by all its passcodes); per passcode, the card's first release in any region."""

    source: str
    changes: dict[str, dict[dt.date, list[tuple[tuple[int, ...], int]]]] = \
        field(default_factory=dict)
    first: dict[int, dt.date] = field(default_factory=dict)


def is_ygojson(path: Path) -> bool:
    from deckcheck.sources import ygojson

    if path.suffix != ".zip" or not zipfile.is_zipfile(path):
        return False
    with zipfile.ZipFile(path) as zf:
        return ygojson.looks_like_zip(zf)


def read(path: Path) -> History:
    """The legality history and first releases of a YGOJSON archive."""
    from deckcheck.sources import ygojson

    hist = History(source=path.name)
    try:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                if "/cards/" not in "/" + info.filename or not info.filename.endswith(".json"):
                    continue
                raw = zf.read(info)
                if b'"history"' in raw:
                    _card_history(json.loads(raw), hist)
            for rec in ygojson.read_zip(zf, origin=str(path), version=None).records:
                days = [d for r, d in (rec.get("released") or {}).items() if r != "md"]
                if days:
                    first = dt.date.fromisoformat(min(days))
                    for pc in (rec["passcode"], *(rec.get("alt_passcodes") or ())):
                        hist.first[pc] = min(first, hist.first.get(pc, first))
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise FormatError(f"{path}: not a readable YGOJSON archive ({exc}); give "
                          "ygojson-v1.zip as published, or remove it.") from None
    return hist


def _card_history(card: object, hist: History) -> None:
    if not isinstance(card, dict) or not isinstance(card.get("legality"), dict):
        return
    codes = tuple(int(v) for v in card.get("passwords") or () if str(v).isdigit())
    if not codes:
        return
    for key, info in card["legality"].items():
        for h in (info.get("history") or ()) if isinstance(info, dict) else ():
            limit = _LEGALITY.get(str(h.get("legality"))) if isinstance(h, dict) else None
            if limit is None or not isinstance(h.get("date"), str):
                continue
            day = dt.date.fromisoformat(h["date"][:10])
            hist.changes.setdefault(key, {}).setdefault(day, []).append((codes, limit))


@dataclass(frozen=True)
class Match:
    """A Konami list's day corrected: `day` is YGOJSON's day of the same changes (`matched`
    of the list's `changed`, of YGOJSON's `listed` that day)."""

    folder: str
    konami_day: dt.date
    day: dt.date
    matched: int
    changed: int
    listed: int


def _changes(lists: list[Banlist]) -> dict[dt.date, set[tuple[int, int]]]:
    out: dict[dt.date, set[tuple[int, int]]] = {}
    prev: dict[int, int] = {}
    for bl in sorted(lists, key=lambda b: b.effective):
        cur = {e.passcode: e.limit if e.limit is not None else 3 for e in bl.entries}
        out[bl.effective] = {(p, cur.get(p, 3)) for p in cur.keys() | prev.keys()
                             if cur.get(p, 3) != prev.get(p, 3)}
        prev = cur
    return out


def moves(folder: str, lists: list[Banlist], hist: History,
          main: Callable[[int], int]) -> list[Match]:
    """The lists of `folder` (Konami's days) whose changes YGOJSON dates to another day.
    `main` maps a passcode to the one the lists name the card by."""
    key = DATED.get(folder)
    by_day = hist.changes.get(key, {}) if key else {}
    if not by_day:
        return []
    theirs = {d: {(main(codes[0]), limit) for codes, limit in items}
              for d, items in by_day.items()}
    taken = {bl.effective for bl in lists}
    ours = _changes(lists)
    out: list[Match] = []
    for day, changed in sorted(ours.items()):
        if not changed:
            continue
        best: tuple[int, int, dt.date] | None = None
        for d, listed in theirs.items():
            if abs(d - day) <= WINDOW:
                score = (len(changed & listed), -abs((d - day).days), d)
                best = max(best, score) if best is not None else score
        if best is None:
            continue
        matched, _, d = best
        if d == day or matched * 2 < len(changed) or matched * 2 < len(theirs[d]):
            continue
        if d in taken and ours.get(d):
            continue  # another list of Konami's is that day's, with changes of its own
        out.append(Match(folder, day, d, matched, len(changed), len(theirs[d])))
    return out


def too_early(bl: Banlist, first: Mapping[int, dt.date],
              main: Callable[[int], int]) -> list[tuple[int, str | None, dt.date]]:
    """The cards `bl` names that were first released (anywhere) after its day."""
    out = []
    for e in bl.entries:
        day = first.get(e.passcode) or first.get(main(e.passcode))
        if day is not None and day > bl.effective:
            out.append((e.passcode, e.name, day))
    return sorted(out, key=lambda t: t[2])


def next_year(day: dt.date) -> dt.date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day + dt.timedelta(days=365)


def shipped_moves(headers: Iterable[Mapping[str, object]]
                  ) -> dict[tuple[str, dt.date], dt.date | None]:
    """(folder, Konami's day) -> the day used (None: left out), as the shipped lists' `source`
    lines say."""
    out: dict[tuple[str, dt.date], dt.date | None] = {}
    for head in headers:
        source = str(head.get("source") or "")
        m = _MOVED.match(source)
        if m:
            out[(m[1], dt.date.fromisoformat(m[2]))] = dt.date.fromisoformat(m[3])
        m = _ALSO.match(source)
        if m:
            out[(m[1], dt.date.fromisoformat(m[2]))] = None
    return out


#: Why a Konami list is left out for another of its files (`also_note`).
WRONG_YEAR = "under the wrong year"
SAME_LIST = "the same list, on a day YGOJSON's history does not date"


@dataclass
class Fixed:
    """The days of one Konami-id folder's lists: Konami's day -> the day used (None: left
    out) where they differ; what each list's `source` line adds (by Konami's day); and, for
    CONFLICTS.md and the import's report, each change and each list left out."""

    days: dict[dt.date, dt.date | None] = field(default_factory=dict)
    notes: dict[dt.date, str] = field(default_factory=dict)
    moved: list[Moved] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def from_history(folder: str, files: Mapping[dt.date, str], lists: list[Banlist],
                 hist: History, main: Callable[[int], int]) -> Fixed:
    """The days YGOJSON gives the lists of `folder` (Konami's `files` by day, read as `lists`):
    the day of the same changes (`moves`); a list naming cards not yet released (`too_early`,
    Master Duel) is next year's, left out when Konami has that list too."""
    out = Fixed()
    for m in moves(folder, lists, hist, main):
        why = (f"YGOJSON's {DATED[folder]} history ({hist.source}): {m.matched} of the "
               f"list's {m.changed} changes are dated {m.day.isoformat()} ({m.listed} "
               "changes that day)")
        if m.day in files:  # Konami filed the same list on that day too: that one is kept
            out.days[m.konami_day] = None
            out.notes[m.day] = also_note(folder, files[m.konami_day], SAME_LIST)
            why += ", where Konami's list of that day is the same list"
        else:
            out.days[m.konami_day] = m.day
            out.notes[m.konami_day] = note(m.day, f"{DATED[folder]} history")
        out.moved.append(Moved(folder, m.konami_day, out.days[m.konami_day], why))
    for bl in lists if folder in RELEASE_CHECKED else ():
        early = too_early(bl, hist.first, main)
        if not early:
            continue
        later = next_year(bl.effective)
        shown = ", ".join(f"{name or code} ({when.isoformat()})" for code, name, when
                          in early[:3])
        why = (f"names {len(early)} card(s) first released after it, by YGOJSON's sets "
               f"({hist.source}): {shown}")
        if later in files or too_early(bl.model_copy(update={"effective": later}),
                                       hist.first, main):
            out.days[bl.effective] = None
            if later in files:
                out.notes[later] = also_note(folder, files[bl.effective], WRONG_YEAR)
            out.skipped.append(f"{bl.effective.isoformat()}: {why}; left out (the list of "
                               f"{later.isoformat()} {WRONG_YEAR})")
        else:
            out.days[bl.effective] = later
            out.notes[bl.effective] = note(later, "first releases")
        out.moved.append(Moved(folder, bl.effective, out.days[bl.effective], why))
    return out


def from_shipped(folder: str, files: Mapping[dt.date, str],
                 heads: Iterable[Mapping[str, object]]) -> Fixed:
    """The days the shipped lists (their `heads`) give the lists of `folder` (Konami's
    `files` by day), and their `source` lines' endings, as shipped."""
    heads = list(heads)
    out = Fixed(days={k: d for (f, k), d in shipped_moves(heads).items()
                      if f == folder and k in files})
    for head in heads:  # each list's source line, after the file it names
        source = str(head.get("source") or "")
        for k, file in files.items():
            named = f"Konami-id list {folder}/{file}"
            if source.startswith(named) and len(source) > len(named):
                out.notes[k] = source[len(named):]
    return out

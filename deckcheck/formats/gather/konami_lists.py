"""Konami's own lists as YAML Yugi publishes them: `konami-id/<folder>/<YYYY-MM-DD>.vector.json`
(by Konami id), `.name.json` (by card name) and Genesys `.raw.json` (points as scraped).

The folder names the list (`tcg`, `ocg`, `master-duel`…); every format whose `[imports]`
take that folder (`konami`, or `derived_from`: Traditional from TCG, Forbidden counted as
Limited) gets a list of it. Konami's day is the day a list was announced for; the day it is
in force comes from YGOJSON's legality history when YGOJSON is among the sources, else from
the shipped lists (`days`). Ids and names map to passcodes through the card pool: without
one, the lists are skipped, saying so, and their days still date EDOPro's month names.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.errors import FormatError
from deckcheck.formats import days, konami, native
from deckcheck.formats.gather.gathered import DATE_STEM, KONAMI, Gathered, read_json
from deckcheck.formats.model import Banlist, Format

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool

#: A list keyed by card name is still imported when this many names (misspelt at the
#: source) match no card; they are named in the list's `source` line.
NAME_TYPOS = 3


def official_dates(files: Iterable[Path]) -> dict[str, list[dt.date]]:
    """Konami's days per folder, from the dated file names."""
    out: dict[str, list[dt.date]] = {}
    for path in files:
        m = DATE_STEM.match(path.name)
        if m:
            out.setdefault(path.parent.name, []).append(dt.date.fromisoformat(m[1]))
    return out


def known_dates(official: dict[str, list[dt.date]], formats: tuple[Format, ...]) -> None:
    """Where the sources hold no Konami-id lists of a folder, the official days deckcheck
    already has (its shipped lists, dated by Konami's) date the "YYYY.MM" names."""
    from deckcheck.formats.loader import load_format

    for f in formats:
        folder = f.imports.konami
        if folder and folder not in official and f.list_mode != "whitelist":
            try:
                got = load_format(f.id).list_dates()
            except FormatError:
                continue
            if got:
                official[folder] = got


def _derived(bl: Banlist, source: str) -> Banlist:
    """A list derived from another format's (Traditional from TCG): Forbidden -> Limited."""
    return Banlist(name=bl.name, format=bl.format, effective=bl.effective,
                   source=f"{source}, Forbidden counted as Limited",
                   entries=[e.model_copy(update={"limit": 1}) if e.limit == 0 else e
                            for e in bl.entries])


def konami_list(path: Path, folder: str, fmt: Format | None, name: str, day: dt.date,
                pool: CardPool, note: str | None = None) -> Banlist | None:
    """One Konami-id file as a list of `fmt` (None: a folder no format claims); None when
    it holds no cards. `note` ends its `source` line (where its day comes from, `days`)."""
    fid = fmt.id if fmt else folder
    source = f"Konami-id list {folder}/{path.name}"
    data = read_json(path)
    if path.name.endswith(".vector.json"):
        _, reg = konami.parse_vector(data, str(path))
        points = fmt.list_mode == "points" if fmt else any(v > 3 for v in reg.values())
        bl = konami.from_vector(reg, pool, name=name, format=fid, effective=day,
                                points=points, source=source)
    else:
        if not isinstance(data, dict) or not data or "Result" in data:
            return None
        points = path.name.endswith(".raw.json") or (fmt is not None and
                                                     fmt.list_mode == "points")
        bl = konami.from_names(data, pool, name=name, format=fid, effective=day,
                               points=points, source=source, tolerate=NAME_TYPOS)
    if fmt is not None and fmt.forbidden_as_limited and fmt.imports.konami != folder:
        bl = _derived(bl, source)
    if note is not None and bl.source is not None:
        bl = bl.model_copy(update={"source": bl.source + note})
    return bl


def _shipped_days(folder: str, own: Format | None, files: dict[dt.date, str]) -> days.Fixed:
    """The days as the shipped lists of the format taking `folder` say (`days.from_shipped`)."""
    from deckcheck.formats.loader import shipped_dir

    shipped = shipped_dir()
    heads = [native.read_header(p) for p in sorted((shipped / own.id).glob("*.toml"))
             if p.name != "format.toml"] if shipped is not None and own else []
    return days.from_shipped(folder, files, heads)


def fixed_days(folder: str, paths: Mapping[dt.date, Path], pool: CardPool | None,
               formats: tuple[Format, ...], hist: days.History | None,
               found: Gathered) -> days.Fixed:
    """The days the lists of `folder` are in force from where they are not Konami's
    (`days.from_history`), or without YGOJSON among the sources, as the shipped lists say
    (`days.from_shipped`)."""
    own = next((f for f in formats if f.imports.konami == folder), None)
    files = {day: path.name for day, path in paths.items()}
    if hist is None or pool is None:
        return _shipped_days(folder, own, files)
    lists: list[Banlist] = []
    for day, path in sorted(paths.items()):
        try:
            bl = konami_list(path, folder, own, "", day, pool)
        except konami.UnmappedCards:
            continue
        if bl is not None:
            lists.append(bl)

    def main(pc: int) -> int:
        card = pool.get(pc)
        return card.passcode if card is not None else pc

    fixed = days.from_history(folder, files, lists, hist, main)
    found.moved += fixed.moved
    for why in fixed.skipped:
        found.skip(f"konami-id/{folder}", why)
    return fixed


def _by_folder(files: list[Path]) -> dict[str, dict[dt.date, Path]]:
    """The dated files per folder, a .vector.json (by Konami id) preferred to a .name.json
    of the same day; current.*.json (repeating the newest dated list) left out."""
    by_folder: dict[str, dict[dt.date, Path]] = {}
    for path in sorted(files):
        m = DATE_STEM.match(path.name)
        if m is None:
            continue
        day = dt.date.fromisoformat(m[1])
        slot = by_folder.setdefault(path.parent.name, {})
        if day not in slot or m[2] == "vector":
            slot[day] = path
    return by_folder


def _name(day: dt.date, label: str, used: list[dt.date]) -> str:
    """"2026.05 TCG" as EDOPro names it; "2024.12.09 TCG" when a month has two lists."""
    twins = sum(1 for d in used if (d.year, d.month) == (day.year, day.month))
    return f"{day:%Y.%m.%d} {label}" if twins > 1 else f"{day:%Y.%m} {label}"


def _folder_lists(folder: str, paths: dict[dt.date, Path], got: days.Fixed, pool: CardPool,
                  formats: tuple[Format, ...], found: Gathered) -> None:
    """The lists of one folder, for every format that takes it, on the days they took."""
    fixed, notes = got.days, got.notes
    moved = {k: fixed.get(k, k) for k in paths}
    used = sorted(d for d in moved.values() if d is not None)
    targets: list[Format | None] = [f for f in formats if folder in (
        f.imports.konami, f.imports.derived_from)] or [None]
    for fmt in targets:
        label = fmt.imports.names[0] if fmt and fmt.imports.names else folder.upper()
        for konami_day, path in sorted(paths.items()):
            day = moved[konami_day]
            if day is None:
                continue
            try:
                bl = konami_list(path, folder, fmt, _name(day, label, used), day, pool,
                                 notes.get(konami_day))
            except konami.UnmappedCards as exc:
                found.skip(f"konami-id/{folder}", f"{path.name}: {len(exc.missing)} "
                           f"card(s) not in the card pool ({exc.missing[0]}…)")
                continue
            if bl is None:
                found.skip(f"konami-id/{folder}", f"{path.name}: holds no cards")
                continue
            found.add((KONAMI, day.isoformat()), bl, path)


def gather(files: list[Path], pool: CardPool | None, formats: tuple[Format, ...],
           found: Gathered, hist: days.History | None = None
           ) -> dict[str, dict[dt.date, dt.date | None]]:
    """Konami's lists (by Konami id or name) as lists of the formats that take them; returns
    the days moved per folder (`fixed_days`)."""
    moved: dict[str, dict[dt.date, dt.date | None]] = {}
    for folder, paths in sorted(_by_folder(files).items()):
        got = fixed_days(folder, paths, pool, formats, hist, found)
        moved[folder] = got.days
        if pool is None:  # (the days still date EDOPro's month names)
            found.skip(f"konami-id/{folder}", f"{len(paths)} list(s): no card pool to map "
                                              "Konami ids and names to passcodes")
            continue
        _folder_lists(folder, paths, got, pool, formats, found)
    return moved

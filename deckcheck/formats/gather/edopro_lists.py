"""EDOPro's lists (ProjectIgnis LFLists): `.lflist.conf` files, EDOPro's `_index.json` (list
name -> commit date) and EDOPro card databases (`.cdb`) for EDOPro's own ids.

A list's format and day come from its `!name` (`listnames.classify`): "2026.05 TCG" is the
TCG list of the day Konami's lists give that month. An EDOPro list named only by month is
left out when Konami's lists of its format are present and none is of that month (within
the official history such a name is a mislabelled list; after it, the 1st of the month is
the best day known); an undated name takes its commit day from `_index.json`. A format whose
`[imports]` say `edopro = false` (Master Duel) takes none of EDOPro's lists.

EDOPro-only ids (`504700178` "Sangan (GOAT)") are mapped to the official passcode they stand
for (`datas.alias` of a `.cdb` among the sources; without one, as the shipped lists' were:
`edopro_ids`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.errors import FormatError
from deckcheck.formats import edopro_ids, keep, lflist
from deckcheck.formats.gather.gathered import EDOPRO, Gathered, read_json
from deckcheck.formats.listnames import classify
from deckcheck.formats.model import Format

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool


def read_index(paths: Iterable[Path]) -> dict[str, str]:
    """EDOPro's `_index.json` files: list name -> commit time (ISO, UTC)."""
    index: dict[str, str] = {}
    for path in paths:
        data = read_json(path)
        for name, info in (data.items() if isinstance(data, dict) else ()):
            if isinstance(info, dict) and isinstance(info.get("date"), str):
                try:
                    when = dt.datetime.fromisoformat(info["date"])
                except ValueError:
                    continue  # an entry without a usable date is as good as none
                # ISO dates with offsets compare correctly once made UTC
                index[name] = when.astimezone(dt.UTC).isoformat()
    return index


def read_aliases(files: Iterable[Path], found: Gathered) -> None:
    """EDOPro-only id -> official passcode, from the card databases among the sources; with
    none, as the shipped lists mapped them."""
    from deckcheck.sources import edopro_cdb

    cdbs = list(files)
    if not cdbs:
        from deckcheck.formats.loader import shipped_dir

        found.aliases.update(edopro_ids.read(shipped_dir()))
    for path in cdbs:
        if not edopro_cdb.is_cdb(path):
            raise FormatError(f"{path}: not a readable EDOPro card database (.cdb); give the "
                              "file as EDOPro publishes it, or remove it.")
        for rec in edopro_cdb.parse(path):
            alias = rec.get("alias")
            if isinstance(alias, int) and 0 < alias <= keep.OFFICIAL_MAX < rec["passcode"]:
                found.aliases[rec["passcode"]] = alias


def apply_aliases(raw: lflist.RawList, aliases: Mapping[int, int],
                  used: dict[int, tuple[int, str | None]]) -> None:
    """EDOPro-only ids of a parsed list -> the official passcodes they stand for (in place;
    each id mapped is recorded in `used`)."""
    if not aliases:
        return
    out: dict[int, lflist.RawEntry] = {}
    for code, e in raw.entries.items():
        official = aliases.get(code)
        if official is None:
            out.setdefault(code, e)
            continue
        used.setdefault(code, (official, e.name))
        mapped = lflist.RawEntry(official, e.count, e.name, e.section)
        old = out.get(official)
        # the strictest of the official card's lines wins (a limit; points: the highest)
        if old is None or (mapped.count > old.count if raw.genesys else mapped.count < old.count):
            out[official] = mapped
    raw.entries = out


def _day(raw: lflist.RawList, formats: tuple[Format, ...],
         official: Mapping[str, list[dt.date]], index: Mapping[str, str]
         ) -> tuple[str, dt.date | None, str | None]:
    """A list's format, its day (None: not to be imported) and why it is not (None: it is)."""
    ln = classify(raw.name, formats, official)
    day = ln.effective
    fmt = next((f for f in formats if f.id == ln.format), None)
    if fmt is not None and not fmt.imports.edopro:
        return ln.format, None, (f"{raw.name!r}: {fmt.name}'s lists come from Konami's dated "
                                 "lists only (its format file says edopro = false)")
    folders = fmt.imports.dates_from if fmt is not None else []
    newest = max((d for folder in folders for d in official.get(folder, ())), default=None)
    if ln.approximate and newest is not None and day is not None and \
            (day.year, day.month) <= (newest.year, newest.month):
        # within the official history a month without an official list is a mislabelled
        # one; after it, the 1st of the month is the best day known
        return ln.format, None, (f"{raw.name!r}: no official list that month "
                                 f"({', '.join(folders)}), so the name is not a date to trust")
    committed = index.get(raw.name)
    if day is None and committed:
        day = dt.date.fromisoformat(committed[:10])
    if day is None:
        return ln.format, None, f"{raw.name!r}: no date in its name or in _index.json"
    return ln.format, day, None


def gather(files: list[Path], index: Mapping[str, str],
           official: Mapping[str, list[dt.date]], pool: CardPool | None,
           formats: tuple[Format, ...], found: Gathered) -> None:
    """Every list of every `.lflist.conf` in `files`, ranked by commit time (the current
    files, not in `_index.json`, newest)."""
    groups = {f.id: dict(f.imports.lflist_groups) for f in formats}
    kind_groups = {f.id: dict(f.imports.lflist_kind_groups) for f in formats}
    for path in sorted(files):
        with path.open(encoding="utf-8-sig") as lines:  # streamed: a huge file stops early
            raws = lflist.parse(lines, str(path))
        for raw in raws:
            fid, day, why = _day(raw, formats, official, index)
            if day is None:
                found.skip(path.name, why or "")
                continue
            apply_aliases(raw, found.aliases, found.used)
            bl = lflist.to_banlist(raw, format=fid, effective=day,
                                   source=f"EDOPro LFLists, {path.name}", pool=pool,
                                   group_headers=groups.get(fid),
                                   kind_headers=kind_groups.get(fid))
            found.add((EDOPRO, index.get(raw.name) or "9999"), bl, path)

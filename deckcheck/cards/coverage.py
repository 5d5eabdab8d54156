"""Where card data ends: the last day each family of facts is known to cover.

A card source is a snapshot: a card printed after it was made is missing from it, a card added
to Master Duel after it was made is "not in Master Duel" in it. So every source records, per
family of facts it speaks for, the day its data ends:

- ``cards``: the card list (which passcodes exist; what is OCG-only, TCG-only, unreleased);
- ``tcg`` / ``ocg``: first release dates in that region;
- ``md``: Master Duel's card pool.

A pool (the built-in one, a store) covers a family up to the latest day any of its sources
does. A problem that rests on *absence* (a passcode no source knows, a card not shown in a
region or in Master Duel) is an error only on a date inside what the data covers; past it the
check says it could not tell (`CheckContext.unsure`), and the deck is "could not be fully
checked" instead of "illegal". A pool that records no coverage for a family (a hand-made pool,
a store imported before deckcheck recorded it) is taken as complete for it, as before.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import zipfile

    from deckcheck.sources.records import SourceRecord

FAMILIES = ("cards", "tcg", "ocg", "md")
#: Master Duel's worldwide launch: no card was in the game before it
MD_LAUNCH = "2022-01-19"
#: what each family is, for messages: "deckcheck's card list ends on …"
WHAT = {"cards": "card list", "tcg": "TCG release dates", "ocg": "OCG release dates",
        "md": "Master Duel card pool"}
#: the sentence a message ends with: how to bring the data forward
UPDATE = ("run `deckcheck cards update` (or `deckcheck cards import FILE` with newer card data) "
          "to check it")


def families(source: str, records: Iterable[SourceRecord]) -> tuple[str, ...]:
    """The families a source's records speak for: a full card source (not `enrich_only`)
    for the card list, a source that dates releases for that region, one that says whether
    cards are in Master Duel for its pool."""
    out: set[str] = set()
    base = source.split(":", 1)[0]
    for rec in records:
        if base != "edopro-mappings" and not rec.get("enrich_only") and rec.get("kind"):
            out.add("cards")
        released = rec.get("released")
        if released:
            out.update(r for r in ("tcg", "ocg") if r in released)
        if "master_duel" in rec:
            out.add("md")
        if len(out) == len(FAMILIES):
            break
    return tuple(f for f in FAMILIES if f in out)


def file_day(path: str | os.PathLike[str], zf: zipfile.ZipFile | None = None) -> str | None:
    """The day a card-data file's content was made, as far as the file tells: a YGOJSON
    archive's `meta.json` (its last read of upstream), else the newest member of a zip, else
    the file's modification day (a file just downloaded: today). `zf`: the archive at `path`,
    when the caller holds it open already (YGOJSON's directory is 19,000 entries: opening it
    again costs ~50 ms)."""
    import zipfile
    from pathlib import Path  # (imports only: a check does not need pathlib)

    path = Path(path)
    try:
        day = None
        if zf is not None:
            day = _zip_day(zf)
        elif zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as opened:
                day = _zip_day(opened)
        return day or dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).date().isoformat()
    except (OSError, ValueError, zipfile.BadZipFile, RuntimeError):
        return None


def _zip_day(zf: zipfile.ZipFile) -> str | None:
    """An open archive's day (`file_day`): its `meta.json`'s, else its newest member's."""
    import json

    meta = [i for i in zf.infolist() if i.filename.rsplit("/", 1)[-1] == "meta.json"
            and i.file_size < 1 << 16]
    for info in meta:
        day = _meta_day(json.loads(zf.read(info)))
        if day is not None:
            return day
    stamps = [i.date_time for i in zf.infolist() if not i.is_dir()]
    if stamps:
        y, m, d = max(stamps)[:3]
        return dt.date(y, m, d).isoformat()
    return None


def _meta_day(meta: Any) -> str | None:
    if not isinstance(meta, dict):
        return None
    days = [v[:10] for k, v in meta.items() if k.startswith("last") and isinstance(v, str)]
    try:
        return max(dt.date.fromisoformat(d) for d in days).isoformat() if days else None
    except ValueError:
        return None


def source_covers(source: str, records: Iterable[SourceRecord],
                  day: str | None) -> dict[str, str]:
    """family -> the day `source`'s data ends, for every family it speaks for (nothing when
    the day is not known)."""
    if day is None:
        return {}
    return dict.fromkeys(families(source, records), day)


def combine(per_source: Iterable[Mapping[str, str]]) -> dict[str, dt.date]:
    """A pool's coverage: per family, the latest day any of its sources covers."""
    out: dict[str, dt.date] = {}
    for covers in per_source:
        for family, day in covers.items():
            try:
                d = dt.date.fromisoformat(day)
            except (TypeError, ValueError):
                continue
            if family not in out or d > out[family]:
                out[family] = d
    return out


def past(covers: Mapping[str, dt.date], family: str, date: dt.date) -> dt.date | None:
    """The day the data of `family` ends when `date` is past it (else None: the data covers
    `date`, or the pool records no end for the family)."""
    end = covers.get(family)
    return end if end is not None and date > end else None


def beyond(what: str, end: dt.date) -> str:
    """The end of a notice: "…; deckcheck's card list ends on 2026-08-22: run …"."""
    return f"deckcheck's {WHAT[what]} ends on {end.isoformat()}; {UPDATE}"

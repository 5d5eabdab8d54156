"""Which format a published list belongs to, and from which day, judged by its name.

EDOPro names its lists "<date> <label>": "2026.05 TCG", "2023.7 OCG", "2025.05.09 Master
Duel", "2010-04-24 Edison", "2020.01 World's", or only a label ("Edison"). The format files'
`[imports]` say which labels are theirs (`names`), which undated names have which date
(`dates`), and whose official Konami dates give the day of a "YYYY.MM" name (`dates_from`):
"2026.05 TCG" is in force from 2026-05-18 because Konami's TCG list of May 2026 is dated so.
A label no format claims becomes its own id ("2014.04 HAT" -> "hat").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from deckcheck.formats.model import Format

_DATED = re.compile(r"^\s*(\d{4})[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?\b\s*(.*)$")


def label_key(label: str) -> str:
    """Case, spaces, punctuation and a possessive or plural "s" do not matter."""
    key = re.sub(r"[^0-9a-z]+", "", label.casefold())
    if key.endswith("s") and len(key) > 3:
        key = key[:-1]
    return key


def slug(label: str) -> str:
    return re.sub(r"[^0-9a-z]+", "-", label.casefold()).strip("-") or "unnamed"


@dataclass(frozen=True)
class ListName:
    """What a list's name says: its format id and the day it takes effect (None: unknown)."""

    format: str
    effective: dt.date | None
    label: str
    #: True when the day was guessed as the 1st of the named month.
    approximate: bool = False


def split_name(name: str) -> tuple[int | None, int | None, int | None, str]:
    """"2026.05 TCG" -> (2026, 5, None, "TCG"); "Edison" -> (None, None, None, "Edison")."""
    m = _DATED.match(name)
    if not m:
        return None, None, None, name.strip()
    y, mo, d, rest = m.groups()
    return int(y), int(mo), int(d) if d else None, rest.strip()


def classify(name: str, formats: Iterable[Format],
             official: Mapping[str, Iterable[dt.date]] | None = None) -> ListName:
    """The format and effective date of a list called `name`.

    `official` maps a Konami-id folder ("tcg") to the dates of its official lists.
    """
    year, month, day, label = split_name(name)
    fmts = list(formats)
    whole, key = label_key(name), label_key(label)
    chosen: Format | None = None
    for f in fmts:
        if name in f.imports.dates or any(label_key(n) == whole for n in f.imports.names):
            chosen = f
            break
    if chosen is None:
        chosen = next((f for f in fmts if any(label_key(n) == key for n in f.imports.names)),
                      None)
    fid = chosen.id if chosen else slug(label)
    if chosen is not None and name in chosen.imports.dates:
        return ListName(fid, chosen.imports.dates[name], label)
    if year is None or month is None or not 1 <= month <= 12:
        return ListName(fid, None, label)
    if day is not None:
        try:
            return ListName(fid, dt.date(year, month, day), label)
        except ValueError:
            return ListName(fid, None, label)
    days: list[dt.date] = []
    for folder in chosen.imports.dates_from if chosen else []:
        days += [d for d in (official or {}).get(folder, ())
                 if (d.year, d.month) == (year, month)]
    if days:
        return ListName(fid, min(days), label)
    return ListName(fid, dt.date(year, month, 1), label, approximate=True)

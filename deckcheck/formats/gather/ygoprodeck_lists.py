"""YGOPRODeck's current lists: a `cardinfo` answer (JSON, or a zip holding it), each card's
`banlist_info`, dated by the caller (the day it was fetched). A file named
`ygoprodeck-<key>.cardinfo.json` answered `?banlist=<key>`: only that list in it is complete.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import zipfile
from pathlib import Path
from typing import Any

from deckcheck.errors import FormatError
from deckcheck.formats import ygoprodeck_banlist
from deckcheck.formats.gather.gathered import YGOPRODECK, Gathered
from deckcheck.formats.model import Format

_ONLY = re.compile(r"^ygoprodeck-(\w+)\.cardinfo\.json$")


def is_cardinfo(path: Path, head: bytes) -> bool:
    """Whether a single file given to import (its first bytes `head`) is a cardinfo answer."""
    return path.suffix in (".json", ".zip") and (b'"data"' in head or zipfile.is_zipfile(path))


def _cardinfo(path: Path) -> Any:
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            name = next((n for n in z.namelist() if n.endswith(".json")
                         and not n.startswith("__MACOSX")), None)
            if name is None:
                raise FormatError(f"{path}: the zip holds no JSON file.")
            return json.loads(z.read(name))
    return json.loads(path.read_text(encoding="utf-8"))


def gather(path: Path, day: dt.date, formats: tuple[Format, ...], found: Gathered) -> None:
    """The lists of one cardinfo answer, in force from `day`."""
    keys = {f.imports.ygoprodeck: f.id for f in formats if f.imports.ygoprodeck}
    for key, fid in ygoprodeck_banlist.KEYS.items():
        keys.setdefault(key, fid)
    only = _ONLY.match(path.name)
    if only:
        keys = {k: v for k, v in keys.items() if k == f"ban_{only[1]}"}
    try:
        data = _cardinfo(path)
    except ValueError:
        raise FormatError(f"{path}: not valid JSON; give a YGOPRODeck cardinfo answer.") \
            from None
    for bl in ygoprodeck_banlist.banlists(data, effective=day, keys=keys,
                                          source=f"YGOPRODeck cardinfo, {path.name}"):
        found.add((YGOPRODECK, path.name), bl, path)

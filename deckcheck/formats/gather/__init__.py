"""Gathering lists from their sources: one module per list source, and `collect` over them.

    edopro_lists      EDOPro `.lflist.conf` files, `_index.json`, `.cdb` card databases
    konami_lists      Konami-id lists (`konami-id/<folder>/<YYYY-MM-DD>.vector.json`, …)
    own_lists         deckcheck's own `.toml` lists
    ygoprodeck_lists  a YGOPRODeck `cardinfo` answer (JSON or zip), dated by the caller

`collect` sorts the files under its sources by kind, asks each source's module for its lists
and returns them in precedence order: for one format and day, the later wins (EDOPro lists
by commit date, then Konami's official lists, then deckcheck lists, then YGOPRODeck's).
Konami's win over EDOPro's because EDOPro's history (one file per format, its `!name` header
renamed after its content changed) sometimes gives a list the content of the next one.
YGOJSON's `ygojson-v1.zip` among the sources gives the days Konami's lists took (`days`).
Writing the lists is `update.import_lists`'s job.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck import clock
from deckcheck.errors import FormatError
from deckcheck.formats import days, lflist, native
from deckcheck.formats.gather import edopro_lists, konami_lists, own_lists, ygoprodeck_lists
from deckcheck.formats.gather.gathered import DATE_STEM, Gathered
from deckcheck.formats.loader import all_formats
from deckcheck.formats.model import Banlist, Format

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool

__all__ = ["Gathered", "Sources", "collect", "gather", "paths"]

Sources = str | Path | Iterable[str | Path]


def paths(src: Sources) -> list[Path]:
    """One or several folders or files as paths."""
    return [Path(src)] if isinstance(src, (str, Path)) else [Path(p) for p in src]


@dataclass
class _Files:
    """The files under the sources, by kind."""

    lflist: list[Path] = field(default_factory=list)
    konami: list[Path] = field(default_factory=list)
    toml: list[Path] = field(default_factory=list)
    cdb: list[Path] = field(default_factory=list)
    index: list[Path] = field(default_factory=list)
    cardinfo: list[Path] = field(default_factory=list)
    ygojson: list[Path] = field(default_factory=list)


#: How a file under a folder of sources is known, by kind (`_Files`); cardinfo answers are
#: known by name in a folder (`.cardinfo.json`), by content when given alone.
_KINDS: dict[str, Callable[[Path], object]] = {
    "lflist": lambda p: p.name.endswith(".lflist.conf"),
    "konami": lambda p: DATE_STEM.match(p.name),
    "toml": own_lists.is_list_file,
    "cdb": lambda p: p.suffix == ".cdb",
    "index": lambda p: p.name == "_index.json",
    "ygojson": days.is_ygojson,
}


def _files(srcs: list[Path]) -> list[Path]:
    files: list[Path] = []
    for one in srcs:
        if not one.exists():
            raise FormatError(f"{one}: no such file or folder; give a folder of lists or a "
                              "list file.")
        files += [one] if one.is_file() else sorted(p for p in one.rglob("*") if p.is_file())
    return files


def _single(path: Path, kinds: _Files) -> None:
    """A single file given that is none of the kinds its name says: sorted by its content."""
    head = path.read_bytes()[:4096]
    text = head.decode("utf-8", "replace")
    if days.is_ygojson(path):
        return  # list days only: nothing to import by itself
    if ygoprodeck_lists.is_cardinfo(path, head):
        kinds.cardinfo.append(path)
    elif lflist.looks_like_lflist(text):
        kinds.lflist.append(path)
    elif native.looks_native(text):
        kinds.toml.append(path)
    else:
        raise FormatError(f"{path}: not a list file deckcheck can import (.lflist.conf, "
                          ".toml, Konami-id .json or YGOPRODeck cardinfo).")


def _sort(srcs: list[Path]) -> _Files:
    files = _files(srcs)
    kinds = _Files(**{kind: [p for p in files if test(p)] for kind, test in _KINDS.items()})
    single = srcs[0] if len(srcs) == 1 and srcs[0].is_file() else None
    if single is None:
        kinds.cardinfo = [p for p in files if p.name.endswith(".cardinfo.json")]
    elif not (kinds.lflist or kinds.toml or kinds.cdb or kinds.konami):
        _single(single, kinds)
    return kinds


def gather(srcs: list[Path], *, pool: CardPool | None, date: dt.date | None,
           formats: tuple[Format, ...] | None) -> Gathered:
    """Every list under `srcs`, with what was skipped and what the sources said."""
    formats = formats if formats is not None else all_formats()
    found = Gathered()
    kinds = _sort(srcs)
    index = edopro_lists.read_index(kinds.index)
    official = konami_lists.official_dates(kinds.konami)
    konami_lists.known_dates(official, formats)
    for path in kinds.cardinfo:
        ygoprodeck_lists.gather(path, date or clock.today(), formats, found)
    edopro_lists.read_aliases(kinds.cdb, found)
    hist = days.read(kinds.ygojson[0]) if kinds.ygojson else None
    for folder, fixed in konami_lists.gather(kinds.konami, pool, formats, found, hist).items():
        if folder in official and fixed:  # EDOPro's month names: the days the lists took
            official[folder] = sorted(d for d in (fixed.get(k, k) for k in official[folder])
                                      if d is not None)
    edopro_lists.gather(kinds.lflist, index, official, pool, formats, found)
    own_lists.gather(kinds.toml, found)
    return found


def collect(src: Sources, *, pool: CardPool | None = None, date: dt.date | None = None,
            formats: tuple[Format, ...] | None = None
            ) -> tuple[list[Banlist], dict[str, list[str]]]:
    """Every list under `src` (folders or files, one or several), in precedence order (later
    wins), and what was skipped (by source folder or file) with the reason."""
    found = gather(paths(src), pool=pool, date=date, formats=formats)
    return found.ordered(), found.skipped

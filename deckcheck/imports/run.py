"""The import use case: add (or replace) sources in the card store and rebuild the pool.

`import_sources` merges every source's records (the new ones and those the store keeps,
`deckcheck.imports.merge`), checks the result (`deckcheck.imports.guard`; cards of records
their parsers checked, `SourceData.checked`, are valid by construction) and writes a new
store atomically (`deckcheck.imports.writer`), one import at a time.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from deckcheck import clock
from deckcheck.cards.dbpath import resolve_path
from deckcheck.errors import ImportFailed
from deckcheck.gc_pause import gc_paused
from deckcheck.imports.guard import (
    check_ids,
    check_writable,
    remove_stale_temp_files,
    shrink_error,
    shrinks,
    store_lock,
    validate,
)
from deckcheck.imports.merge import merge
from deckcheck.imports.writer import SourceRows, read_store, write_store
from deckcheck.sources.records import SourceData


def _now() -> str:
    return clock.now_utc().replace(microsecond=0).isoformat()


def import_sources(db: str | os.PathLike[str] | None,
                   new: Iterable[SourceData], *, allow_smaller: bool = False) -> dict[str, Any]:
    """Add (or replace) sources in the store at `db` and rebuild the pool atomically.

    `new` holds `SourceData` (`deckcheck.sources.read_source` gives one). A source that
    would drop more than a small share of the cards it gave before, or a store that would
    lose that many cards, is refused (`guard.shrinks`) unless `allow_smaller`.
    Returns a summary (cards, sources…).
    """
    with gc_paused():
        return _import_sources(resolve_path(db), new, allow_smaller)


def _import_sources(path: Path, new: Iterable[SourceData],
                    allow_smaller: bool = False) -> dict[str, Any]:
    new = list(new)
    for sd in new:
        if not sd.records:
            raise ImportFailed(f"{sd.origin or sd.name} holds no cards deckcheck can read; "
                               "nothing was changed.")
        if not sd.checked:  # a checked parser's ids are whole numbers in range already
            check_ids(sd)
    check_writable(path)
    # One import at a time: each reads the store, merges and replaces it, so two at once
    # would each write a store without the other's source.
    with store_lock(path):
        remove_stale_temp_files(path)
        sources, before = read_store(path) if path.exists() else ({}, 0)
        now = _now()
        changed = []
        for sd in new:
            old = sources.get(sd.name)
            if (not allow_smaller and old is not None
                    and shrinks(len(old.records), len(sd.records))):
                raise shrink_error(f"{sd.origin or sd.name} ({sd.name})", len(old.records),
                                    len(sd.records))
            sources[sd.name] = SourceRows(sd.name, sd.records, sd.version, sd.origin, now,
                                          covers=sd.covers, plain=sd.plain, checked=sd.checked)
            changed.append(sd.name)
        merged = merge({name: rows.records for name, rows in sources.items()})
        if not merged.cards:
            raise ImportFailed("The data holds no complete cards (only names or ids for cards "
                               "no other source knows); import a full card source first.")
        if not allow_smaller and path.exists():
            if shrinks(before, len(merged.cards)):
                raise shrink_error(f"Importing {', '.join(changed)} into {path}", before,
                                    len(merged.cards))
        if not all(s.checked for s in sources.values()):
            # cards merged only from records their parsers checked are valid by construction
            # (`SourceData.checked`): pydantic is neither loaded nor run for them
            validate(merged.cards.values())
        write_store(path, sources, merged, now)
    return {"path": str(path), "imported": changed, "cards": len(merged.cards),
            "ids": len(merged.ids), "sources": {n: s.version for n, s in sources.items()}}

"""The `cards update` use case: YGOPRODeck's dump, online or from a file, into the store.

Online, `checkDBVer.php` is asked first: the download is skipped when it reports the version
already imported and the store still holds what that import wrote (`matches_record`). The
parts are the source's (`deckcheck.sources.ygoprodeck`: version, download, parse) and the
import's (`deckcheck.imports.run.import_sources`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck import clock
from deckcheck.cards.coverage import file_day, source_covers
from deckcheck.cards.dbpath import resolve_path
from deckcheck.cards.store import connect, store_info
from deckcheck.errors import CardPoolError, FailedDownload, ImportFailed
from deckcheck.gc_pause import gc_paused
from deckcheck.imports.run import import_sources
from deckcheck.sources import ygoprodeck
from deckcheck.sources.reading import digest, loads, unreadable
from deckcheck.sources.records import SourceData

if TYPE_CHECKING:  # the HTTP client only online (`update --from FILE` starts without it)
    from deckcheck.sources.http import Http, Progress

NAME = ygoprodeck.NAME


def update_ygoprodeck(db: str | os.PathLike[str] | None = None, *,
                      from_file: str | Path | None = None, http: Http | None = None,
                      url: str | None = None, force: bool = False,
                      progress: Progress | None = None,
                      allow_smaller: bool = False) -> dict[str, Any]:
    """Import the YGOPRODeck dump into the store: online (skipped when `checkDBVer.php`
    reports the version already imported and the store still holds what that import wrote,
    unless `force`) or from a file. A dump much smaller than the one stored is refused unless
    `allow_smaller` (see `deckcheck.imports.guard.shrinks`).

    Returns the import summary, with ``"unchanged": True`` when nothing needed doing.
    The previous store stays intact when anything fails.
    """
    path = resolve_path(db)
    if from_file is not None:
        return _from_file(path, from_file, allow_smaller)
    if http is None:
        from deckcheck.sources.http import Http, unreachable

        why = unreachable(ygoprodeck.base_url(url))
        if why is not None:
            raise FailedDownload(f"YGOPRODeck cannot be reached ({why}: offline?); nothing was "
                                 "changed — import card data you already have with `deckcheck "
                                 "cards import FILE`, or try again when online.")
        http = Http()
    version = ygoprodeck.remote_version(http, url)
    if not force and version is not None and path.exists():
        known = {s["name"]: s["version"] for s in store_info(path).get("sources", ())}
        if known.get(NAME) == version and matches_record(path, NAME):
            return {"path": str(path), "imported": [], "unchanged": True,
                    "sources": known, "version": version}
    return _online(path, http, url, version, progress, allow_smaller)


def _from_file(path: Path, from_file: str | Path, allow_smaller: bool) -> dict[str, Any]:
    raw = Path(from_file).read_bytes()  # once: for its digest and its answer
    if raw.startswith(b"SQLite format 3"):  # a cdb: card data, not this kind
        raise ImportFailed(f"{from_file} is an SQLite card database (EDOPro's cards.cdb?)"
                           ", not a YGOPRODeck cardinfo.php answer; nothing was changed"
                           f" — import it with `deckcheck cards import {from_file}`.")
    version = f"file {digest(raw)}"
    unread = [raw]  # parsed once, then let go; read again only to quote a refused card's
    del raw         # number as the file writes it (`ygoprodeck.read_records`)

    def read(exact: bool) -> Any:
        return ygoprodeck.load_file(from_file, exact, unread.pop() if unread else None)

    with gc_paused():
        # the answer and its records live only inside the calls: when the collector runs
        # again, it has no million objects left to walk (a twentieth of the import)
        return {**import_sources(path, [_file_source(from_file, read, version)],
                                 allow_smaller=allow_smaller),
                "unchanged": False}


def _file_source(from_file: str | Path, read: Callable[[bool], Any],
                 version: str) -> SourceData:
    """The records of a cardinfo answer in a file (`read(exact)` reads it)."""
    recs = ygoprodeck.read_records(
        read, from_file,
        f"{from_file} is not a YGOPRODeck cardinfo.php answer (no \"data\" list of cards); "
        "nothing was changed — import other card data with `deckcheck cards import FILE`.")
    sd = ygoprodeck.source(recs, version, str(from_file))
    sd.covers = source_covers(NAME, sd.records, file_day(from_file))
    return sd


def _online(path: Path, http: Http, url: str | None, version: str | None,
            progress: Progress | None, allow_smaller: bool) -> dict[str, Any]:
    """Download the dump beside the store, import it, delete the download."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CardPoolError(f"{path}: the card database cannot be written there "
                            f"({exc.strerror}); pass a file you may write with --db or "
                            "DECKCHECK_DB; nothing was changed.") from None
    base = ygoprodeck.base_url(url)
    tmp = ygoprodeck.download(http, path.parent, url, progress)
    try:
        with gc_paused():  # the answer and its records live only inside the calls
            return {**import_sources(path, [_answer_source(tmp, base, version)],
                                     allow_smaller=allow_smaller),
                    "unchanged": False, "version": version}
    finally:
        tmp.unlink(missing_ok=True)


def _answer_source(tmp: Path, base: str, version: str | None) -> SourceData:
    """The records of the answer downloaded into `tmp`."""
    def read(exact: bool) -> Any:
        try:
            return loads(tmp.read_bytes(), exact)
        except RecursionError:
            raise unreadable(f"The YGOPRODeck answer from {base}", RecursionError()) from None
        except ValueError:
            raise ImportFailed(f"The YGOPRODeck answer from {base} is not valid JSON (cut "
                               "off?); nothing was changed — try again later.") from None

    origin = f"{base}/cardinfo.php"
    sd = ygoprodeck.source(ygoprodeck.read_records(read, f"The answer from {origin}"), version,
                           origin)
    sd.covers = source_covers(NAME, sd.records, clock.today().isoformat())
    return sd


def matches_record(db: str | os.PathLike[str] | None, source: str) -> bool:
    """Whether the store holds what it recorded for `source`: as many of its records as the
    import counted, and as many cards as it wrote (a store changed or damaged since then does
    not match, so an update does not call it up to date)."""
    path = resolve_path(db)
    if not path.is_file():
        return False
    con = connect(path)
    try:
        row = con.execute("SELECT records, (SELECT count(*) FROM source_records WHERE source = "
                          "?) FROM sources WHERE name = ?", (source, source)).fetchone()
        meta = con.execute("SELECT value FROM meta WHERE key = 'cards'").fetchone()
        cards, = con.execute("SELECT count(*) FROM cards").fetchone()
    except sqlite3.Error:
        return False
    finally:
        con.close()
    return (row is not None and row[0] == row[1] and row[0] > 0 and meta is not None
            and str(cards) == meta[0])

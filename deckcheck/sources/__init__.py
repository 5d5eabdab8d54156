"""Upstream card-data sources: one parser module each, one shared HTTP helper (`http`).

Each source turns what its project publishes into source records (`deckcheck.sources.records`).
Sources only parse: merging the records of every source and writing the card store is the
import layer's job (`deckcheck.imports`). `read_source(path)` recognises a file by its content
(not its name): JSON, SQLite, or a .zip holding either, read through the bounded helpers of
`deckcheck.sources.reading`.
"""

from __future__ import annotations

import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any

from deckcheck.errors import ImportFailed
from deckcheck.gc_pause import gc_paused
from deckcheck.sources.reading import (
    UNEXPECTED,
    check_archive,
    digest,
    file_digest,
    json_member,
    open_member,
    read_json_file,
    unreadable,
    zip_error,
)
from deckcheck.sources.records import SourceData


def parse_json(data: Any, *, origin: str | None = None, version: str | None = None) -> SourceData:
    """Recognise a JSON document by its shape and parse it."""
    from deckcheck.sources import edopro_cdb, yamlyugi, ygocdb, ygoprodeck

    if ygoprodeck.looks_like(data):
        return ygoprodeck.source(list(ygoprodeck.parse(data)), version, origin)
    if yamlyugi.looks_like(data):
        return SourceData(yamlyugi.NAME, list(yamlyugi.parse(data)), version, origin)
    if ygocdb.looks_like(data):
        return SourceData(ygocdb.NAME, list(ygocdb.parse(data)), version, origin)
    if edopro_cdb.looks_like_mappings(data):
        return SourceData(edopro_cdb.MAPPINGS, list(edopro_cdb.parse_mappings(data)), version,
                          origin)
    raise ImportFailed(f"{origin or 'The file'} is not card data deckcheck knows (YGOPRODeck "
                       "cardinfo, YAML Yugi cards.json, ygocdb cards.json, EDOPro cdb or "
                       "mappings.json); nothing was changed.")


def read_source(path: str | Path) -> SourceData:
    """Read any supported card-data file, recognising the source from its content."""
    from deckcheck.cards.coverage import file_day, source_covers

    with gc_paused():
        try:
            sd = _read_source(path)
        except UNEXPECTED as exc:
            raise unreadable(path, exc) from None
    if not sd.covers:
        sd.covers = source_covers(sd.name, sd.records, file_day(path))
    return sd


def _read_source(path: str | Path) -> SourceData:
    from deckcheck.sources import edopro_cdb

    path = Path(path)
    if not path.is_file():
        raise ImportFailed(f"{path} does not exist or is not a file; check the path.")
    origin = str(path)
    if edopro_cdb.is_cdb(path):
        return _cdb(path, origin, file_digest(path))
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(b"SQLite format 3"):
        raise ImportFailed(f"{path} is an SQLite file but not a YGOPro card database (no datas/"
                           "texts tables, or the file is damaged); nothing was changed.")
    if zipfile.is_zipfile(path):  # its digest taken where it is not read whole below
        try:
            with zipfile.ZipFile(path) as zf:
                check_archive(zf, path)
                from deckcheck.sources import ygojson

                if ygojson.looks_like_zip(zf):
                    from deckcheck.cards.coverage import file_day, source_covers

                    sd = ygojson.read_zip(zf, origin=origin, version=file_digest(path))
                    sd.covers = source_covers(sd.name, sd.records, file_day(path, zf))
                    return sd
                cdbs = [n for n in zf.namelist() if n.lower().endswith((".cdb", ".db",
                                                                         ".sqlite"))]
                if cdbs and json_member(zf, None) is None:
                    with tempfile.TemporaryDirectory() as tmp:
                        member = max(cdbs, key=lambda n: zf.getinfo(n).file_size)
                        target = Path(tmp) / "member.cdb"
                        with open(target, "wb") as dst:
                            for chunk in open_member(zf, zf.getinfo(member), path):
                                dst.write(chunk)
                        if not edopro_cdb.is_cdb(target):
                            raise ImportFailed(f"{path} holds {member}, which is not a YGOPro "
                                               "card database; nothing was changed.")
                        return _cdb(target, origin, file_digest(path),
                                    label=Path(member).name)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
                RuntimeError) as exc:  # RuntimeError: an encrypted member
            raise zip_error(path, exc) from None
    raw = path.read_bytes()  # once, for its version (digest) and its data (a zip's too)
    return parse_json(read_json_file(path, raw=raw), origin=origin, version=digest(raw))


def _cdb(path: Path, origin: str, version: str, label: str | None = None) -> SourceData:
    from deckcheck.sources import edopro_cdb

    name = f"{edopro_cdb.NAME}:{label or path.name}"
    shown = f"{origin} ({label})" if label else None
    return SourceData(name, list(edopro_cdb.parse(path, source=edopro_cdb.NAME, shown=shown)),
                      version, origin)

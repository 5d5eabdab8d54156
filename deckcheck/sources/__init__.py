"""Upstream card-data sources: one module each, one shared HTTP helper (`http`).

Each source turns what its project publishes into *source records*: plain dicts keyed like
`deckcheck.cards.model.Card` fields (only what the source knows), plus

- ``alias`` (cdb): the id this record points at (alternate artwork or rule name),
- ``extra_ids``: more ids for the same card (prerelease ids),
- ``hints``: same-name rule evidence ``[evidence_key, "name"|"id", value, lang]``,
- ``spoke``: evidence keys of texts the source has for the card (silence is an opinion too),
- ``enrich_only``: the record only adds to cards other sources know.

`deckcheck.cards.merge` merges the records of all sources into cards. `read_source(path)`
recognises a file by its content (not its name): JSON, SQLite, or a .zip holding either.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckcheck.errors import ImportFailed

Record = dict[str, Any]

#: merge priority: earlier sources win for card facts and names.
PRIORITY = ("ygoprodeck", "yaml-yugi", "edopro", "ygocdb", "edopro-mappings")


@contextlib.contextmanager
def bulk() -> Iterator[None]:
    """Pause the cyclic garbage collector while building tens of thousands of small dicts
    (it would rescan the whole parsed dump again and again: about 2x slower imports)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def priority(source: str) -> int:
    base = source.split(":", 1)[0]
    return PRIORITY.index(base) if base in PRIORITY else len(PRIORITY)


@dataclass
class SourceData:
    """One source's records, ready for the store."""

    name: str
    records: list[Record]
    version: str | None = None
    origin: str | None = None


def _sha(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:12]


def read_json_file(path: Path, prefer: str | None = None) -> Any:
    """JSON from a file, or from the (preferred) .json member of a zip archive."""
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                member = _json_member(zf, prefer)
                if member is None:
                    raise ImportFailed(f"{path} holds no JSON file; nothing was changed — "
                                       "check the archive.")
                raw = zf.read(member)
        else:
            raw = path.read_bytes()
            if raw.startswith(b"PK\x03\x04"):
                raise ImportFailed(f"{path} is a damaged or incomplete zip archive; nothing was "
                                   "changed — download it again.")
            if not raw.strip():
                raise ImportFailed(f"{path} is empty; nothing was changed — download it again.")
        if b"\x00" in raw[:4096]:  # json.loads would guess UTF-16/32 and then say "bad JSON"
            raise UnicodeDecodeError("utf-8", raw[:1], 0, 1, "NUL byte")
        return json.loads(raw)
    except UnicodeDecodeError:
        raise ImportFailed(f"{path} is not card data (neither JSON text, an SQLite card "
                           "database nor a zip of one); nothing was changed — check the file."
                           ) from None
    except (ValueError, zipfile.BadZipFile) as exc:
        raise ImportFailed(f"{path} is not valid JSON ({str(exc).splitlines()[0][:80]}); "
                           "nothing was changed — download it again.") from None


def _json_member(zf: zipfile.ZipFile, prefer: str | None) -> str | None:
    names = [n for n in zf.namelist() if n.lower().endswith(".json")
             and not n.startswith("__MACOSX/") and "/._" not in n and not n.startswith("._")]
    if prefer:
        for n in names:
            if n.rsplit("/", 1)[-1] == prefer:
                return n
    return max(names, key=lambda n: zf.getinfo(n).file_size, default=None)


def parse_json(data: Any, *, origin: str | None = None, version: str | None = None) -> SourceData:
    """Recognise a JSON document by its shape and parse it."""
    from deckcheck.sources import edopro_cdb, yamlyugi, ygocdb, ygoprodeck

    if ygoprodeck.looks_like(data):
        return SourceData(ygoprodeck.NAME, list(ygoprodeck.parse(data)), version, origin)
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
    with bulk():
        return _read_source(path)


def _read_source(path: str | Path) -> SourceData:
    from deckcheck.sources import edopro_cdb

    path = Path(path)
    if not path.is_file():
        raise ImportFailed(f"{path} does not exist or is not a file; check the path.")
    version = _sha(path)
    origin = str(path)
    if edopro_cdb.is_cdb(path):
        return _cdb(path, origin, version)
    with open(path, "rb") as f:
        head = f.read(16)
    if head.startswith(b"SQLite format 3"):
        raise ImportFailed(f"{path} is an SQLite file but not a YGOPro card database (no datas/"
                           "texts tables, or the file is damaged); nothing was changed.")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            cdbs = [n for n in zf.namelist() if n.lower().endswith((".cdb", ".db", ".sqlite"))]
            if cdbs and _json_member(zf, None) is None:
                with tempfile.TemporaryDirectory() as tmp:
                    member = max(cdbs, key=lambda n: zf.getinfo(n).file_size)
                    target = Path(tmp) / Path(member).name
                    with zf.open(member) as src, open(target, "wb") as dst:
                        shutil.copyfileobj(src, dst)
                    if not edopro_cdb.is_cdb(target):
                        raise ImportFailed(f"{path} holds {member}, which is not a YGOPro card "
                                           "database; nothing was changed.")
                    return _cdb(target, origin, version, label=Path(member).name)
    return parse_json(read_json_file(path), origin=origin, version=version)


def _cdb(path: Path, origin: str, version: str, label: str | None = None) -> SourceData:
    from deckcheck.sources import edopro_cdb

    name = f"{edopro_cdb.NAME}:{label or path.name}"
    return SourceData(name, list(edopro_cdb.parse(path, source=edopro_cdb.NAME)), version, origin)

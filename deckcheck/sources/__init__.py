"""Upstream card-data sources: one module each, one shared HTTP helper (`http`).

Each source turns what its project publishes into *source records* (`SourceRecord`: plain
dicts, typed, keyed like `deckcheck.cards.model.Card` fields, holding only what the source
knows), plus

- ``alias`` (cdb): the id this record points at (alternate artwork or rule name),
- ``extra_ids``: more ids for the same card (prerelease ids),
- ``hints``: same-name rule evidence ``[evidence_key, "name"|"id", value, lang]``,
- ``spoke``: evidence keys of texts the source has for the card (silence is an opinion too),
- ``enrich_only``: the record only adds to cards other sources know,
- ``released``: first release per region ("tcg", "ocg", "kr", "sc", "md"…: YYYY-MM-DD; the
  merged card keeps the earliest any source gives),
- ``printed`` / ``tcg_printed``: the card has an official printing (in the TCG): an id of
  100,000,000 or more without one is unofficial (see `deckcheck.cards.merge`),
- ``master_duel``: whether the card is in Master Duel (True wins over False).

`deckcheck.cards.merge` merges the records of all sources into cards. `read_source(path)`
recognises a file by its content (not its name): JSON, SQLite, or a .zip holding either.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Required, TypedDict

from deckcheck.errors import ImportFailed
from deckcheck.gc_pause import gc_paused

#: same-name rule evidence: [evidence key, "name" | "id", the name or passcode, language or None]
Hint = list[Any]


class SourceRecord(TypedDict, total=False):
    """What one source says about one card (see the module docstring). Plain data: records
    are built, merged and stored by the ten thousand, and the merged card is validated once
    as a `deckcheck.cards.model.Card` by the store."""

    passcode: Required[int]
    name: str
    names: dict[str, str]
    kind: str
    frame: str
    text: str | None
    konami_id: int
    monster_types: list[str]
    level: int | None
    rank: int | None
    link_rating: int | None
    link_arrows: list[str]
    scale: int
    attribute: str | None
    race: str | None
    atk: int | None
    defense: int | None
    archetypes: list[str]
    scopes: list[str]
    cannot_normal_summon: bool
    alt_passcodes: list[int]
    alias: int
    extra_ids: list[int]
    hints: list[Hint]
    spoke: list[str]
    enrich_only: bool
    released: dict[str, str]
    printed: bool
    tcg_printed: bool
    master_duel: bool


#: merge priority: earlier sources win for card facts and names.
PRIORITY = ("ygoprodeck", "yaml-yugi", "edopro", "ygocdb", "ygojson", "edopro-mappings")

#: Limits on what an archive may unpack to, checked before and while reading (a small zip
#: can inflate to gigabytes): one member, all members together, the number of members, and
#: the ratio of a member's unpacked to packed size (JSON and SQLite pack 3-20x; a bomb
#: packs ~1000x).
MAX_MEMBER_BYTES = 192 * 1024 * 1024
MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024
MAX_MEMBERS = 100_000
MAX_RATIO = 200


def priority(source: str) -> int:
    base = source.split(":", 1)[0]
    return PRIORITY.index(base) if base in PRIORITY else len(PRIORITY)


@dataclass
class SourceData:
    """One source's records, ready for the store."""

    name: str
    records: list[SourceRecord]
    version: str | None = None
    origin: str | None = None
    #: family of facts -> the last day the data covers ("cards", "tcg", "ocg", "md";
    #: `deckcheck.cards.coverage`)
    covers: dict[str, str] = field(default_factory=dict)


def _too_big(path: Path | str, member: str, what: str) -> ImportFailed:
    return ImportFailed(f"{path}: {member} would unpack to {what}, more than any card data "
                        "deckcheck reads (a damaged file or a zip bomb); nothing was changed — "
                        "check the archive.")


def check_archive(zf: zipfile.ZipFile, path: Path | str) -> None:
    """Refuse an archive whose directory announces too many members or too many bytes."""
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ImportFailed(f"{path} holds {len(infos)} files, more than the {MAX_MEMBERS} "
                           "deckcheck reads from one archive; nothing was changed — check the "
                           "archive.")
    total = sum(i.file_size for i in infos)
    if total > MAX_ARCHIVE_BYTES:
        raise _too_big(path, "the archive", f"{total / 1e6:.0f} MB")


def _member_limit(info: zipfile.ZipInfo, limit: int) -> int:
    return min(limit, max(1 << 20, info.compress_size * MAX_RATIO))


def open_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path | str,
                limit: int = MAX_MEMBER_BYTES) -> Iterator[bytes]:
    """The bytes of one member, in chunks, stopping with `ImportFailed` as soon as it
    unpacks past `limit` or past `MAX_RATIO` times its packed size (the sizes in the archive's
    directory may lie, so the bytes are counted as they come)."""
    cap = _member_limit(info, limit)
    if info.file_size > cap:
        raise _too_big(path, info.filename, f"{info.file_size / 1e6:.0f} MB")
    done = 0
    with zf.open(info) as f:
        while chunk := f.read(1 << 20):
            done += len(chunk)
            if done > cap:
                raise _too_big(path, info.filename, f"more than {cap / 1e6:.0f} MB")
            yield chunk


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo | str, path: Path | str,
                limit: int = MAX_MEMBER_BYTES) -> bytes:
    """One member's bytes, bounded as `open_member` says."""
    if isinstance(info, str):
        info = zf.getinfo(info)
    if info.file_size <= 1 << 16 and info.compress_size * MAX_RATIO >= 1 << 16:
        with zf.open(info) as f:  # small members (most of YGOJSON's): one read, still capped
            data = f.read(1 << 16 | 1)
        if len(data) <= 1 << 16:
            return data
    return b"".join(open_member(zf, info, path, limit))


def zip_error(path: Path | str, exc: Exception) -> ImportFailed:
    """The sentence for an archive zipfile cannot unpack."""
    if isinstance(exc, RuntimeError) and "encrypted" in str(exc):
        return ImportFailed(f"{path} is encrypted (password-protected); deckcheck reads only "
                            "plain archives — unpack it yourself and import the file inside.")
    if isinstance(exc, NotImplementedError):
        return ImportFailed(f"{path} uses a compression deckcheck cannot unpack ({exc}); "
                            "unpack it yourself and import the file inside.")
    return ImportFailed(f"{path} is a damaged zip archive ({str(exc)[:80]}); nothing was "
                        "changed — download it again.")


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
                check_archive(zf, path)
                member = _json_member(zf, prefer)
                if member is None:
                    raise ImportFailed(f"{path} holds no JSON file; nothing was changed — "
                                       "check the archive.")
                raw = read_member(zf, member, path)
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
    except RecursionError:  # before RuntimeError, its base class (an encrypted member)
        raise ImportFailed(f"{path} nests its JSON deeper than any card data does (a damaged "
                           "or hostile file); nothing was changed — check the file.") from None
    except UnicodeDecodeError:
        raise ImportFailed(f"{path} is not card data (neither JSON text, an SQLite card "
                           "database nor a zip of one); nothing was changed — check the file."
                           ) from None
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
            RuntimeError) as exc:  # RuntimeError: an encrypted member
        raise zip_error(path, exc) from None
    except ValueError as exc:
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
    from deckcheck.cards.coverage import file_day, source_covers

    with gc_paused():
        try:
            sd = _read_source(path)
        except UNEXPECTED as exc:
            raise unreadable(path, exc) from None
    if not sd.covers:
        sd.covers = source_covers(sd.name, sd.records, file_day(path))
    return sd


#: What a parser raises when a value has a type or size the source never publishes (text
#: where a number belongs, a number where a list does): turned into `unreadable`'s sentence
#: at the boundary, so any input gives cards or one sentence, never a traceback.
UNEXPECTED = (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError,
              RecursionError)


def unreadable(where: Path | str, exc: BaseException) -> ImportFailed:
    """The sentence for card data holding a value of a type or size no importer expects."""
    if isinstance(exc, RecursionError):
        what = "nests its data deeper than any card data does"
    else:
        what = f"holds a value deckcheck cannot read as card data ({type(exc).__name__}: " \
               f"{str(exc).splitlines()[0][:80] if str(exc) else 'no detail'})"
    return ImportFailed(f"{where} {what}; nothing was changed — check the file.")


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
        try:
            with zipfile.ZipFile(path) as zf:
                check_archive(zf, path)
                from deckcheck.sources import ygojson

                if ygojson.looks_like_zip(zf):
                    return ygojson.read_zip(zf, origin=origin, version=version)
                cdbs = [n for n in zf.namelist() if n.lower().endswith((".cdb", ".db",
                                                                         ".sqlite"))]
                if cdbs and _json_member(zf, None) is None:
                    with tempfile.TemporaryDirectory() as tmp:
                        member = max(cdbs, key=lambda n: zf.getinfo(n).file_size)
                        target = Path(tmp) / "member.cdb"
                        with open(target, "wb") as dst:
                            for chunk in open_member(zf, zf.getinfo(member), path):
                                dst.write(chunk)
                        if not edopro_cdb.is_cdb(target):
                            raise ImportFailed(f"{path} holds {member}, which is not a YGOPro "
                                               "card database; nothing was changed.")
                        return _cdb(target, origin, version, label=Path(member).name)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError,
                RuntimeError) as exc:  # RuntimeError: an encrypted member
            raise zip_error(path, exc) from None
    return parse_json(read_json_file(path), origin=origin, version=version)


def _cdb(path: Path, origin: str, version: str, label: str | None = None) -> SourceData:
    from deckcheck.sources import edopro_cdb

    name = f"{edopro_cdb.NAME}:{label or path.name}"
    shown = f"{origin} ({label})" if label else None
    return SourceData(name, list(edopro_cdb.parse(path, source=edopro_cdb.NAME, shown=shown)),
                      version, origin)

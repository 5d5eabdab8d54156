"""Reading card-data files safely: archives bounded in what they may unpack to, JSON from a
file or a zip member, a file's short digest (its version), and the one sentence for a value
no parser expects. Shared by every source's parser and by `deckcheck.sources.read_source`.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from deckcheck.errors import ImportFailed

#: Limits on what an archive may unpack to, checked before and while reading (a small zip
#: can inflate to gigabytes): one member, all members together, the number of members, and
#: the ratio of a member's unpacked to packed size (JSON and SQLite pack 3-20x; a bomb
#: packs ~1000x).
MAX_MEMBER_BYTES = 192 * 1024 * 1024
MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024
MAX_MEMBERS = 100_000
MAX_RATIO = 200


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


def digest(raw: bytes) -> str:
    """`file_digest` of a file whose bytes are `raw` (read once for the digest and the data)."""
    return hashlib.sha256(raw).hexdigest()[:12]


def file_digest(path: Path) -> str:
    """A file's short digest (its version when the data names none), read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:12]


def read_json_file(path: Path, prefer: str | None = None, exact: bool = True,
                   raw: bytes | None = None) -> Any:
    """JSON from a file, or from the (preferred) .json member of a zip archive (`exact`: see
    `loads`). `raw`: the file's bytes, when the caller has read them already (they are not
    read again)."""
    try:
        src: Path | io.BytesIO = path if raw is None else io.BytesIO(raw)
        if zipfile.is_zipfile(src):
            with zipfile.ZipFile(src) as zf:
                check_archive(zf, path)
                member = json_member(zf, prefer)
                if member is None:
                    raise ImportFailed(f"{path} holds no JSON file; nothing was changed — "
                                       "check the archive.")
                raw = read_member(zf, member, path)
        else:
            if raw is None:
                raw = path.read_bytes()
            if raw.startswith(b"PK\x03\x04"):
                raise ImportFailed(f"{path} is a damaged or incomplete zip archive; nothing was "
                                   "changed — download it again.")
            if not raw or raw.isspace():  # `not raw.strip()`, without a copy of the text
                raise ImportFailed(f"{path} is empty; nothing was changed — download it again.")
        if b"\x00" in raw[:4096]:  # json.loads would guess UTF-16/32 and then say "bad JSON"
            raise UnicodeDecodeError("utf-8", raw[:1], 0, 1, "NUL byte")
        return loads(raw, exact)
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


#: every byte that is no digit -> " ", every digit -> "0" (`loads`' test for long numbers)
_DIGITS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_NUMBER = b"0" * 19


def loads(raw: bytes, exact: bool = True) -> Any:
    """`json.loads(raw)`: the same values, or the same error. orjson parses it 2x faster
    and gives the same values for any text it accepts, except that it reads an integer
    beyond 64 bits as a float: text holding a run of 19 digits anywhere (no card data does;
    -9223372036854775809 is the shortest number orjson reads wrong) goes to the standard
    library, and so does
    anything orjson refuses (NaN, a number too big for a float, a lone surrogate, a byte
    order mark, a deep nesting, bad JSON), which then parses it or raises its own error.

    `exact=False`, for a caller that treats an integer beyond 64 bits and its float alike:
    the text is not searched for long numbers (a tenth of the time), so such an integer
    may come as a float; errors are the same."""
    if not exact or raw.translate(_DIGITS).find(_LONG_NUMBER) < 0:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


def json_member(zf: zipfile.ZipFile, prefer: str | None) -> str | None:
    names = [n for n in zf.namelist() if n.lower().endswith(".json")
             and not n.startswith("__MACOSX/") and "/._" not in n and not n.startswith("._")]
    if prefer:
        for n in names:
            if n.rsplit("/", 1)[-1] == prefer:
                return n
    return max(names, key=lambda n: zf.getinfo(n).file_size, default=None)


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



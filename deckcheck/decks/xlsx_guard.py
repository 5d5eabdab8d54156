"""What an xlsx workbook may hold before openpyxl sees it: every bound checked first, cheaply.

A workbook is a zip archive of XML parts, and openpyxl's work (time and memory) grows with
what those parts hold, not with the file's size: a 376 KB file of one million cell styles took
889 MB and 14 s, 4.2 million shared strings 709 MB and 28 s, a sheet of 1,048,576 rows 8.8 s.
So before openpyxl opens anything, `check_archive`

- refuses what is no zip archive, an archive of more than `MAX_ENTRIES` entries, entries
  compressed with anything but deflate (Excel writes nothing else; bzip2 and lzma have no
  output bound per read), and archives that would inflate beyond `MAX_UNZIPPED` or compress
  suspiciously well (zip bombs), all from the sizes the archive declares (zipfile never
  inflates an entry beyond its declared size);
- then streams every XML part once, in bounded memory, counting cells (twice in a sheet
  without a size, which openpyxl parses twice), rows, shared strings and style records, and
  stops at the first limit crossed (`MAX_CELLS`, `MAX_ROW_ELEMENTS`,
  `MAX_SHARED_STRINGS`, `MAX_STYLES`); a part holding a DTD (`<!DOCTYPE`, `<!ENTITY`: entity
  expansion, external entities) or text that is not UTF-8 is refused too.

Every refusal is a `DeckReadError` of one sentence. The whole check reads each XML part once,
so it takes a fraction of a second on anything under the limits.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterator

from deckcheck.errors import DeckReadError

#: Refuse workbooks whose entries would inflate beyond this, or compress suspiciously well.
MAX_UNZIPPED = 100 * 1024 * 1024
MAX_RATIO = 200
MAX_ENTRIES = 2000
#: Cells (`<c>` elements, empty styled ones included) in the whole workbook. A registration
#: form holds a few hundred; an event table of 2,000 players by 15 columns, 30,000. A sheet
#: without a `<dimension>` element counts twice: openpyxl parses it once more to size it.
MAX_CELLS = 40_000
#: Row elements in the whole workbook (each sheet is read up to `source.MAX_ROWS` rows).
MAX_ROW_ELEMENTS = 30_000
#: Entries of the shared-strings table (never more than the cells that could use them).
MAX_SHARED_STRINGS = MAX_CELLS
#: Style records (cell formats, fonts, fills, borders, number formats, named and
#: conditional styles). Excel itself allows 64,000 cell formats; real forms use a few dozen.
MAX_STYLES = 20_000

_PREFIX = rb"(?:[A-Za-z_][\w.-]{0,30}:)?"  # an optional namespace prefix (x:c)
_COUNTED = re.compile(rb"<" + _PREFIX + rb"(c|row|si|xf|font|fill|border|numFmt|dxf|cellStyle|"
                      rb"dimension)[\s/>]")
#: The longest match of `_COUNTED` (so that a match is never cut between two chunks).
_LONGEST = 1 + 32 + len("cellStyle") + 1
_CHUNK = 1 << 20
_XML_SUFFIXES = (".xml", ".rels", ".vml")
_KIND = {b"c": "cells", b"row": "rows", b"si": "shared strings", b"dimension": "dimensions"}
_LIMITS = {"cells": MAX_CELLS, "rows": MAX_ROW_ELEMENTS, "shared strings": MAX_SHARED_STRINGS,
           "style records": MAX_STYLES, "dimensions": 10**9}


def check_archive(data: bytes, where: str, max_unzipped: int | None = None) -> None:
    """Refuse (DeckReadError) what is no xlsx archive or exceeds a bound (see the module);
    `max_unzipped` may be set lower by a caller that expects one small deck."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except Exception:  # zipfile raises many kinds on a damaged directory (NotImplementedError
        # for an unknown "version needed", struct and value errors, ...)
        raise DeckReadError(f"{where} is not an xlsx workbook (not a zip archive); save it as "
                            "Excel .xlsx or name its format.") from None
    with zf:
        infos = zf.infolist()
        _check_sizes(infos, where, MAX_UNZIPPED if max_unzipped is None else max_unzipped)
        counts = dict.fromkeys(_LIMITS, 0)
        for info in infos:
            if info.filename.lower().endswith(_XML_SUFFIXES):
                _scan_part(zf, info, counts, where)


def _check_sizes(infos: list[zipfile.ZipInfo], where: str, max_unzipped: int) -> None:
    if len(infos) > MAX_ENTRIES:
        raise DeckReadError(f"{where} holds {len(infos):,} archive entries, which is no deck "
                            "workbook; refusing to open it.")
    for i in infos:
        if i.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise DeckReadError(f"{where}: entry {i.filename!r} uses a compression Excel never "
                                "writes; open and save the workbook again in a spreadsheet "
                                "program.")
    total = sum(i.file_size for i in infos)
    packed = sum(i.compress_size for i in infos)
    if total > max_unzipped:
        raise DeckReadError(f"{where} would inflate to {total / 2**20:.0f} MB (limit "
                            f"{max_unzipped // 2**20} MB); refusing to open it.")
    for i in infos:
        if i.file_size > 1_000_000 and i.file_size > MAX_RATIO * max(i.compress_size, 1):
            raise DeckReadError(f"{where}: entry {i.filename!r} compresses {MAX_RATIO}+ to 1 "
                                "(a zip bomb?); refusing to open it.")
    if total > 1_000_000 and total > MAX_RATIO * max(packed, 1):
        raise DeckReadError(f"{where} compresses {MAX_RATIO}+ to 1 (a zip bomb?); refusing to "
                            "open it.")


def _chunks(zf: zipfile.ZipFile, info: zipfile.ZipInfo, where: str) -> Iterator[bytes]:
    try:
        with zf.open(info) as f:
            while chunk := f.read(_CHUNK):
                yield chunk
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
            RuntimeError, NotImplementedError, zlib.error):
        raise DeckReadError(f"{where}: entry {info.filename!r} is damaged; open and save the "
                            "workbook again in a spreadsheet program.") from None


def _scan_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo, counts: dict[str, int],
               where: str) -> None:
    """Count what `counts` counts in one XML part, refusing at the first limit crossed."""
    carry = b""
    first = True
    cells, dimensions = counts["cells"], counts["dimensions"]
    for chunk in _chunks(zf, info, where):
        if first:
            first = False
            if chunk.startswith((b"\xff\xfe", b"\xfe\xff")) or chunk[1:2] == b"\x00":
                raise DeckReadError(f"{where}: part {info.filename!r} is not UTF-8 XML (Excel "
                                    "writes nothing else); open and save the workbook again "
                                    "in a spreadsheet program.")
        buf = carry + chunk
        if b"<!DOCTYPE" in buf or b"<!ENTITY" in buf:
            raise DeckReadError(f"{where}: part {info.filename!r} declares a DTD (entities), "
                                "which no spreadsheet writes; refusing to open it.")
        cut = max(len(buf) - _LONGEST, 0)
        _count(buf, cut, counts, where)
        carry = buf[cut:]
    if carry:
        _count(carry, len(carry), counts, where)
    if counts["dimensions"] == dimensions and counts["cells"] > cells:  # read twice: count twice
        counts["cells"] += counts["cells"] - cells
        if counts["cells"] > MAX_CELLS:
            raise DeckReadError(_too_many(where, "cells"))


def _count(buf: bytes, cut: int, counts: dict[str, int], where: str) -> None:
    """Count the matches of `_COUNTED` starting before `cut` (later ones are counted with the
    next chunk)."""
    for m in _COUNTED.finditer(buf, 0, len(buf)):
        if m.start() >= cut:
            break
        kind = _KIND.get(m.group(1), "style records")
        counts[kind] += 1
        if counts[kind] > _LIMITS[kind]:
            raise DeckReadError(_too_many(where, kind))


def _too_many(where: str, kind: str) -> str:
    return (f"{where} holds more than {_LIMITS[kind]:,} {kind}, which is no deck or "
            "registration workbook; refusing to open it (remove unused sheets, rows or "
            "formatting).")

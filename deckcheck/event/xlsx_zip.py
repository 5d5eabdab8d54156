"""The event workbook's zip container: each member deflated by ISA-L (`isal`, ~4x zlib's
level 1 at a slightly smaller size: 13.8 MB of a 4,000-player report's XML in 18 against
72 ms), and one member's data compressed in parts by several processes (`xlsx_tables` has
forked helpers render and compress shares of a long sheet's rows).

`zipfile` compresses with zlib, in the one process writing the member, and takes no data
compressed elsewhere: hence this small writer. Each part of a member is a raw deflate stream
ended by a sync flush (byte-aligned, no final block), so parts compressed in different
processes, copied one after another, are one valid stream (as pigz joins its blocks; each
part starts a stream of its own, so it never refers back into data it did not see). The
member's CRC-32 is that of its parts combined (ISA-L's `crc32_combine`, which Python's `zlib`
does not offer). Members are written as `zipfile` writes them (deflated, the CRC and sizes in
the local header, patched once the data is written; no ZIP64: a member of 2 GiB or more is
refused with a sentence, as `zipfile` refuses it unless told to use ZIP64).
"""

from __future__ import annotations

import struct
import time
from typing import BinaryIO

from isal import isal_zlib
from isal.isal_zlib import crc32_combine  # (the tests hold it to zlib's CRC)

from deckcheck.errors import DeckcheckError

#: The compression level of every member (ISA-L's 1, as `zipfile`'s `compresslevel=1` was):
#: ~8x smaller than the XML.
LEVEL = 1
#: The largest member (`zipfile.ZIP64_LIMIT`: larger needs ZIP64).
_LIMIT = (1 << 31) - 1

_LOCAL = struct.Struct("<4s5H3L2H")
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_END = struct.Struct("<4s4H2LH")
#: version made by (Unix, 2.0), version needed to extract (2.0), method (deflate)
_MADE_BY, _NEEDED, _DEFLATED = (3 << 8) | 20, 20, 8
#: a member's Unix permissions, as `zipfile.ZipFile.writestr` gives them (rw-------)
_ATTRIBUTES = 0o600 << 16


class Part:
    """One part of a member's data, compressed where it is made and written to `out`:
    `write` the data as it comes; `cut` writes out what is compressed so far, ending where
    the part may stop (a sync flush: another process may copy the part up to there while it
    grows); `finish` ends the member's stream. `crc` and `size` are those of the data
    written so far."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._deflate = isal_zlib.compressobj(LEVEL, isal_zlib.DEFLATED, -15)
        self.crc = 0
        self.size = 0

    def write(self, data: bytes) -> None:
        self.crc = isal_zlib.crc32(data, self.crc)
        self.size += len(data)
        done = self._deflate.compress(data)
        if done:
            self._out.write(done)

    def cut(self) -> None:
        """Write out what is compressed so far, byte-aligned: what is written up to here is
        a whole part (`crc`, `size`) that another may follow."""
        self._out.write(self._deflate.flush(isal_zlib.Z_SYNC_FLUSH))

    def finish(self) -> None:
        """Write out the rest, ending the member's stream (its last part)."""
        self._out.write(self._deflate.flush(isal_zlib.Z_FINISH))


class Member:
    """A member being written (`ZipWriter.open`). `write` compresses here; a part compressed
    elsewhere (ended by `Part.cut`) is copied in between `begin_part` and `end_part`, as its
    compressed bytes come (`raw`)."""

    def __init__(self, zip: ZipWriter, name: bytes, offset: int) -> None:
        self._zip, self.name, self.offset = zip, name, offset
        self._part: Part | None = Part(zip.out)
        self._crc = 0  # of the data before `_part`
        self._size = 0

    def write(self, data: bytes) -> None:
        if self._part is None:
            raise ValueError("a part made elsewhere is being copied in (end_part first)")
        self._part.write(data)

    def begin_part(self) -> None:
        """What was written here so far is cut; a part made elsewhere follows (`raw`)."""
        part = self._part
        if part is not None:
            part.cut()
            self._add(part.crc, part.size)
            self._part = None

    def raw(self, data: bytes) -> None:
        """Compressed bytes of the part being copied in, as they are."""
        self._zip.out.write(data)

    def end_part(self, crc: int, size: int) -> None:
        """The part copied in is complete: `crc` and `size` of its data; what is written here
        next starts anew."""
        self._add(crc, size)
        self._part = Part(self._zip.out)

    def _add(self, crc: int, size: int) -> None:
        self._crc = crc32_combine(self._crc, crc, size)
        self._size += size

    def close(self) -> None:
        part = self._part or Part(self._zip.out)  # after a part copied in: an empty one
        part.finish()
        self._add(part.crc, part.size)
        self._zip.closed(self, self._crc, self._size)

    def __enter__(self) -> Member:
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        if kind is None:
            self.close()


class ZipWriter:
    """A zip file being written to `out` (a seekable binary file, left open): `writestr`
    for a small member, `open` for one streamed; `close` writes the central directory."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self._done: list[tuple[bytes, int, int, int, int]] = []  # name, offset, crc, sizes
        t = time.localtime()
        if 1980 <= t.tm_year <= 2107:  # what a zip's date can hold
            self._time = (t.tm_hour << 11) | (t.tm_min << 5) | (t.tm_sec // 2)
            self._date = ((t.tm_year - 1980) << 9) | (t.tm_mon << 5) | t.tm_mday
        else:  # a clock set far off: 1980-01-01 00:00, zip's first day
            self._time, self._date = 0, (1 << 5) | 1

    def open(self, name: str) -> Member:
        raw = name.encode("ascii")  # the workbook's part names
        offset = self.out.tell()
        self.out.write(self._local(raw, 0, 0, 0))
        return Member(self, raw, offset)

    def writestr(self, name: str, text: str) -> None:
        with self.open(name) as member:
            member.write(text.encode("utf-8"))

    def _local(self, name: bytes, crc: int, packed: int, size: int) -> bytes:
        return _LOCAL.pack(b"PK\x03\x04", _NEEDED, 0, _DEFLATED, self._time, self._date, crc,
                           packed, size, len(name), 0) + name

    def closed(self, member: Member, crc: int, size: int) -> None:
        """`member`'s data is written: its sizes and CRC go into its local header."""
        end = self.out.tell()
        packed = end - (member.offset + _LOCAL.size + len(member.name))
        if size > _LIMIT or packed > _LIMIT:
            raise DeckcheckError(f"The report's {member.name.decode()} would hold more than "
                                 "2 GiB, more than a workbook can; write the report as CSV "
                                 "(-o report.csv) instead.")
        self.out.seek(member.offset)
        self.out.write(self._local(member.name, crc, packed, size))
        self.out.seek(end)
        self._done.append((member.name, member.offset, crc, packed, size))

    def close(self) -> None:
        start = self.out.tell()
        for name, offset, crc, packed, size in self._done:
            self.out.write(_CENTRAL.pack(b"PK\x01\x02", _MADE_BY, _NEEDED, 0, _DEFLATED,
                                         self._time, self._date, crc, packed, size, len(name),
                                         0, 0, 0, 0, _ATTRIBUTES, offset) + name)
        length = self.out.tell() - start
        n = len(self._done)
        self.out.write(_END.pack(b"PK\x05\x06", 0, 0, n, n, length, start, 0))

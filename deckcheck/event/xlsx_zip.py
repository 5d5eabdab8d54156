"""The zip container of the event workbook: entries deflated as `zipfile` writes them, plus
entries whose data was compressed beforehand, piece by piece.

`zipfile` compresses everything it is given at the time it is written. The event workbook's
longest part, the Problems sheet, can be compressed while the event is still being checked
(`report_xlsx.PreparedRows`, with `--jobs`): a `Compressed` piece is raw deflate data that
starts with a fresh dictionary and ends on a byte boundary (a full flush), so it can be
placed between the parts compressed here; the entry's CRC-32 is combined from the pieces'
(`crc32_combine`, as zlib's). The file is a plain zip (no data descriptors, no zip64):
Excel, LibreOffice, openpyxl and `zipfile` read it. An entry or file of 4 GiB or more is
refused (an event that large has millions of registrations).
"""

from __future__ import annotations

import struct
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

#: zlib level for every entry (as the workbook was written with `zipfile`, compresslevel=1).
LEVEL = 1
#: The largest size (and offset) a zip without zip64 can hold.
LIMIT = 0xFFFFFFFF


@dataclass
class Compressed:
    """Data compressed beforehand: raw deflate from a fresh `compressobj(LEVEL, DEFLATED,
    -15)` ended with `flush(Z_FULL_FLUSH)`, read from `file` (from its start); `crc` and
    `size` are those of the data before compression."""

    file: Any
    crc: int
    size: int


class Compressing:
    """Data compressed as it is written to `file`, for an entry's `Entry.add` later."""

    def __init__(self, file: Any) -> None:
        self.file = file
        self._z = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        self.crc = 0
        self.size = 0

    def write(self, data: bytes) -> int:
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        out = self._z.compress(data)
        if out:
            self.file.write(out)
        return len(data)

    def finish(self) -> Compressed:
        """The data written, as a piece (nothing can be written after)."""
        self.file.write(self._z.flush(zlib.Z_FULL_FLUSH))
        self.file.flush()
        return Compressed(self.file, self.crc, self.size)


def _gf2_times(mat: list[int], vec: int) -> int:
    total, i = 0, 0
    while vec:
        if vec & 1:
            total ^= mat[i]
        vec >>= 1
        i += 1
    return total


def _gf2_square(mat: list[int]) -> list[int]:
    return [_gf2_times(mat, mat[n]) for n in range(32)]


def crc32_combine(crc1: int, crc2: int, len2: int) -> int:
    """The CRC-32 of A + B from crc1 = crc32(A), crc2 = crc32(B) and len2 = len(B) (zlib's
    crc32_combine: crc1 advanced over len2 zero bytes in GF(2), then crc2 added)."""
    if len2 <= 0:
        return crc1
    odd = [0xEDB88320] + [1 << n for n in range(31)]  # one zero bit
    even = _gf2_square(odd)  # two zero bits
    odd = _gf2_square(even)  # four zero bits
    while True:
        even = _gf2_square(odd)
        if len2 & 1:
            crc1 = _gf2_times(even, crc1)
        len2 >>= 1
        if not len2:
            break
        odd = _gf2_square(even)
        if len2 & 1:
            crc1 = _gf2_times(odd, crc1)
        len2 >>= 1
        if not len2:
            break
    return crc1 ^ crc2


class Entry:
    """One entry being written straight to the zip file: plain data (`write`) is deflated,
    pieces compressed beforehand (`add`) are copied, in order."""

    def __init__(self, f: BinaryIO) -> None:
        self.f = f
        self._z = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        self.crc = 0
        self.size = 0
        self.csize = 0

    def _out(self, data: bytes) -> None:
        if data:
            self.f.write(data)
            self.csize += len(data)

    def write(self, data: bytes) -> int:
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        self._out(self._z.compress(data))
        return len(data)

    def add(self, piece: Compressed) -> None:
        """Place data compressed beforehand here (see `Compressed`)."""
        self._out(self._z.flush(zlib.Z_FULL_FLUSH))  # nothing after it refers back
        piece.file.seek(0)
        while chunk := piece.file.read(1 << 20):
            self._out(chunk)
        self.crc = crc32_combine(self.crc, piece.crc, piece.size)
        self.size += piece.size


class ZipWriter:
    """A zip file written entry by entry to `f` (a new, empty, seekable binary file): each
    entry's header is written first and filled in once its data is written."""

    def __init__(self, f: BinaryIO) -> None:
        self.f = f
        self.central: list[bytes] = []
        t = time.localtime()
        self.dostime = t.tm_hour << 11 | t.tm_min << 5 | t.tm_sec // 2
        self.dosdate = (t.tm_year - 1980) << 9 | t.tm_mon << 5 | t.tm_mday

    def writestr(self, name: str, data: str | bytes) -> None:
        with self.open(name) as entry:
            entry.write(data.encode() if isinstance(data, str) else data)

    @contextmanager
    def open(self, name: str) -> Iterator[Entry]:
        """An entry to write `name`'s data to; written out when the block ends."""
        raw = name.encode()
        flags = 0 if name.isascii() else 0x800  # a UTF-8 name
        offset = self.f.tell()
        self.f.write(b"\0" * (30 + len(raw)))  # the header, filled in below
        entry = Entry(self.f)
        yield entry
        entry._out(entry._z.flush())
        if max(entry.size, entry.csize, offset) >= LIMIT:
            raise ValueError(f"{name}: 4 GiB or more, more than a workbook without zip64 holds")
        fields = (20, flags, 8, self.dostime, self.dosdate, entry.crc, entry.csize, entry.size,
                  len(raw))
        end = self.f.tell()
        self.f.seek(offset)
        self.f.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", *fields, 0) + raw)
        self.f.seek(end)
        self.central.append(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 0x0314, *fields, 0, 0,
                                        0, 0, 0o600 << 16, offset) + raw)

    def close(self) -> None:
        directory = b"".join(self.central)
        n, offset = len(self.central), self.f.tell()
        if offset >= LIMIT:
            raise ValueError("the workbook is 4 GiB or more, more than it holds without zip64")
        self.f.write(directory + struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, n, n,
                                             len(directory), offset, 0))

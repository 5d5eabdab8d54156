"""The workbook's zip writer: CRC-32 combined as zlib's, pieces compressed beforehand."""

from __future__ import annotations

import io
import random
import zipfile
import zlib

from deckcheck.event.xlsx_zip import Compressing, ZipWriter, crc32_combine


def test_crc32_combine_is_the_crc_of_the_joined_data() -> None:
    rng = random.Random(13)
    for _ in range(100):
        a = rng.randbytes(rng.randint(0, 3000))
        b = rng.randbytes(rng.randint(0, 5000))
        assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)
    big = b"x" * 3_000_001
    assert crc32_combine(zlib.crc32(b"ab"), zlib.crc32(big), len(big)) == zlib.crc32(b"ab" + big)


def test_entries_with_pieces_compressed_beforehand_read_back() -> None:
    rows = b"".join(b'<row r="%d"><c>h\xc3\xa9llo &amp; %d</c></row>' % (i, i % 7)
                    for i in range(30000))
    piece = Compressing(io.BytesIO())
    piece.write(rows[:999])  # in several writes, as the rows come
    piece.write(rows[999:])
    done = piece.finish()
    buf = io.BytesIO()
    zw = ZipWriter(buf)
    zw.writestr("[Content_Types].xml", "h\u00e9llo")
    head, tail = b"<worksheet>" + b"head " * 999, b"</worksheet>"
    with zw.open("xl/worksheets/sheet1.xml") as entry:
        entry.write(head)
        entry.add(done)
        entry.write(tail)
    with zw.open("empty.xml"):
        pass
    with zw.open("only.xml") as entry:
        entry.add(done)
    zw.close()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        assert zf.testzip() is None
        assert zf.namelist() == ["[Content_Types].xml", "xl/worksheets/sheet1.xml",
                                 "empty.xml", "only.xml"]
        assert zf.read("[Content_Types].xml") == "h\u00e9llo".encode()
        assert zf.read("xl/worksheets/sheet1.xml") == head + rows + tail
        assert zf.read("empty.xml") == b"" and zf.read("only.xml") == rows
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in zf.infolist())

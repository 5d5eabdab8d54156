"""`event.xlsx_zip`: a zip whose members may be compressed in parts elsewhere, as `zipfile`
reads them."""

from __future__ import annotations

import io
import random
import zipfile
import zlib

import pytest

from deckcheck.errors import DeckcheckError
from deckcheck.event import xlsx_zip
from deckcheck.event.xlsx_zip import Part, ZipWriter, crc32_combine


@pytest.mark.parametrize("sizes", [(0, 0), (0, 5), (5, 0), (1, 1), (7, 100_000),
                                   (65_537, 3), (1 << 20, 1 << 20)])
def test_crc32_combine_is_the_crc_of_the_two_texts_one_after_the_other(
        sizes: tuple[int, int]) -> None:
    rng = random.Random(sum(sizes))
    a, b = (rng.randbytes(n) for n in sizes)
    assert crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)


def _made_elsewhere(data: list[bytes]) -> tuple[bytes, int, int]:
    """A part compressed as a helper does it (cut after each block): its bytes, CRC, size."""
    out = io.BytesIO()
    part = Part(out)
    for block in data:
        part.write(block)
        part.cut()
    return out.getvalue(), part.crc, part.size


def test_parts_compressed_here_and_elsewhere_are_one_member() -> None:
    """Text written here, a part copied in (as its bytes come), more text here, then a part
    copied in last: `zipfile` reads the text in order and finds its CRC right; the small
    members around it too."""
    rng = random.Random(1)
    text = [rng.choice([b"<row>", b"cell", b"&amp;", b"\n"]) * rng.randrange(1, 5000)
            for _ in range(40)]
    f = io.BytesIO()
    zf = ZipWriter(f)
    zf.writestr("a.xml", "<a>é</a>")
    with zf.open("xl/sheet.xml") as member:
        member.write(b"".join(text[:10]))
        raw, crc, size = _made_elsewhere(text[10:25])
        member.begin_part()
        for i in range(0, len(raw), 1000):  # as the copy reads them
            member.raw(raw[i:i + 1000])
        member.end_part(crc, size)
        member.write(b"".join(text[25:30]))
        raw, crc, size = _made_elsewhere(text[30:])
        member.begin_part()
        member.raw(raw)
        member.end_part(crc, size)
    zf.writestr("z.xml", "")
    zf.close()
    with zipfile.ZipFile(io.BytesIO(f.getvalue())) as back:
        assert back.testzip() is None
        assert back.namelist() == ["a.xml", "xl/sheet.xml", "z.xml"]
        assert back.read("xl/sheet.xml") == b"".join(text)
        assert back.read("a.xml").decode() == "<a>é</a>" and back.read("z.xml") == b""
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in back.infolist())


def test_a_member_past_what_a_workbook_holds_is_refused_with_a_sentence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx_zip, "_LIMIT", 100)
    zf = ZipWriter(io.BytesIO())
    with pytest.raises(DeckcheckError, match=r"xl/worksheets/sheet2\.xml would hold more "
                                             r"than 2 GiB.*as CSV"):
        with zf.open("xl/worksheets/sheet2.xml") as member:  # (refused as it closes)
            member.write(bytes(range(256)) * 2)


def test_a_clock_before_1980_gives_zips_first_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """A zip's dates start in 1980: a clock set earlier gives 1980-01-01, not a failure."""
    import time

    monkeypatch.setattr(time, "localtime", lambda *_: time.struct_time(
        (1970, 1, 1, 0, 0, 0, 3, 1, 0)))
    f = io.BytesIO()
    zf = ZipWriter(f)
    zf.writestr("a.xml", "<a/>")
    zf.close()
    with zipfile.ZipFile(io.BytesIO(f.getvalue())) as back:
        assert back.getinfo("a.xml").date_time == (1980, 1, 1, 0, 0, 0)
        assert back.read("a.xml") == b"<a/>"

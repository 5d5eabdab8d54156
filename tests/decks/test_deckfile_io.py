"""read_decks / read_deck / write_deck / detect_format: picking the reader, stdin, direct
strings, refusing oversized input."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks import files as deck_files
from deckcheck.decks import source as source_mod
from deckcheck.decks.files import detect_format, dump_deck, read_deck, read_decks, write_deck
from deckcheck.decks.model import Deck, Entry
from deckcheck.decks.source import decode_text
from deckcheck.errors import DeckReadError, DeckWriteError

URL = "ydke://1xqfAQ==!!!"   # one Nibiru, the Primal Being (27204311)


@pytest.mark.parametrize("rel,fmt", [
    ("ydk/basic.ydk", "ydk"), ("ydk/no_headers.ydk", "ydk"), ("text/counts.txt", "text"),
    ("csv/qty_name.csv", "csv"), ("csv/semicolon.csv", "csv")])
def test_detect_by_content_and_extension(fixtures: Path, rel: str, fmt: str) -> None:
    assert detect_format(fixtures / rel) == fmt


def test_detect_by_content_whatever_the_extension(tmp_path: Path, pool: MemoryPool) -> None:
    cases = {"a.dat": (b"#main\n123\n!side\n", "ydk"), "b.dat": (URL.encode(), "ydke"),
             "c.dat": (b"123456\n654321\n", "ydk"), "e.dat": (b"3 Pot of Desires\n", "text"),
             "f.dat": (b"Qty,Name\n3,Pot of Desires\n", "csv"),
             "g.xlsx.txt": (dump_deck(Deck(), "xlsx", pool), "xlsx"),
             "h.dat": (dump_deck(Deck(main=[Entry(passcode=1)]), "omega", pool), "omega")}
    for name, (data, fmt) in cases.items():
        (tmp_path / name).write_bytes(data)
        assert detect_format(tmp_path / name) == fmt, name


def test_direct_strings(pool: MemoryPool) -> None:
    assert detect_format(URL) == "ydke"
    omega = dump_deck(Deck(main=[Entry(passcode=14558127, count=3)]), "omega", pool).decode()
    assert detect_format(omega.strip()) == "omega"
    assert read_deck(URL, None).passcodes("main") == [27204311]
    assert read_deck(omega.strip(), pool).passcodes("main") == [14558127] * 3
    with pytest.raises(DeckReadError, match="no-such.ydk: no such file"):
        read_decks("no-such.ydk", None)


def test_stdin(monkeypatch: pytest.MonkeyPatch, pool: MemoryPool) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2 Pot of Desires\n")))
    (deck,) = read_decks("-", pool)
    assert deck.counts("main") == {35261759: 2}
    assert str(deck.main[0].location) == "<stdin>:1"
    assert deck.name is None


def test_name_given_and_file_stem(fixtures: Path) -> None:
    assert read_deck(fixtures / "ydk" / "basic.ydk", None).name == "basic"
    assert read_deck(fixtures / "ydk" / "basic.ydk", None, name="Mine").name == "Mine"


def test_pool_needed_for_names(fixtures: Path) -> None:
    with pytest.raises(DeckReadError, match="needs the card database"):
        read_decks(fixtures / "text" / "counts.txt", None)


def test_oversized_files_and_line_counts_are_refused(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.ydk"
    big.write_bytes(b"#main\n" + b"1\n" * 600)
    monkeypatch.setattr(source_mod, "MAX_BYTES", 1000)
    with pytest.raises(DeckReadError, match="too large for a deck file"):
        read_decks(big, None)
    monkeypatch.setattr(source_mod, "MAX_BYTES", 10**6)
    monkeypatch.setattr(source_mod, "MAX_LINES", 100)
    with pytest.raises(DeckReadError, match="more than 100 lines"):
        read_decks(big, None)


def test_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DeckReadError, match="is a folder"):
        read_decks(tmp_path, None)


def test_undecodable_text() -> None:
    with pytest.raises(DeckReadError, match="binary data"):
        decode_text(b"\xff\x00\xfe", "x.txt")
    assert decode_text("Zoodiac — ok".encode("cp1252"), "x.txt") == "Zoodiac — ok"


def test_read_deck_refuses_several(tmp_path: Path, pool: MemoryPool) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.append(["Qty", "Name"])
    wb.active.append([1, "Pot of Desires"])
    ws = wb.create_sheet("Two")
    ws.append(["Qty", "Name"])
    ws.append([2, "Pot of Desires"])
    wb.save(tmp_path / "two.xlsx")
    assert [d.name for d in read_decks(tmp_path / "two.xlsx", pool)] == ["Sheet", "Two"]
    with pytest.raises(DeckReadError, match="holds 2 decks \\(sheets Sheet, Two\\)"):
        read_deck(tmp_path / "two.xlsx", pool)


def test_write_deck_by_extension_and_stream(tmp_path: Path, pool: MemoryPool) -> None:
    deck = Deck(main=[Entry(passcode=14558127, count=2)])
    write_deck(deck, tmp_path / "d.ydke", pool)
    assert (tmp_path / "d.ydke").read_text() == "ydke://ryPeAK8j3gA=!!!\n"
    stream = io.BytesIO()
    write_deck(deck, stream, pool, fmt="text")
    assert stream.getvalue().decode().startswith("Monster (2)\n2 Ash Blossom")
    with pytest.raises(DeckWriteError, match="Cannot tell the deck format"):
        write_deck(deck, tmp_path / "d.unknown", pool)
    with pytest.raises(DeckWriteError, match="cannot be written"):
        write_deck(deck, tmp_path / "missing" / "d.ydk", pool)
    assert deck_files.FORMATS == ("ydk", "ydke", "omega", "text", "csv", "xlsx")


def test_reading_ydk_does_not_import_openpyxl(fixtures: Path) -> None:
    import subprocess

    code = ("import sys\nfrom deckcheck.decks.files import read_decks\n"
            f"read_decks({str(fixtures / 'ydk' / 'basic.ydk')!r}, None)\n"
            "print('openpyxl' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout == "False\n"


def test_bytes_are_checked_in_one_place() -> None:
    """Given bytes (an upload) and read bytes are refused by one helper: too large, or an
    old Office file."""
    import pytest

    from deckcheck.decks.files import _checked_bytes
    from deckcheck.decks.source import MAX_BYTES
    from deckcheck.errors import DeckReadError

    assert _checked_bytes("a.ydk", b"#main\n") == b"#main\n"
    with pytest.raises(DeckReadError, match="larger than 20 MB"):
        _checked_bytes("a.ydk", b"1" * (MAX_BYTES + 1))
    with pytest.raises(DeckReadError, match=r"old Excel \(.xls\)"):
        _checked_bytes("a.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"0" * 10)

"""pdf: the decklist in the layout of Konami's form, read back with a PDF reader (pypdf) and
rendered to PNG (pdftoppm, when installed) to be looked at."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deckfile_cards import M, card
from pypdf import PdfReader

from deckcheck.cards.model import Frame
from deckcheck.cards.pool import MemoryPool
from deckcheck.decks import pdf
from deckcheck.decks.files import dump_deck, format_for
from deckcheck.decks.model import Deck, Entry
from deckcheck.decks.pdf import fit, font_for, write_pdf, write_pdf_pages
from deckcheck.decks.text import read_text
from deckcheck.errors import DeckWriteError

ROOT = Path(__file__).resolve().parents[2]
LONG = ("Number C1000: Numerronius Numerronia, the Ultimate Super Long Named Card of the "
        "Crossed Duel Dimension")
#: A hand-made decklist: cards of every kind, a name no card has (printed as written) in
#: Japanese and one in Chinese, a very long name, a Side Deck and an Extra Deck.
TEXT = f"""Main
3 Ash Blossom & Joyous Spring
2 Maxx "C"
1 Blue-Eyes White Dragon
2 Pot of Desires
1 Called by the Grave
3 Infinite Impermanence
2 ブラック・マジシャン
1 青眼白龙究极体
1 {LONG}
Extra
1 Accesscode Talker
1 Stardust Dragon
Side
3 Nibiru, the Primal Being
"""


def page_text(data: bytes, page: int = 0) -> str:
    return PdfReader(io.BytesIO(data)).pages[page].extract_text()


@pytest.fixture
def deck(pool: MemoryPool) -> Deck:
    return read_text(TEXT, pool, "list.txt")


def test_decklist_holds_every_field_card_and_total(deck: Deck, pool: MemoryPool) -> None:
    data = write_pdf(deck, pool, player="山田 太郎", player_id="0301234567",
                     event="Regional Berlin", date="2026-12-05", country="日本",
                     deck_name="Ash Test")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    assert [float(v) for v in reader.pages[0].mediabox[2:]] == pytest.approx([595.28, 841.89],
                                                                            abs=0.01)
    text = reader.pages[0].extract_text()
    for expected in ("First Name", "山田", "Last Name", "太郎", "CARD GAME ID", "Event Name",
                     "Regional Berlin", "Event Date", "2026-12-05",
                     "Country / Region of Residence", "日本", "Deck Name", "Ash Test",
                     "JUDGE USE ONLY", "Main Deck total: 16",
                     "3 Ash Blossom & Joyous Spring", '2 Maxx "C"', "1 Blue-Eyes White Dragon",
                     "Total Monster Cards 6", "2 Pot of Desires", "1 Called by the Grave",
                     "Total Spell Cards 3", "3 Infinite Impermanence", "Total Trap Cards 3",
                     # names no card has, as written, under "Kind unknown": Japanese, Chinese
                     "Kind unknown", "2 ブラック・マジシャン", "1 青眼白龙究极体",
                     "3 Nibiru, the Primal Being", "Total Side Deck 3",
                     "1 Accesscode Talker", "1 Stardust Dragon", "Total Extra Deck 2",
                     "山田 太郎 / 0301234567", "Page 1 of 1"):
        assert expected in text, expected
    lines = text.splitlines()
    assert f"1 {LONG}" in lines  # the long name whole, on one line
    # the ten digit boxes of the CARD GAME ID, one digit each
    assert "0 3 0 1 2 3 4 5 6 7" in lines


def test_long_name_is_narrowed_then_made_smaller_to_fit_its_box() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert fit("Maxx", "Helvetica", 9, 150) == (9, 100.0)
    size, scale = fit("Blue-Eyes Alternative White Dragon", "Helvetica", 9, 120)
    assert size == 9 and pdf.MIN_HSCALE <= scale < 100
    size, scale = fit(LONG, "Helvetica", 9, 150)
    assert size < 9 and scale == pdf.MIN_HSCALE
    for text in ("Blue-Eyes Alternative White Dragon", LONG):
        size, scale = fit(text, "Helvetica", 9, 120)
        assert stringWidth(text, "Helvetica", size) * scale / 100 == pytest.approx(120, abs=0.01)


def test_fonts_follow_the_characters() -> None:
    assert font_for("Ash Blossom & Joyous Spring") == "Helvetica"
    assert font_for("Total", bold=True) == "Helvetica-Bold"
    assert font_for("Zoë Müller") == "Helvetica"
    assert font_for("灰流うらら") == font_for("山田 太郎 / 0301234567") == "HeiseiKakuGo-W5"
    assert font_for("灰流丽") == "STSong-Light"   # simplified Chinese: not in JIS
    assert font_for("증식의 G") == "HYGothic-Medium"


def test_pages_in_order_one_per_deck(deck: Deck, pool: MemoryPool) -> None:
    small = Deck(main=[Entry(passcode=14558127, count=3)])
    data = write_pdf_pages([(deck, {"player": "Alice"}), (small, {"player": "Bob"}),
                            (deck, {"player": "Carol"})], pool, title="Regional decklists")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 3
    texts = [p.extract_text() for p in reader.pages]
    assert ["Alice" in t for t in texts] == [True, False, False]
    assert ["Bob" in t for t in texts] == [False, True, False]
    assert "Carol Page 3 of 3" in texts[2]
    assert reader.metadata is not None and reader.metadata.title == "Regional decklists"


def test_a_deck_with_more_lines_than_the_form_stays_one_page() -> None:
    """45 different monsters (the form has 20 lines a column): smaller rows, one page."""
    many = MemoryPool([card(10_000_000 + i, f"Test Monster {i}", M, Frame.EFFECT)
                       for i in range(45)])
    deck = Deck(main=[Entry(passcode=10_000_000 + i) for i in range(45)])
    data = write_pdf(deck, many)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    text = page_text(data)
    assert "1 Test Monster 0\n" in text and "1 Test Monster 44\n" in text
    assert "Total Monster Cards 45" in text


def test_unknown_passcode_is_printed_as_the_passcode(pool: MemoryPool) -> None:
    deck = Deck(main=[Entry(passcode=424242, count=2)])
    assert "2 00424242 (unknown passcode)" in page_text(write_pdf(deck, pool)).splitlines()


def test_pdf_is_an_output_format_not_an_input_one(deck: Deck, pool: MemoryPool) -> None:
    assert format_for("decklist.PDF") == "pdf"
    data = dump_deck(deck, "pdf", pool, player="Jane Doe")
    assert data.startswith(b"%PDF-") and "Jane" in page_text(data)


def test_without_reportlab_one_sentence_says_how_to_install(
        deck: Deck, pool: MemoryPool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "reportlab", None)  # import reportlab fails
    with pytest.raises(DeckWriteError) as err:
        write_pdf(deck, pool)
    assert err.value.message == (
        "Writing a PDF decklist needs the reportlab package; install deckcheck with its pdf "
        "extra (`pip install '.[pdf]'` in a checkout) or run `pip install reportlab`.")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) not installed")
def test_page_renders_to_png(deck: Deck, pool: MemoryPool) -> None:
    """Rendered for people to look at (out/decklist-screenshots/, git-ignored); the PNG is an
    A4 page with ink on it, not a blank or broken one."""
    data = write_pdf(deck, pool, player="山田 太郎", player_id="0301234567",
                     event="Regional Berlin", date="2026-12-05", country="日本")
    out = ROOT / "out" / "decklist-screenshots"
    out.mkdir(parents=True, exist_ok=True)
    (out / "decklist.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-gray", "-singlefile",
                    str(out / "decklist.pdf"), str(out / "decklist")], check=True, timeout=60)
    png = (out / "decklist.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert abs(width - 413) <= 1 and abs(height - 585) <= 1  # A4 at 50 dpi
    pgm = subprocess.run(["pdftoppm", "-r", "20", "-gray", "-singlefile",
                          str(out / "decklist.pdf")], check=True, capture_output=True,
                         timeout=60).stdout
    pixels = pgm.split(b"\n", 3)[3]
    dark = sum(1 for b in pixels if b < 128)
    assert 0.03 < dark / len(pixels) < 0.5  # lines and text, not blank, not black

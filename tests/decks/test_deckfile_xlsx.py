"""xlsx: the registration sheet (written, printed, read back), layouts found by detection,
one deck per sheet, cached formula values, and refusing zip bombs before openpyxl."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks import xlsx as xlsx_mod
from deckcheck.decks.model import Deck, Entry
from deckcheck.decks.xlsx import read_xlsx, write_xlsx
from deckcheck.errors import DeckReadError

DECK = Deck(name="Ash Test",
            main=[Entry(passcode=14558127, count=2), Entry(passcode=14558128),
                  Entry(passcode=35261759, count=2), Entry(passcode=10045474, count=3),
                  Entry(passcode=424242)],
            extra=[Entry(passcode=86066372), Entry(passcode=44508095)],
            side=[Entry(passcode=27204311, count=3)])


def save(wb: Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_registration_sheet_reads_back_the_same_deck(pool: MemoryPool) -> None:
    data = write_xlsx(DECK, pool, player="=cmd|' /C calc'!A0", player_id="0123456789",
                      event="Regional", date="2026-11-22")
    (deck,) = read_xlsx(data, pool, "reg.xlsx")
    # one line per card name, its artworks added up, as Konami's form asks
    assert deck.counts("main") == {14558127: 3, 35261759: 2, 10045474: 3, 424242: 1}
    assert deck.counts("extra") == {86066372: 1, 44508094: 1}   # 44508095 is an artwork
    assert deck.counts("side") == DECK.counts("side")
    assert deck.name == "Ash Test"
    assert deck.meta == {"first_name": "=cmd|' /C", "last_name": "calc'!A0",
                         "player": "=cmd|' /C calc'!A0", "player_id": "0123456789",
                         "event": "Regional", "date": "2026-11-22"}
    assert deck.problems == []
    assert str(deck.main[0].location) == "reg.xlsx:Ash Test!B13"


def test_registration_sheet_is_formatted_for_print(pool: MemoryPool) -> None:
    data = write_xlsx(DECK, pool, player="=1+1")
    ws = load_workbook(io.BytesIO(data)).active
    assert str(ws.page_setup.paperSize) == ws.PAPERSIZE_A4 == "9"
    assert ws.page_setup.orientation == "portrait"
    assert ws.sheet_properties.pageSetUpPr.fitToPage is True
    assert ws.page_setup.fitToWidth == 1
    assert ws.print_area.startswith("'Ash Test'!$A$1:$G$")
    # a player field cannot become a formula: text, quote-prefixed, printed as written
    assert (ws["C3"].value, ws["C3"].data_type, ws["C3"].quotePrefix) == ("=1+1", "s", True)
    assert [ws.cell(11, c).value for c in range(1, 8)] == [
        "Qty", "Card Name", "Passcode", None, "Qty", "Card Name", "Passcode"]
    assert ws["B11"].font.b and ws["B11"].border.left.style == "thin"
    assert ws["B12"].value == "Monster Cards"
    texts = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    for want in ("Total Monster Cards", "Spell Cards", "Trap Cards", "Extra Deck", "Side Deck",
                 "Main Deck total", "Player signature", "CARD GAME ID"):
        assert want in texts
    totals = {ws.cell(r, 2).value: ws.cell(r, 1).value for r in range(1, ws.max_row + 1)}
    assert totals["Main Deck total"] == 9
    assert totals["Total Monster Cards"] == 3   # one line: Ash Blossom, both artworks
    assert totals["Side Deck total"] == 3


def test_registration_sheet_prints_evenly(pool: MemoryPool) -> None:
    ws = load_workbook(io.BytesIO(write_xlsx(DECK, pool))).active
    fonts = {(c.font.name, c.font.b) for row in ws.iter_rows() for c in row if c.value}
    assert {name for name, _ in fonts} == {"Calibri"}   # no nameless font, no fallback face
    assert (ws["A13"].value, ws["B13"].value) == (3, "Ash Blossom & Joyous Spring")
    assert ws["A13"].alignment.horizontal == "center"
    assert ws["B13"].alignment.shrink_to_fit is True    # long names shrink, not cut
    assert ws["C13"].value == 14558127 and ws["C13"].number_format == "00000000"
    row = next(c.row for c in ws["A"] if c.value == "Player signature")
    assert ws.cell(row, 3).border.bottom.style == "thin"


def test_registration_sheet_footer_names_the_player(pool: MemoryPool) -> None:
    ws = load_workbook(io.BytesIO(write_xlsx(DECK, pool, player="Tom & Jerry",
                                             player_id="0123456789"))).active
    assert ws.oddFooter.left.text == "Tom && Jerry / 0123456789"   # "&" is a footer code
    assert ws.oddFooter.right.text == "Page &P of &N"
    assert ws.print_title_rows == "$11:$11"


def test_text_a_worksheet_cannot_hold_is_cleaned(pool: MemoryPool) -> None:
    deck = DECK.model_copy(update={"name": "bad\udcffname"})
    data = write_xlsx(deck, pool, player="Ja\x01ne", event="Re\x1fgional",
                      deck_name="bad\udcffname")
    ws = load_workbook(io.BytesIO(data)).active    # a surrogate would make it unreadable
    assert ws.title == "bad\ufffdname"
    assert [ws[c].value for c in ("C3", "C6", "C9")] == ["Jane", "Regional", "bad\ufffdname"]
    (back,) = read_xlsx(data, pool, "b.xlsx")
    assert back.size("main") == DECK.size("main")


def test_blank_player_fields_when_missing(pool: MemoryPool) -> None:
    ws = load_workbook(io.BytesIO(write_xlsx(Deck(), pool))).active
    assert [ws[f"A{r}"].value for r in range(3, 10)] == [
        "First Name", "Last Name", "CARD GAME ID", "Event Name", "Event Date",
        "Country of Residence", "Deck Name"]
    assert ws["C3"].value is None
    assert ws["C3"].border.bottom.style == "thin"
    (deck,) = read_xlsx(write_xlsx(Deck(), pool), pool, "e.xlsx")
    assert deck.main == deck.extra == deck.side == [] and deck.meta == {}


def _event_workbook() -> bytes:
    wb = Workbook()
    a = wb.active
    a.title = "Alice"
    a["A1"], a["B1"] = "Player", "Alice Example"
    a["A2"], a["B2"] = "ID", 1234567
    a.append([])
    a.append(["Main Deck", "Qty", None, "Extra Deck", "Qty", None, "Side Deck", "Qty"])
    a.append(["Ash Blossom & Joyous Spring", "=1+2", None, "Accesscode Talker", 1, None,
              "Nibiru, the Primal Being", 2])
    a.append(["Pot of Desires", 2, None, None, None, None, "please check my side", None])
    a.append([None, None, None, None, None, None, None, None])
    a.append(["合计", 5, None, "Total", 1, None, "Total", 2])
    a.merge_cells("A1:A1")
    a.merge_cells("B1:C1")
    b = wb.create_sheet("Bob")
    b["A1"] = "Name: Bob Example"
    b.append(["数量", "卡名", "卡密"])
    b.append([3, "灰流丽", None])
    b.append(["副卡组", None, None])
    b.append([1, None, 10045474])
    wb.create_sheet("Notes")["A1"] = "Deck registration for the local event"
    data = save(wb)
    # give the formula a cached value, as a spreadsheet program would have saved it
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                assert b"<f>1+2</f><v /></c>" in body
                body = body.replace(b"<f>1+2</f><v /></c>", b"<f>1+2</f><v>3</v></c>")
            dst.writestr(info, body)
    return out.getvalue()


def test_one_deck_per_sheet_with_meta_side_by_side_blocks_and_formulas(
        pool: MemoryPool) -> None:
    alice, bob = read_xlsx(_event_workbook(), pool, "event.xlsx")
    assert alice.name == "Alice" and bob.name == "Bob"
    assert alice.meta == {"player": "Alice Example", "player_id": "1234567"}
    assert alice.counts("main") == {14558127: 3, 35261759: 2}   # 3 is the formula's cached value
    assert alice.counts("extra") == {86066372: 1}
    assert alice.counts("side") == {27204311: 2}
    assert alice.problems == []
    assert [str(e.location) for e in alice.main] == ["event.xlsx:Alice!A5", "event.xlsx:Alice!A6"]
    assert bob.meta == {"player": "Bob Example"}
    assert bob.counts("main") == {14558127: 3}
    assert bob.counts("side") == {10045474: 1}


def test_problems_carry_their_cell(pool: MemoryPool) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    ws.append(["Qty", "Card"])
    ws.append([0, "Pot of Desires"])
    ws.append([1.5, "Pot of Desires"])
    ws.append([1, "Pot of Desirez"])
    (deck,) = read_xlsx(save(wb), pool, "p.xlsx")
    assert [(p.kind, str(p.location)) for p in deck.problems] == [
        ("bad-count", "p.xlsx:S!A2"), ("bad-count", "p.xlsx:S!A3"),
        ("unknown-name", "p.xlsx:S!B4")]
    assert "is not a whole number" in deck.problems[1].message


def test_not_a_workbook() -> None:
    with pytest.raises(DeckReadError, match="not an xlsx workbook"):
        read_xlsx(b"hello", None, "x.xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(DeckReadError, match="is not a readable xlsx workbook"):
        read_xlsx(out.getvalue(), None, "x.xlsx")


def test_zip_bomb_by_ratio_is_refused_before_openpyxl(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b"\0" * 30_000_000)
    monkeypatch.setattr("openpyxl.load_workbook", None)   # must never be reached
    with pytest.raises(DeckReadError, match="a zip bomb"):
        read_xlsx(out.getvalue(), None, "bomb.xlsx")


def test_zip_inflating_beyond_bound_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                pool: MemoryPool) -> None:
    monkeypatch.setattr("deckcheck.decks.xlsx_guard.MAX_UNZIPPED", 1000)
    with pytest.raises(DeckReadError, match="would inflate to"):
        read_xlsx(write_xlsx(DECK, pool), pool, "big.xlsx")


def test_no_sheet_holds_a_deck() -> None:
    wb = Workbook()
    wb.active["A1"] = "nothing here"
    with pytest.raises(DeckReadError, match="no sheet holds a table of cards"):
        read_xlsx(save(wb), None, "n.xlsx")


def test_a_zip_without_workbook_parts_says_so_in_words() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(DeckReadError) as err:
        read_xlsx(out.getvalue(), None, "x.xlsx")
    assert str(err.value) == ("x.xlsx is not a readable xlsx workbook (parts of the workbook are "
                              "missing); open and save it again in a spreadsheet program.")


def test_rows_beyond_the_bound_are_reported_not_dropped(monkeypatch: pytest.MonkeyPatch,
                                                        pool: MemoryPool) -> None:
    monkeypatch.setattr(xlsx_mod, "MAX_ROWS", 3)
    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    ws.append(["Qty", "Card"])
    for _ in range(4):
        ws.append([1, "Pot of Desires"])
    (deck,) = read_xlsx(save(wb), pool, "p.xlsx")
    assert deck.size("main") == 2
    [problem] = deck.problems
    assert str(problem.location) == "p.xlsx:S"
    assert problem.message == ("Sheet S has more than 3 rows; only the first 3 were read — split "
                               "the sheet or remove the extra rows.")


def test_an_unknown_card_is_printed_as_written_and_warned_about(pool: MemoryPool) -> None:
    from deckcheck.decks.text import read_text
    from deckcheck.decks.xlsx import sheet_problems

    deck = read_text("3 Ash Blossom & Joyous Spring\n2 Efect Veilerr\n", pool, "form.txt")
    ws = load_workbook(io.BytesIO(write_xlsx(deck, pool))).active
    lines = {ws.cell(r, 2).value: ws.cell(r, 1).value for r in range(1, ws.max_row + 1)}
    assert lines["Efect Veilerr"] == 2 and lines["Main Deck total"] == 5
    assert [p.kind for p in sheet_problems(deck, pool)] == ["unknown-name"]
    (back,) = read_xlsx(write_xlsx(deck, pool), pool, "back.xlsx")
    assert [(p.kind, p.written, p.count) for p in back.problems] == [
        ("unknown-name", "Efect Veilerr", 2)]


def test_first_and_last_name_and_the_deck_name_only_when_given(pool: MemoryPool) -> None:
    deck = DECK.model_copy(update={"name": "Decklist"})
    ws = load_workbook(io.BytesIO(write_xlsx(deck, pool, first_name="Jane", last_name="Doe",
                                             country="FR"))).active
    fields = {ws[f"A{r}"].value: ws[f"C{r}"].value for r in range(3, 10)}
    assert fields == {"First Name": "Jane", "Last Name": "Doe", "CARD GAME ID": None,
                      "Event Name": None, "Event Date": None, "Country of Residence": "FR",
                      "Deck Name": None}   # never the sheet's name ("Decklist")


def test_file_names_made_from_player_names_stay_in_their_folder(tmp_path: Any) -> None:
    from deckcheck.decks.files import MAX_NAME_BYTES, file_name_for, path_inside
    from deckcheck.errors import DeckWriteError

    used: set[str] = set()
    names = [file_name_for(n, ".xlsx", used) for n in (
        "../../etc/passwd", "Jane Doe", "jane doe", "x" * 400, "CON", "..", "/abs/path")]
    assert names[:3] == ["etc_passwd.xlsx", "Jane_Doe.xlsx", "jane_doe_2.xlsx"]
    assert names[4:] == ["_CON.xlsx", "player.xlsx", "abs_path.xlsx"]
    assert len(names[3].encode()) <= MAX_NAME_BYTES + len(".xlsx")
    for name in names:
        path = path_inside(tmp_path, name)
        path.write_bytes(b"")  # every one can be written (none too long, none outside)
        assert path.parent == tmp_path
    with pytest.raises(DeckWriteError, match="must stay inside"):
        path_inside(tmp_path, "../x.xlsx")

"""The event reporters: xlsx (opens cleanly, same data as JSON), CSV (two files), JSON, text."""

from __future__ import annotations

import csv
import json
import math
import os
import re
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import openpyxl
import pytest

from deckcheck.event.columns import PLAYER_COLUMNS, PROBLEM_COLUMNS
from deckcheck.event.models import VERDICT_LABELS, EventReport, PlayerRow, Registration
from deckcheck.event.report_csv import write_csv
from deckcheck.event.report_json import write_json
from deckcheck.event.report_xlsx import WRAPPED, write_xlsx
from deckcheck.event.run import check_registrations
from deckcheck.event.summary import format_summary
from deckcheck.event.xlsx_tables import MAX_CELL_TEXT, TRUNCATED, Sheet, write_workbook

EVIL = ["=HYPERLINK(\"http://x\",\"click\")", "+1+2", "-3", "@SUM(A1)", "\tTab", "\rCR"]


@pytest.fixture
def event(kit: SimpleNamespace, pool: Any) -> EventReport:
    regs = [Registration(source=f"p{i}.ydk", player=name, player_id=str(1000 + i),
                         deck=kit.make_deck(kit.LEGAL_MAIN, source=f"p{i}.ydk"))
            for i, name in enumerate(EVIL)]
    regs.append(Registration(source="pot.ydk", player="Pot\x01 Player", player_id="=1",
                             deck=kit.make_deck([(kit.POT_OF_GREED, 3)], source="pot.ydk")))
    regs.append(Registration(source="bad.ydk", player="Bad", error="bad.ydk holds no deck."))
    return check_registrations(regs, kit.fake_check, pool)


def _sheet_rows(ws: Any) -> list[list[Any]]:
    return [list(r) for r in ws.iter_rows(values_only=True)]


def test_xlsx_opens_with_header_filter_widths_fills(event: EventReport, tmp_path: Path) -> None:
    out = tmp_path / "report.xlsx"
    assert write_xlsx(event, out) == [out]
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["Players", "Problems", "Event"]
    ws = wb["Players"]
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == f"A1:N{len(event.players) + 1}"
    assert ws["A1"].font.b and ws["A1"].value == "#"
    assert ws.column_dimensions["J"].width == WRAPPED["problems"]  # problem details, wrapped
    last = len(event.players) + 1                   # "Bad": could not be read
    assert ws[f"M{last}"].value and ws[f"M{last}"].alignment.wrap_text   # the error wraps too
    assert 6 <= ws.column_dimensions["D"].width <= 60
    fills = {ws.cell(row=i + 2, column=5).value: ws.cell(row=i + 2, column=5).fill.fgColor.rgb
             for i in range(len(event.players))}
    assert fills == {"legal": "FFC6EFCE", "illegal": "FFFFC7CE", "could not read": "FFFFEB9C"}
    assert wb["Problems"].freeze_panes == "A2"
    assert _sheet_rows(wb["Event"])[:4] == [["Event", None], ["Format", "tcg"],
                                            ["Banlist", "test list"], ["Date", "2026-12-05"]]


def test_xlsx_rows_fit_wrapped_text_and_sheets_print(event: EventReport,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "report.xlsx"
    write_xlsx(event, out)
    wb = openpyxl.load_workbook(out)
    ws = wb["Players"]
    pot = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 4).value == "pot.ydk")
    assert ws.cell(pot, 10).value.count("\n") == 1         # two problems, two lines
    assert ws.row_dimensions[pot].height >= 30 and ws.row_dimensions[pot].customHeight
    for sheet in wb.worksheets:
        assert str(sheet.page_setup.paperSize) == sheet.PAPERSIZE_A4 == "9"
        assert sheet.sheet_properties.pageSetUpPr.fitToPage is True
        assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) == (1, 0)
        assert sheet.print_options.gridLines is True
    assert ws.page_setup.orientation == "landscape"
    assert wb["Event"].page_setup.orientation == "portrait"
    assert ws.print_title_rows == wb["Problems"].print_title_rows == "$1:$1"


def _printed_pt(ws: Any) -> float:
    """The size 11 pt text prints at when the sheet is fitted to one page wide, from what a
    spreadsheet reads: column widths (characters: 7 px each plus 5 px padding, 96 px an
    inch), orientation and side margins on A4."""
    paper = 11.69 if ws.page_setup.orientation == "landscape" else 8.27
    printable = (paper - ws.page_margins.left - ws.page_margins.right) * 72
    wide = sum(d.width * 7 + 5 for d in ws.column_dimensions.values()) * 0.75
    return 11 * min(1.0, printable / wide)


def test_xlsx_prints_legibly_with_long_names_and_paths(kit: SimpleNamespace, pool: Any,
                                                       tmp_path: Path) -> None:
    """Landscape, one page wide, the header on every page, and text no smaller than 7.5 pt
    however long the names, paths and messages (at 60 characters a column, 5 pt)."""
    folder = "registrations/Regional Championship Berlin 2026/submitted decklists/"
    regs = [Registration(source=f"{folder}{name} 0301234567.ydk", player=name,
                         player_id="0301234567",
                         deck=kit.make_deck([(kit.POT_OF_GREED, 3)],
                                            source=f"{folder}{name} 0301234567.ydk"))
            for name in ("Maximilian Alexander von Hohenzollern-Sigmaringen the Third",
                         "Jane Doe", "Ann Open")]
    # the longest verdict labels ("could not read", "could not be fully checked"), and notes
    regs.append(Registration(source=f"{folder}broken.ydk", player="Broken",
                             error="The file holds no deck."))

    def check(deck: Any) -> Any:
        report = kit.fake_check(deck)
        if "Ann Open" in deck.source:
            report.verdict = "unchecked"
            report.violations = []
            report.open_points = ["The card data ends on 2026-05-30: what Pot of Greed may be "
                                  "on 2026-12-05 is not known."]
        return report

    event = check_registrations(regs, check, pool)
    assert {r.verdict for r in event.players} == {"illegal", "unchecked", "unreadable"}
    out = tmp_path / "report.xlsx"
    write_xlsx(event, out)
    wb = openpyxl.load_workbook(out)
    for name in ("Players", "Problems"):
        ws = wb[name]
        assert ws.page_setup.orientation == "landscape"
        assert ws.sheet_properties.pageSetUpPr.fitToPage is True
        assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0)
        assert ws.print_title_rows == "$1:$1"
        assert _printed_pt(ws) >= 7.5, (name, _printed_pt(ws))
    ws = wb["Players"]
    assert ws.cell(2, 2).alignment.wrap_text and ws.cell(2, 4).alignment.wrap_text
    assert ws.row_dimensions[2].height >= 30  # the long name and path wrap: a taller row
    facts = {r[0]: r[1] for r in wb["Event"].iter_rows(values_only=True)}
    assert (facts["Could not read"], facts["Could not be fully checked"]) == (1, 1)


_M = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
#: CT_Worksheet's children, in the order the schema requires (Excel refuses others).
_SHEET_ORDER = ["sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData",
                "autoFilter", "printOptions", "pageMargins", "pageSetup", "headerFooter"]


def test_xlsx_package_is_consistent(event: EventReport, tmp_path: Path) -> None:
    """What Excel checks and openpyxl does not: every part typed and well-formed, every
    relationship's target present, style counts and indexes right, sheet children in order."""
    out = tmp_path / "report.xlsx"
    write_xlsx(event, out)
    with zipfile.ZipFile(out) as zf:
        parts = {n: ET.fromstring(zf.read(n)) for n in zf.namelist()}
    types = parts["[Content_Types].xml"]
    overrides = {e.get("PartName")[1:] for e in types if e.tag.endswith("Override")}
    defaults = {e.get("Extension") for e in types if e.tag.endswith("Default")}
    assert all(n in overrides or n.rsplit(".", 1)[1] in defaults for n in parts)
    assert overrides <= set(parts)
    for rels, base in (("_rels/.rels", ""), ("xl/_rels/workbook.xml.rels", "xl/")):
        assert all(base + r.get("Target") in parts for r in parts[rels])
    styles = parts["xl/styles.xml"]
    sizes = {}
    for tag in ("fonts", "fills", "borders", "cellXfs"):
        group = styles.find(_M + tag)
        assert group is not None and int(group.get("count")) == len(group), tag
        sizes[tag] = len(group)
    for xf in styles.find(_M + "cellXfs"):
        assert int(xf.get("fontId")) < sizes["fonts"] and int(xf.get("fillId")) < sizes["fills"]
    sheets = [n for n in parts if n.startswith("xl/worksheets/")]
    assert len(sheets) == 3
    for name in sheets:
        root = parts[name]
        order = [_SHEET_ORDER.index(child.tag.removeprefix(_M)) for child in root]
        assert order == sorted(order), name
        for row in root.iter(_M + "row"):
            for c in row:
                assert re.fullmatch(r"[A-Z]+" + row.get("r"), c.get("r"))
                assert int(c.get("s", 0)) < sizes["cellXfs"]
                assert c.find(_M + "f") is None
                assert c.get("t") in (None, "b", "inlineStr")


def test_xlsx_row_height_follows_the_wrapped_lines(tmp_path: Path) -> None:
    out = tmp_path / "w.xlsx"
    rows = [["short", "one line"], ["x", "a\nb\nc"], ["y", "w" * 25], ["z", "\n".join("a" * 99)]]
    write_workbook([Sheet("T", ["A", "B"], rows, [30, 10], {1: "wrap"})], out)
    ws = openpyxl.load_workbook(out)["T"]
    assert ws.row_dimensions[2].height is None            # one line: the default height
    assert ws.row_dimensions[3].height == 45              # three lines of 15 pt
    assert ws.row_dimensions[4].height == 45              # 25 characters in a 10 wide column
    assert ws.row_dimensions[5].height == 409             # Excel's tallest row


def test_xlsx_text_a_workbook_cannot_hold(tmp_path: Path) -> None:
    out = tmp_path / "w.xlsx"
    rows = [["bad\udcffname.ydk", "x" * 40_000, math.nan, 1.5, True]]
    write_workbook([Sheet("T", ["Source", "Long", "NaN", "Float", "Bool"], rows)], out)
    ws = openpyxl.load_workbook(out)["T"]
    assert ws["A2"].value == "bad\ufffdname.ydk"   # a surrogate cannot be written as UTF-8
    assert len(ws["B2"].value) == MAX_CELL_TEXT and ws["B2"].value.endswith(TRUNCATED)
    assert (ws["C2"].value, ws["D2"].value, ws["E2"].value) == ("nan", 1.5, True)


def test_xlsx_text_keeps_its_white_space_where_it_has_some(tmp_path: Path) -> None:
    """`xml:space="preserve"` only on text that starts or ends with white space (as openpyxl
    writes it); every text reads back as written, on the fast path and the other."""
    out = tmp_path / "w.xlsx"
    texts = ["plain", " lead", "trail ", "\tlead", "line\n", "in  side\nx", "=1 ", "é "]
    write_workbook([Sheet("T", ["A", "B"], [[t, t] for t in texts], plain=True)], out)
    ws = openpyxl.load_workbook(out)["T"]
    assert [ws.cell(i, 1).value for i in range(2, len(texts) + 2)] == texts
    assert [ws.cell(i, 2).value for i in range(2, len(texts) + 2)] == texts
    xml = zipfile.ZipFile(out).read("xl/worksheets/sheet1.xml").decode()
    kept = re.findall(r'<t xml:space="preserve">([^<]*)</t>', xml)
    assert sorted(set(kept)) == sorted({" lead", "trail ", "\tlead", "line\n", "=1 ", "é "})
    assert "<t>plain</t>" in xml and "<t>in  side\nx</t>" in xml


def test_xlsx_failure_leaves_the_old_file(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "w.xlsx"
    out.write_bytes(b"old")

    def boom(*_: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr("deckcheck.event.xlsx_tables._sheet_xml", boom)
    with pytest.raises(RuntimeError):
        write_workbook([Sheet("T", ["A"], [["x"]])], out)
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["w.xlsx"]


def test_xlsx_never_holds_a_formula(event: EventReport, tmp_path: Path) -> None:
    out = tmp_path / "report.xlsx"
    write_xlsx(event, out)
    wb = openpyxl.load_workbook(out)
    ws = wb["Players"]
    for i, text in enumerate(EVIL):
        cell = ws.cell(row=i + 2, column=2)
        want = text.replace("\r", "\n")  # a workbook keeps LF line ends only
        assert (cell.value, cell.data_type, cell.quotePrefix) == (want, "s", True)
    assert ws.cell(row=len(EVIL) + 2, column=2).value == "Pot Player"  # control char dropped
    assert ws.cell(row=len(EVIL) + 2, column=3).value == "=1"
    for sheet in wb.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", cell.coordinate


def test_xlsx_carries_the_same_data_as_json(event: EventReport, tmp_path: Path) -> None:
    write_xlsx(event, tmp_path / "r.xlsx")
    write_json(event, tmp_path / "r.json")
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx")
    players = _sheet_rows(wb["Players"])
    assert players[0] == [h for _, h in PLAYER_COLUMNS]
    assert len(players) - 1 == len(data["players"]) == data["total"] == 8
    for row, want in zip(players[1:], data["players"], strict=True):
        want = dict(want, verdict=VERDICT_LABELS[want["verdict"]])
        want["player"] = want["player"].replace("\x01", "").replace("\r", "\n")
        assert row == [want[f] if want[f] != "" else None for f, _ in PLAYER_COLUMNS]
    problems = _sheet_rows(wb["Problems"])
    assert problems[0] == [h for _, h in PROBLEM_COLUMNS]
    assert [dict(zip([f for f, _ in PROBLEM_COLUMNS], r, strict=True)) for r in problems[1:]] == [
        {**p, "player": p["player"].replace("\x01", "")} for p in data["problems"]]
    assert len(data["problems"]) == 2


def test_csv_two_files_escaped(event: EventReport, tmp_path: Path) -> None:
    paths = write_csv(event, tmp_path / "report.csv")
    assert paths == [tmp_path / "report.csv", tmp_path / "report.problems.csv"]
    raw = paths[0].read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf#,Player,Player ID,Source,Verdict") and b"\r\n" in raw
    with paths[0].open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh))
    assert [r[1] for r in rows[1:7]] == ["'" + t for t in EVIL]
    assert rows[7][:9] == ["7", "Pot\x01 Player", "'=1", "pot.ydk", "illegal", "3", "0", "0", "2"]
    assert rows[8][4] == "could not read" and rows[8][9] == "bad.ydk holds no deck."
    with paths[1].open(encoding="utf-8-sig", newline="") as fh:
        probs = list(csv.reader(fh))
    assert probs[0] == [h for _, h in PROBLEM_COLUMNS]
    assert [(r[0], r[3], r[8], r[9]) for r in probs[1:]] == [("7", "DC101", "3", "40"),
                                                            ("7", "DC201", "3", "0")]


def test_summary_text(event: EventReport) -> None:
    assert format_summary(event) == "\n".join([
        "8 registrations checked: tcg, test list, as of 2026-12-05",
        "  6 legal, 1 illegal, 1 could not be read",
        "  6 registrations flagged as duplicate (see the Duplicate column)",
        "Worst offenders:",
        "  #7 Pot\\x01 Player (=1): 2 problems \u2014 DC101: The Main Deck has 3 cards; it needs "
        "40 to 60.",
        "Could not be read:",
        "  #8 Bad: bad.ydk holds no deck.",
    ])


def test_summary_escapes_terminal_controls_in_names_and_messages() -> None:
    rows = [PlayerRow(number=1, player="Eve\x1b]0;owned\x07", player_id="1\x1b[2J",
                      source="e.ydk", verdict="illegal", problem_count=1,
                      problems="DC401: No card is named \"\x1b[31mX\"."),
            PlayerRow(number=2, source="\x9bz.ydk", verdict="unreadable",
                      error="\x9bz.ydk holds no deck.")]
    text = format_summary(EventReport(format="tcg", total=2, illegal=1, unreadable=1,
                                      players=rows))
    assert not any(c in text for c in "\x1b\x07\x9b")
    assert "#1 Eve\\x1b]0;owned\\x07 (1\\x1b[2J): 1 problem" in text
    assert "#2 \\x9bz.ydk: \\x9bz.ydk holds no deck." in text


@pytest.mark.parametrize("writer", [write_csv, write_json])
def test_csv_and_json_reports_are_replaced_atomically(writer: Any, event: EventReport,
                                                      tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while writing (a full disk) leaves the old report whole and no temp files."""
    dest = tmp_path / ("r.csv" if writer is write_csv else "r.json")
    writer(event, dest)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    target = "csv.writer" if writer is write_csv else "deckcheck.event.report_json.chunks"
    monkeypatch.setattr(target, full)
    with pytest.raises(OSError, match="No space left"):
        writer(event, dest)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_summary_lists_the_most_problems_first_and_counts_the_rest() -> None:
    illegal = [PlayerRow(number=i, player=f"P{i}", source=f"p{i}.ydk", verdict="illegal",
                         problem_count=n, problems=f"DC201: problem of P{i}.\nmore")
               for i, n in enumerate([1, 3, 2, 3, 1, 1, 2], start=1)]
    broken = [PlayerRow(number=10 + i, source=f"b{i}.ydk", verdict="unreadable",
                        error=f"b{i}.ydk holds no deck.") for i in range(7)]
    event = EventReport(format="tcg", total=14, illegal=7, unreadable=7,
                        players=illegal + broken)
    lines = format_summary(event, worst=3).splitlines()
    assert lines[2:] == [
        "Worst offenders:",
        "  #2 P2: 3 problems \u2014 DC201: problem of P2.",
        "  #4 P4: 3 problems \u2014 DC201: problem of P4.",
        "  #3 P3: 2 problems \u2014 DC201: problem of P3.",
        "  … and 4 more illegal",
        "Could not be read:",
        "  #10 b0.ydk: b0.ydk holds no deck.",
        "  #11 b1.ydk: b1.ydk holds no deck.",
        "  #12 b2.ydk: b2.ydk holds no deck.",
        "  … and 4 more",
    ]


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _long_sheets() -> list[Sheet]:
    rows = [[i, f"Player {i}", EVIL[i % len(EVIL)], "a\nb" if i % 7 == 0 else "w" * (i % 40),
             "legal" if i % 3 else "illegal", None if i % 5 else 1.5, "x&<y>" * (i % 2)]
            for i in range(3001)]
    return [Sheet("Long", ["#", "Player", "Odd", "Wrap", "Verdict", "F", "Esc"], rows,
                  [6, 12, 10, 20, 8, 6, 10], {3: "wrap"}, {4: {"legal": "legal"}}),
            Sheet("Short", ["A"], [["x"], ["y"]])]


@pytest.mark.parametrize("jobs", [2, 3])
def test_xlsx_rendered_by_several_processes_is_the_same_file(
        tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long sheet's rows shared among forked helpers give the same parts as one process;
    their temporary files are gone afterwards."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    one, many = tmp_path / "one.xlsx", tmp_path / "many.xlsx"
    write_workbook(_long_sheets(), one)
    write_workbook(_long_sheets(), many, jobs=jobs)
    assert _parts(many) == _parts(one)
    assert openpyxl.load_workbook(many)["Long"].max_row == 3002
    assert not list(scratch.iterdir())


@pytest.mark.parametrize("n", [0, 1, 7, 3000, 12246])
@pytest.mark.parametrize("shares", [2, 3, 5])
def test_xlsx_every_process_renders_an_equal_share(n: int, shares: int) -> None:
    """Each process renders and compresses its own share (the one writing the file only
    copies the others' in): the shares cover every row once, in order, within a row of
    each other."""
    from deckcheck.event.xlsx_tables import _cuts

    cuts = _cuts(n, shares)
    assert cuts[0] == 0 and cuts[-1] == n and len(cuts) == shares + 1
    sizes = [b - a for a, b in zip(cuts, cuts[1:], strict=False)]
    assert min(sizes) >= 0 and max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("n", [0, 1, 7, 3000, 12246])
@pytest.mark.parametrize("shares", [2, 3])
@pytest.mark.parametrize("first", [0.0, 0.1, 0.5])
def test_xlsx_a_first_share_of_its_own_size(n: int, shares: int, first: float) -> None:
    """The process with other work takes `first` of the rows; the helpers share the rest
    equally; every row once, in order."""
    from deckcheck.event.xlsx_tables import _cuts

    cuts = _cuts(n, shares, first)
    assert cuts[0] == 0 and cuts[-1] == n and len(cuts) == shares + 1
    assert cuts[1] == round(n * first)
    sizes = [b - a for a, b in zip(cuts[1:], cuts[2:], strict=False)]
    assert min(sizes) >= 0 and max(sizes) - min(sizes) <= 1


def test_xlsx_a_sheet_made_later_is_made_once_the_helpers_render(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet given as a function is made after the helpers are forked (they render the
    long sheet meanwhile; this process only its `first` share) and rendered here: the same
    file as with every sheet made first."""
    from deckcheck.event import xlsx_tables

    parent, real = os.getpid(), xlsx_tables._rows_xml
    here: list[tuple[str, int, int]] = []  # the rows this process rendered
    made: list[int] = []  # the helpers forked when the later sheet was made

    def rows_xml(*args: Any) -> None:
        if os.getpid() == parent:
            here.append((args[0].title, args[1], args[2]))
        real(*args)

    def later() -> Sheet:
        made.append(len(forked))
        return _long_sheets()[1]

    one, many = tmp_path / "one.xlsx", tmp_path / "many.xlsx"
    write_workbook(_long_sheets(), one)
    forked = _counting_forks(monkeypatch)
    monkeypatch.setattr(xlsx_tables, "_rows_xml", rows_xml)
    write_workbook([_long_sheets()[0], later], many, jobs=2, first=0.1)
    assert _parts(many) == _parts(one)
    assert made == [1]  # made once, the helper already forked
    cuts = xlsx_tables._cuts(3001, 2, 0.1)
    assert ("Long", 0, cuts[1]) in here and not any(
        t == "Long" and b > cuts[1] for t, _, b in here)


def test_xlsx_an_event_completed_while_the_helpers_render(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`write_xlsx(..., complete=…)`: the event is completed (what the Players and Event
    sheets show) once the helpers have started, and the workbook is the one of the event
    completed first."""
    done: list[tuple[EventReport, int]] = []  # each event completed, and the forks by then
    forked: list[int] = []

    def complete(event: EventReport) -> None:
        done.append((event, len(forked)))
        event.notices.append("completed")
        event.legal = 7

    first, later = _long_event(), _long_event()
    complete(first)
    one, many = tmp_path / "one.xlsx", tmp_path / "many.xlsx"
    write_xlsx(first, one, jobs=2)
    forked = _counting_forks(monkeypatch)
    write_xlsx(later, many, jobs=2, complete=complete)
    assert done == [(first, 0), (later, 1)]  # the second once its helper was forked
    assert _parts(many) == _parts(one)


def _counting_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one at each `os.fork` from now on (in the forking process)."""
    forks: list[int] = []
    real = os.fork

    def fork() -> int:
        forks.append(1)
        return real()

    monkeypatch.setattr(os, "fork", fork)
    return forks


@pytest.mark.parametrize("jobs", [1, 2, 3, 4])
def test_xlsx_an_event_is_completed_later_only_where_that_ends_sooner(jobs: int) -> None:
    """On two cores the parent completes the event and renders the Players sheet while the
    helper renders the Problems sheet; with more, the Players rows are worth sharing too
    (the event completed first); one process has nothing to overlap."""
    from deckcheck.event.report_xlsx import _later_share

    share = _later_share(4000, 12246, jobs)  # the shape of bench_event's event
    if jobs == 2:
        assert share is not None and 0.0 <= share <= 0.5
    else:
        assert share is None
    assert _later_share(4000, 0, jobs) is None  # no problems: nothing to overlap
    assert _later_share(0, 0, jobs) is None


def _long_event() -> EventReport:
    """An event with enough problems for the workbook's helpers to share them."""
    from deckcheck.event.models import ProblemRow

    players = [PlayerRow(number=i + 1, player=f"P{i}", source=f"p{i}.ydk", verdict="illegal",
                         main=40, problem_count=1, problems="DC203: x") for i in range(1000)]
    problems = [ProblemRow(number=i // 3 + 1, player=f"P{i // 3}", code="DC203",
                           name="limited", severity="error", card=f"Card {i % 50}",
                           section="main", count=3, limit=1, location=f"p{i}.ydk:{i % 60}",
                           message=f"Card {i % 50} is Limited") for i in range(3000)]
    return EventReport(format="tcg", players=players, problems=problems)


def test_xlsx_a_failing_helper_leaves_its_share_to_the_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.event import xlsx_tables

    parent, real = os.getpid(), xlsx_tables._rows_xml

    def only_here(*args: Any) -> None:
        if os.getpid() != parent:
            raise RuntimeError("helper died")
        real(*args)

    one, many = tmp_path / "one.xlsx", tmp_path / "many.xlsx"
    write_workbook(_long_sheets(), one)
    monkeypatch.setattr(xlsx_tables, "_rows_xml", only_here)
    write_workbook(_long_sheets(), many, jobs=2)
    assert _parts(many) == _parts(one)


@pytest.mark.parametrize("blocks", [1, 2])
def test_xlsx_a_helper_failing_midway_leaves_the_rest_to_the_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, blocks: int) -> None:
    """A helper that dies after writing some blocks of its share: the parent copies those and
    renders the rest, and the file is the same."""
    from deckcheck.event import xlsx_tables

    parent, real = os.getpid(), xlsx_tables._rows_xml
    written = [0]
    here: list[tuple[int, int]] = []  # the rows this process rendered

    def some_then_die(*args: Any) -> None:
        if os.getpid() != parent:
            written[0] += 1
            if written[0] > blocks:
                raise RuntimeError("helper died")
        elif args[0].title == "Long":
            here.append((args[1], args[2]))
        real(*args)

    one, many = tmp_path / "one.xlsx", tmp_path / "many.xlsx"
    sheets = _long_sheets()
    sheets[0].rows = sheets[0].rows * 2  # 6,002 rows: the helper's share is several blocks
    write_workbook(sheets, one)
    monkeypatch.setattr(xlsx_tables, "_rows_xml", some_then_die)
    write_workbook(sheets, many, jobs=2)
    assert _parts(many) == _parts(one)
    assert openpyxl.load_workbook(many)["Long"].max_row == 6003
    # its own share, then what the helper did not write: from the block after its last
    cuts = xlsx_tables._cuts(6002, 2)
    assert here == [(0, cuts[1]), (cuts[1] + blocks * xlsx_tables._BLOCK, 6002)]


def _hostile_event() -> EventReport:
    from deckcheck.event.models import ProblemRow, SkippedRow

    texts = [*EVIL, "a,b", 'say "hi"', "two\nlines", "cr\r", "", "Jöhn Dœ\u2028", "x\x00y",
             "tab\tin", "  space "]
    players = [PlayerRow(number=i + 1, player=t, player_id=texts[-(i % len(texts)) - 1],
                         source=f"{t}.ydk",
                         verdict=("legal", "illegal", "unreadable")[i % 3], main=40 - i,
                         extra=None if i % 2 else 15, problem_count=i, problems=t + "\n" + t,
                         duplicate=None if i % 4 else f"same deck as #{i}", deck_hash=t[:3],
                         error=t if i % 3 == 2 else None)
               for i, t in enumerate(texts * 3)]
    problems = [ProblemRow(number=i + 1, player=t, code=f"DC{i}", name=t, severity="error",
                           card=t or None, section="main", count=-i, limit=i, location=t,
                           message=t) for i, t in enumerate(texts * 3)]
    return EventReport(format='tc"g', event="E,\n", banlist="b", date="2026-12-05", total=3,
                       notices=["n\x01", 'q"'], players=players, problems=problems,
                       skipped=[SkippedRow(source="s,", reason='r"')])


def test_csv_is_what_the_csv_module_writes(tmp_path: Path) -> None:
    """The report's own CSV writing (fields remembered by value) gives the csv module's bytes
    for text that needs quoting, escaping, or neither."""
    from deckcheck.event.columns import player_values, problem_values
    from deckcheck.event.report_csv import escape

    event = _hostile_event()
    paths = write_csv(event, tmp_path / "r.csv")
    for path, columns, rows, values in ((paths[0], PLAYER_COLUMNS, event.players, player_values),
                                        (paths[1], PROBLEM_COLUMNS, event.problems,
                                         problem_values)):
        expected = tmp_path / "expected.csv"
        with expected.open("w", encoding="utf-8-sig", newline="") as fh:
            w = csv.writer(fh, lineterminator="\r\n")
            w.writerow([h for _, h in columns])
            for row in rows:
                w.writerow(["" if v is None else escape(v) for v in values(row)])
        assert path.read_bytes() == expected.read_bytes()


@pytest.mark.parametrize("hostile", [False, True])
def test_json_text_is_what_json_dumps_writes(event: EventReport, hostile: bool) -> None:
    from deckcheck.event.report_json import dumps, to_dict

    report = _hostile_event() if hostile else event
    if hostile:  # a file name that is not UTF-8, as read with surrogateescape
        report.players[0].source = "bad\udcffname.ydk"
    expected = json.dumps(to_dict(report), ensure_ascii=False, indent=2) + "\n"
    # a lone surrogate is escaped, so that the text can be written as UTF-8
    assert dumps(report) == expected.replace("\udcff", "\\udcff")
    empty = EventReport(format="tcg")
    assert dumps(empty) == json.dumps(to_dict(empty), ensure_ascii=False, indent=2) + "\n"


def test_a_file_name_that_is_not_utf8_is_written_to_every_report(tmp_path: Path) -> None:
    """A registration whose file name is not UTF-8 (read with surrogateescape): the JSON report
    keeps the name (escaped; it reads back as the same bytes), CSV and the workbook show U+FFFD."""
    import os

    event = _hostile_event()
    event.players[0].source = "regs/bad\udcffname.ydk"
    event.problems[0].location = "regs/bad\udcffname.ydk:3"
    written = write_json(event, tmp_path / "r.json")
    back = json.loads(written[0].read_text(encoding="utf-8"))
    assert os.fsencode(back["players"][0]["source"]) == b"regs/bad\xffname.ydk"
    assert back["problems"][0]["location"] == "regs/bad\udcffname.ydk:3"
    players, problems = write_csv(event, tmp_path / "r.csv")
    assert "regs/bad\ufffdname.ydk" in players.read_text(encoding="utf-8-sig")
    assert "regs/bad\ufffdname.ydk:3" in problems.read_text(encoding="utf-8-sig")


def test_summary_counts_are_the_reports_own_totals() -> None:
    """"… and N more" is worked out from the totals `finish` stored, not by counting the rows
    again on the way (a large event's rows are read back from disk)."""
    rows = [PlayerRow(number=i, player=f"P{i}", source=f"p{i}.ydk", verdict="illegal",
                      problem_count=1, problems="DC201: x.") for i in range(1, 5)]
    rows += [PlayerRow(number=9, source="b.ydk", verdict="unreadable", error="b: no deck.")]
    event = EventReport(format="tcg", total=30, illegal=10, unreadable=20, players=rows)
    lines = format_summary(event, worst=3).splitlines()
    assert "  … and 7 more illegal" in lines and "  … and 17 more" in lines


_CELL_TEXTS = ["plain", "two\nlines", "tab\tinside", "a & b <c>\nd > e", "=1+1\nx", "\tlead",
               "\nlead", "cr\r\nlf", "é\nnon-ascii", "bell\x07\nx", "x" * 40000, "", "  pad  \n",
               "@home\nx", "line\n", "-\n-"]


def test_xlsx_several_line_text_is_written_as_clean_text_leaves_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's problems (plain text of several lines) are written without going through
    `clean_text`, which has nothing to change in them; every text gives the cell `_cell`
    writes, and the number of lines `text_lines` counted before (issue 24)."""
    from deckcheck.event import xlsx_tables
    from deckcheck.event.xlsx_tables import _cell, _Cells, text_lines

    want = {v: _cell("B\x00", v, "wrap") for v in _CELL_TEXTS}
    cleaned: list[str] = []
    clean = xlsx_tables.clean_text
    monkeypatch.setattr(xlsx_tables, "clean_text", lambda v: cleaned.append(v) or clean(v))
    cells = _Cells("B", "wrap", None, (str, int))
    assert {v: cells[v] for v in _CELL_TEXTS} == want
    assert "two\nlines" not in cleaned and "a & b <c>\nd > e" not in cleaned
    assert "cr\r\nlf" in cleaned and "bell\x07\nx" in cleaned  # what it does change

    def counted(value: object, width: float) -> int:  # as text_lines counted them before
        if not isinstance(value, str) or (len(value) <= width and "\n" not in value):
            return 1
        chars = max(1, int(width))
        return sum(max(1, -(-len(line) // chars)) for line in value.split("\n"))

    for v in [*_CELL_TEXTS, None, 7, "a" * 24, "a" * 25, "a\n" * 3, "\n\n"]:
        for width in (0.5, 1, 8.43, 24, 36):
            assert text_lines(v, width) == counted(v, width), (v, width)


def test_xlsx_text_taken_as_it_is_gives_the_cell_the_general_path_writes() -> None:
    """`_PLAIN` text (most cells) skips the general checks: for any text, the cell made is
    the one `_cell` writes (random texts over printable ASCII, the characters that need
    escaping or quoting, white space at the ends, controls and non-ASCII)."""
    import random
    import string

    from deckcheck.event.xlsx_tables import _PLAIN, _cell, _Cells

    alphabet = string.printable + "é&<>\r\x07 "
    rnd = random.Random(24)
    cells = _Cells("B", "wrap", None, (str, int))
    plain = 0
    for _ in range(20_000):
        v = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 6)))
        assert cells.__missing__(v) == _cell("B\x00", v, "wrap"), repr(v)
        plain += bool(_PLAIN(v))
    assert 5_000 < plain < 15_000  # both paths were taken


def test_xlsx_a_column_wide_enough_is_measured_no_further() -> None:
    """Fitting the widths reads every row once; a column whose longest line already reaches
    the width it cannot pass (a path past its cap) is not measured in later blocks."""
    from deckcheck.event.report_xlsx import _BLOCK, CAPPED, _table, _Values

    measured: list[str] = []

    class Text(str):
        def __str__(self) -> str:
            measured.append(str.__str__(self))
            return str.__str__(self)

    fields = ("number", "source", "location")
    rows = [(n, Text(f"/decks/a long folder name/player {n}.ydk"), f"x{n}")
            for n in range(1, 3 * _BLOCK + 1)]
    longest = _Values(rows, list, fields).longest(["number", "source", "location"],
                                                   {"source": CAPPED["source"] - 1})
    assert longest["source"] >= CAPPED["source"] - 1 and longest["number"] == 4
    assert len(measured) == _BLOCK  # the first block only
    sheet = _table("T", (("number", "#"), ("source", "Source"), ("location", "Location")),
                   _Values(rows, list, fields))
    assert sheet.widths[1] == CAPPED["source"] and sheet.column_styles[1] == "wrap"

"""The event reporters: xlsx (opens cleanly, same data as JSON), CSV (two files), JSON, text."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import openpyxl
import pytest

from deckcheck.event.columns import PLAYER_COLUMNS, PROBLEM_COLUMNS
from deckcheck.event.models import VERDICT_LABELS, EventReport, Registration
from deckcheck.event.report_csv import write_csv
from deckcheck.event.report_json import write_json
from deckcheck.event.report_xlsx import write_xlsx
from deckcheck.event.run import check_registrations
from deckcheck.event.summary import format_summary

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
    assert ws.auto_filter.ref == f"A1:M{len(event.players) + 1}"
    assert ws["A1"].font.b and ws["A1"].value == "#"
    assert ws.column_dimensions["J"].width == 80  # problem details, wrapped
    assert 6 <= ws.column_dimensions["D"].width <= 60
    fills = {ws.cell(row=i + 2, column=5).value: ws.cell(row=i + 2, column=5).fill.fgColor.rgb
             for i in range(len(event.players))}
    assert fills == {"legal": "FFC6EFCE", "illegal": "FFFFC7CE", "could not read": "FFFFEB9C"}
    assert wb["Problems"].freeze_panes == "A2"
    assert _sheet_rows(wb["Event"])[:4] == [["Event", None], ["Format", "tcg"],
                                            ["Banlist", "test list"], ["Date", "2026-12-05"]]


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
        "  #7 Pot\x01 Player (=1): 2 problems \u2014 DC101: The Main Deck has 3 cards; it needs "
        "40 to 60.",
        "Could not be read:",
        "  #8 Bad: bad.ydk holds no deck.",
    ])

"""`deckcheck event check|sheet` and `deckcheck diff` through CliRunner, with the real validator,
the built-in card set and the 2026.05 TCG list."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner, Result

from deckcheck.cards.builtin import builtin_pool
from deckcheck.cli.main import cli
from deckcheck.event.columns import PLAYER_COLUMNS, PROBLEM_COLUMNS
from deckcheck.event.models import VERDICT_LABELS

DATE = ["--date", "2026-12-05"]


def _eventkit() -> Any:
    name = "deckcheck_tests_eventkit"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "event" / "eventkit.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def kit() -> Any:
    return _eventkit()


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kit: Any) -> list[str]:
    built = kit.build_event(tmp_path, builtin_pool())
    monkeypatch.chdir(tmp_path)
    return [str(p.relative_to(tmp_path)) for p in built]


SUMMARY = """\
13 registrations checked: tcg, 2026.05 TCG, as of 2026-12-05
  6 legal, 4 illegal, 3 could not be read
  7 registrations flagged as duplicate (see the Duplicate column)
Worst offenders:
  #1 Bob Smith (0300000002): 1 problem \u2014 DC202: Pot of Greed is Forbidden in 2026.05 TCG; \
remove it. (event/Bob Smith 0300000002.ydk:43)
  #7 Frank: 1 problem \u2014 DC101: The Main Deck has 10 cards; TCG Advanced allows 40 to 60. \
(players.xlsx:Frank)
  #9 Hank (0302222222): 1 problem \u2014 DC101: The Main Deck has 9 cards; TCG Advanced allows \
40 to 60. (registrations.csv:3)
  #13 Kim Lee (304444444): 1 problem \u2014 DC202: Pot of Greed is Forbidden in 2026.05 TCG; \
remove all 2 copies. (store.xlsx:Registrations!D3)
Could not be read:
  #3 broken: event/sub/broken.txt holds no card lines; write one card per line, like '3 Ash \
Blossom & Joyous Spring'.
  #11 bob smith (300000002): registrations.csv:5: The Main Deck part of the ydke:// URL decodes \
to 3 bytes, not a multiple of 4 (one passcode is 4 bytes); copy the whole URL again.
  #12 Jack (0303333333): registrations.csv:6 is empty: the row has no decklist.
Skipped (2 inputs not a registration):
  event/.hidden.ydk is a hidden file; it was not read.
  event/notes.md is not a deck file (deck files end in .csv, .omega, .text, .tsv, .txt, .xlsm, \
.xlsx, .ydk, .ydke).
"""


def test_event_check_summary_report_and_exit_code(sources: list[str], kit: Any) -> None:
    result = run("event", "check", *sources, *DATE, "--event", "Regional Berlin", "-o",
                 "report.xlsx")
    assert result.exit_code == 2, result.output
    assert result.stdout == SUMMARY
    assert "wrote report.xlsx" in result.stderr
    assert "Checking decklists" not in result.stderr  # no progress bar when not a terminal

    js = run("event", "check", *sources, *DATE, "--json", "-o", "report.json")
    assert js.exit_code == 2
    data = json.loads(js.stdout)
    assert json.loads(Path("report.json").read_text(encoding="utf-8")) == data
    got = [(p["player"], p["player_id"], p["source"], p["verdict"], p["main"], p["extra"],
            p["side"], p["problem_count"], p["duplicate"]) for p in data["players"]]
    assert got == [tuple(row) for row in kit.EXPECTED]
    assert (data["format"], data["banlist"], data["date"]) == ("tcg", "2026.05 TCG", "2026-12-05")
    # every input is accounted for: what is not a registration is listed with its reason
    assert [s["source"] for s in data["skipped"]] == ["event/.hidden.ydk", "event/notes.md"]

    # the workbook opens and carries the same data as the JSON
    wb = openpyxl.load_workbook("report.xlsx")
    players = [list(r) for r in wb["Players"].iter_rows(values_only=True)]
    assert players[0] == [h for _, h in PLAYER_COLUMNS]
    for row, want in zip(players[1:], data["players"], strict=True):
        want = dict(want, verdict=VERDICT_LABELS[want["verdict"]])
        assert row == [None if want[f] == "" else want[f] for f, _ in PLAYER_COLUMNS]
    facts = [list(r) for r in wb["Event"].iter_rows(values_only=True)]
    assert facts[0] == ["Event", "Regional Berlin"]
    assert ["Skipped", 2] in facts
    assert ["Skipped", "event/notes.md: " + data["skipped"][1]["reason"]] in facts
    problems = [list(r) for r in wb["Problems"].iter_rows(values_only=True)]
    assert problems[0] == [h for _, h in PROBLEM_COLUMNS]
    assert [dict(zip([f for f, _ in PROBLEM_COLUMNS], r, strict=True))
            for r in problems[1:]] == data["problems"]
    assert [(p["number"], p["code"], p["card"], p["count"], p["limit"], p["location"])
            for p in data["problems"]] == [
        (1, "DC202", "Pot of Greed", 1, 0, "event/Bob Smith 0300000002.ydk:43"),
        (7, "DC101", None, 10, 40, "players.xlsx:Frank"),
        (9, "DC101", None, 9, 40, "registrations.csv:3"),
        (13, "DC202", "Pot of Greed", 2, 0, "store.xlsx:Registrations!D3"),
    ]


def test_event_check_csv_two_files(sources: list[str]) -> None:
    result = run("event", "check", *sources, *DATE, "-o", "out.csv")
    assert result.exit_code == 2
    assert "wrote out.csv and out.problems.csv" in result.stderr
    lines = Path("out.csv").read_text(encoding="utf-8-sig").splitlines()
    assert len(lines) == 14 and lines[0].startswith("#,Player,Player ID,Source,Verdict")
    assert len(Path("out.problems.csv").read_text(encoding="utf-8-sig").splitlines()) == 5


def test_exit_codes_legal_and_illegal(sources: list[str]) -> None:
    legal = run("event", "check", "event/alice.ydk", "event/sub/carol.txt", *DATE)
    assert legal.exit_code == 0, legal.output
    assert legal.stdout.splitlines()[1] == "  2 legal, 0 illegal, 0 could not be read"
    illegal = run("event", "check", "event/alice.ydk", "event/Bob Smith 0300000002.ydk", *DATE)
    assert illegal.exit_code == 1


def test_progress_bar_when_asked(sources: list[str]) -> None:
    result = run("event", "check", "event", *DATE, "--progress")
    assert "Checking decklists" in result.stderr


def test_bad_output_suffix_and_bad_date(sources: list[str]) -> None:
    result = run("event", "check", "event", *DATE, "-o", "report.pdf")
    assert result.exit_code == 2
    assert result.stderr == "deckcheck: report.pdf: the report must end in .xlsx, .csv or .json.\n"
    result = run("event", "check", "event", "--date", "5/12/2026")
    assert result.exit_code == 2
    assert result.stderr.startswith("deckcheck: --date \"5/12/2026\" is not")


def test_event_sheet_one_deck(sources: list[str]) -> None:
    from deckcheck.decks.files import read_deck

    result = run("event", "sheet", "event/alice.ydk", "--player", "Alice Doe", "--id",
                 "0301234567", "--event", "Store Championship", "--date", "2026-12-05",
                 "-o", "alice.xlsx")
    assert result.exit_code == 0, result.output
    deck = read_deck("alice.xlsx", builtin_pool())
    assert (deck.size("main"), deck.size("extra"), deck.size("side")) == (40, 3, 2)
    assert deck.meta["player"] == "Alice Doe" and deck.meta["player_id"] == "0301234567"
    assert deck.meta["event"] == "Store Championship"


def test_event_sheet_warns_of_an_unknown_card_and_writes_country_and_deck_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("d.txt").write_text("3 Ash Blossom & Joyous Spring\n2 Efect Veiler\n35 Pot of Greed\n",
                             encoding="utf-8")
    result = run("event", "sheet", "d.txt", "--country", "Germany", "--deck-name", "Ash Pot",
                 "-o", "out.xlsx")
    assert result.exit_code == 0, result.output
    assert ("warning: d.txt:2: No card is named 'Efect Veiler'; did you mean Effect Veiler or "
            "Extra Veiler or Defect Compiler?"
            in result.stderr.splitlines())
    texts = {str(c.value) for row in openpyxl.load_workbook("out.xlsx").active.iter_rows()
             for c in row if c.value is not None}
    assert {"Germany", "Ash Pot", "Efect Veiler"} <= texts


def test_event_sheet_folder_one_file_per_player(sources: list[str]) -> None:
    result = run("event", "sheet", "registrations.csv", "--event", "Locals", "-o", "sheets")
    assert result.exit_code == 2  # two rows could not be read
    assert sorted(p.name for p in Path("sheets").iterdir()) == ["Gina.xlsx", "Hank.xlsx",
                                                                 "Ivy.xlsx"]
    assert "wrote 3 sheets to sheets" in result.stderr
    assert "skipped registrations.csv:6: registrations.csv:6 is empty" in result.stderr
    many = run("event", "sheet", "event", "--player", "X", "-o", "sheets2")
    assert many.exit_code == 2 and "--player, --id and --deck-name apply to one deck" in many.stderr
    # a folder's files that are no registrations are named, never passed over in silence
    folder = run("event", "sheet", "event", "-o", "sheets3")
    assert "note: skipped event/notes.md is not a deck file" in folder.stderr
    assert "note: skipped event/.hidden.ydk is a hidden file" in folder.stderr


def test_event_sheet_one_pdf_one_page_per_player_in_order(sources: list[str]) -> None:
    from pypdf import PdfReader

    result = run("event", "sheet", "registrations.csv", "--event", "Locals", "--date",
                 "2026-12-05", "-o", "sheets.pdf")
    assert result.exit_code == 2  # two rows could not be read: no page, named on stderr
    assert "skipped registrations.csv:6: registrations.csv:6 is empty" in result.stderr
    assert result.stderr.splitlines()[-1] == "wrote sheets.pdf (3 pages, one per player)"
    reader = PdfReader("sheets.pdf")
    texts = [p.extract_text() for p in reader.pages]
    assert [t.split("First Name\n", 1)[1].split("\n", 1)[0] for t in texts] == [
        "Gina", "Hank", "Ivy"]  # the table's order
    assert all("Locals" in t and "2026-12-05" in t for t in texts)
    assert [f"Page {i} of 3" in t for i, t in enumerate(texts, 1)] == [True] * 3
    again = run("event", "sheet", "registrations.csv", "-o", "sheets.pdf")
    assert again.exit_code == 2
    assert again.stderr.splitlines()[-1] == (
        "deckcheck: sheets.pdf already exists; pass --force to replace it, or choose another "
        "name.")
    one = run("event", "sheet", "event/alice.ydk", "--player", "Alice Doe", "-o", "alice.pdf")
    assert one.exit_code == 0, one.output
    assert one.stderr.splitlines()[-1] == "wrote alice.pdf (1 page)"
    (page,) = PdfReader("alice.pdf").pages
    assert "Alice" in page.extract_text() and "Doe" in page.extract_text()


def test_diff_identical_different_unreadable(sources: list[str], kit: Any) -> None:
    same = run("diff", "event/alice.ydk", "event/sub/zed_copy.ydk")
    assert same.exit_code == 0
    assert same.stdout == "The decks are identical (main 40, extra 3, side 2).\n"
    differ = run("diff", "event/alice.ydk", "event/Bob Smith 0300000002.ydk")
    assert differ.exit_code == 1
    assert differ.stdout == (
        "Main: Pot of Greed 0 \u2192 1 (+1)\n"
        "Side: Droll & Lock Bird 2 \u2192 0 (\u22122)\n"
        "Totals: main 40 \u2192 41, extra 3 \u2192 3, side 2 \u2192 0\n")
    js = run("diff", "event/alice.ydk", "event/sub/carol.txt", "--json")
    assert js.exit_code == 1
    data = json.loads(js.stdout)
    assert data["identical"] is False and data["a"] == "event/alice.ydk"
    assert data["changes"] == [{"section": "side", "card": "Droll & Lock Bird",
                                "passcode": 94145021, "before": 2, "after": 0}]
    bad = run("diff", "event/alice.ydk", "event/sub/broken.txt")
    assert bad.exit_code == 2
    assert bad.stderr.splitlines()[-1].startswith("deckcheck: event/sub/broken.txt holds")


def test_banlist_file_applies_to_every_deck(sources: list[str]) -> None:
    Path("strict.lflist.conf").write_text("#[2026.12 Test]\n!2026.12 Test\n14558127 0 --Ash\n",
                                          encoding="utf-8")
    result = run("event", "check", "event/alice.ydk", "event/sub/carol.txt", *DATE,
                 "--banlist", "strict.lflist.conf", "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert [p["verdict"] for p in data["players"]] == ["illegal", "illegal"]
    assert {p["card"] for p in data["problems"]} == {"Ash Blossom & Joyous Spring"}

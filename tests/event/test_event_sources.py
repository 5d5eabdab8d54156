"""A realistic event built by hand in a tmp dir: a mixed folder (.ydk, .txt, a broken file, a
copied deck), a workbook with one sheet per player, a CSV export of a web form (ydke URLs,
pasted lists, passcodes, a broken URL, an empty cell) and a registration workbook.
Every row of the report is asserted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from deckcheck.event.run import check_event
from deckcheck.event.sources import discover, expand, player_from_stem


def _eventkit() -> Any:
    name = "deckcheck_tests_eventkit"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("eventkit.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture
def event_sources(tmp_path: Path, pool: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    sources = _eventkit().build_event(tmp_path, pool)
    monkeypatch.chdir(tmp_path)
    return [str(p.relative_to(tmp_path)) for p in sources]


def test_expand_skips_hidden_and_other_files(event_sources: list[str]) -> None:
    assert [p.as_posix() for p in expand(event_sources)] == [
        "event/Bob Smith 0300000002.ydk", "event/alice.ydk", "event/sub/broken.txt",
        "event/sub/carol.txt", "event/sub/zed_copy.ydk", "players.xlsx", "registrations.csv",
        "store.xlsx"]


def test_every_row_of_the_report(event_sources: list[str], pool: Any,
                                 kit: SimpleNamespace) -> None:
    steps: list[tuple[str, int, int]] = []
    ev = check_event(event_sources, pool, checker=kit.fake_check,
                     progress=lambda *a: steps.append(a))
    got = [(r.player, r.player_id, r.source, r.verdict, r.main, r.extra, r.side,
            r.problem_count, r.duplicate) for r in ev.players]
    assert got == _eventkit().EXPECTED
    assert [r.number for r in ev.players] == list(range(1, 14))
    # one step per registration; the total grows as the workbook and the CSV are read
    assert steps == [("check", i, 8) for i in range(1, 6)] + [("check", 6, 9), ("check", 7, 9)] \
        + [("check", i, 13) for i in range(8, 14)]
    assert (ev.total, ev.legal, ev.illegal, ev.unreadable, ev.duplicates) == (13, 6, 4, 3, 7)
    assert ev.exit_code == 2
    errors = {r.source: r.error for r in ev.players if r.error}
    assert errors["registrations.csv:6"] == "registrations.csv:6 is empty: the row has no decklist."
    assert errors["registrations.csv:5"].startswith("registrations.csv:5: The Main Deck part of")
    assert errors["event/sub/broken.txt"].startswith("event/sub/broken.txt holds no card lines")
    # problems point at the registration's cell or line
    locs = {(p.number, p.code): p.location for p in ev.problems}
    assert locs[(1, "DC201")] == "event/Bob Smith 0300000002.ydk:43"
    assert locs[(13, "DC201")] == "store.xlsx:Registrations!D3"


def test_discover_deck_per_sheet_and_registration_tables(event_sources: list[str],
                                                         pool: Any) -> None:
    regs = {r.source: r for r in discover(event_sources, pool)}
    erin = regs["players.xlsx:Erin"].deck
    assert erin is not None and str(erin.main[0].location) == "players.xlsx:Erin!B2"
    hank = regs["registrations.csv:3"].deck
    assert hank is not None and [e.count for e in hank.main] == [3, 3, 3]
    assert {str(e.location) for e in hank.main} == {"registrations.csv:3"}
    assert hank.main[1].location.part == "line 2"


@pytest.mark.parametrize(("stem", "want"), [
    ("Jane Doe 0301234567", ("Jane Doe", "0301234567")),
    ("jane_doe_0301234567", ("jane doe", "0301234567")),
    ("Jane Doe (0301234567)", ("Jane Doe", "0301234567")),
    ("alice", ("alice", None)),
    ("0301234567", ("0301234567", None)),
    ("Jane Doe 0301234567/deck", ("Jane Doe", "0301234567")),
    ("players/Jane/Decklist", ("Jane", None)),
])
def test_player_from_file_name(stem: str, want: tuple[str, str | None]) -> None:
    assert player_from_stem(Path(f"{stem}.ydk")) == want


def test_semicolon_csv_in_cp1252_and_a_fake_workbook(tmp_path: Path, pool: Any,
                                                     kit: SimpleNamespace) -> None:
    reg = tmp_path / "export.csv"
    ash = "14558127, " * 39 + "14558127"
    reg.write_bytes(("Name;Player ID;Deck list\r\nRené Müller;0301;" + ash + "\r\n")
                    .encode("cp1252"))
    fake = tmp_path / "fake.xlsx"
    fake.write_text("not a workbook")
    ev = check_event([reg, fake], pool, checker=kit.fake_check)
    assert [(r.player, r.player_id, r.source, r.verdict, r.main) for r in ev.players] == [
        ("René Müller", "0301", f"{reg}:2", "legal", 40),
        ("fake", None, str(fake), "unreadable", None)]
    assert ev.players[1].error is not None and "is not an xlsx workbook" in ev.players[1].error


def test_cells_in_every_deck_format(pool: Any, kit: SimpleNamespace) -> None:
    from deckcheck.decks.model import Location
    from deckcheck.decks.omega import to_omega
    from deckcheck.decks.ydke import to_ydke
    from deckcheck.event.sources import read_cell

    deck = kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, kit.LEGAL_SIDE)
    where = Location(source="reg.xlsx", sheet="Form", cell="E9")
    sizes = (40, 3, 2)
    for cell in (to_ydke(deck), to_omega(deck)):
        got = read_cell(cell, pool, where)
        assert (got.size("main"), got.size("extra"), got.size("side")) == sizes
        assert {str(e.location) for _, e in got.entries()} == {"reg.xlsx:Form!E9"}
    passcodes = " ".join(str(pc) for pc, n in kit.LEGAL_MAIN for _ in range(n))
    got = read_cell(passcodes, pool, where)
    assert got.size("main") == 40 and got.source == "reg.xlsx:Form!E9"
    one_line = "3 Ash Blossom & Joyous Spring; 3 Effect Veiler, 2 Maxx \"C\""
    got = read_cell(one_line, pool, where)
    assert [(e.passcode, e.count) for e in got.main] == [(kit.ASH, 3), (kit.VEILER, 3),
                                                          (kit.MAXX_C, 2)]


def test_workbook_mixing_a_table_with_deck_sheets_and_a_missing_path(
        tmp_path: Path, pool: Any, kit: SimpleNamespace) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    reg = wb.active
    reg.title = "Form"
    reg.append(["Player", "Konami ID", "Passcodes"])
    reg.append(["Yui", "0305", " ".join(str(kit.ASH) for _ in range(40))])
    zoe = wb.create_sheet("Zoe")
    zoe.append(["Qty", "Card Name"])
    zoe.append([3, "Maxx \"C\""])
    wb.create_sheet("Empty")
    wb.save(tmp_path / "mixed.xlsx")
    ev = check_event([tmp_path / "mixed.xlsx", tmp_path / "missing.ydk", tmp_path / "mixed.xlsx"],
                     pool, checker=kit.fake_check)
    assert [(r.player, r.player_id, r.source.replace(str(tmp_path), "T"), r.verdict, r.main)
            for r in ev.players] == [
        ("Yui", "0305", "T/mixed.xlsx:Form!C2", "legal", 40),
        ("Zoe", None, "T/mixed.xlsx:Zoe", "illegal", 3),
        ("missing", None, "T/missing.ydk", "unreadable", None)]
    assert ev.players[2].error == f"{tmp_path}/missing.ydk does not exist: check the path."

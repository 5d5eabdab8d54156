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

from deckcheck.event.inputs import expand
from deckcheck.event.registrations import discover, player_from_stem
from deckcheck.event.run import check_event


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
    from deckcheck.event.registrations import read_cell

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


# --- every input accounted for (issue 12) ---------------------------------------------------

def _deck_sheet(ws: Any, pool: Any, kit: SimpleNamespace) -> None:
    ws.append(["Qty", "Card Name"])
    for pc, n in kit.LEGAL_MAIN:
        ws.append([n, pool.get(pc).name])


def test_a_sheet_holding_a_pasted_list_in_one_column_keeps_its_player(
        tmp_path: Path, pool: Any, kit: SimpleNamespace) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    for i, name in enumerate(("Amy", "Ben", "Cid")):
        ws = wb.active if i == 0 else wb.create_sheet(name)
        ws.title = name
        _deck_sheet(ws, pool, kit)
    pasted = wb.create_sheet("Dee")
    for pc, n in kit.LEGAL_MAIN:  # "3 Ash Blossom & Joyous Spring" per row, in column B
        pasted.append([None, f"{n} {pool.get(pc).name}"])
    path = tmp_path / "four.xlsx"
    wb.save(path)
    ev = check_event([path], pool, checker=kit.fake_check)
    assert [(r.player, r.source, r.verdict, r.main) for r in ev.players] == [
        ("Amy", f"{path}:Amy", "legal", 40), ("Ben", f"{path}:Ben", "legal", 40),
        ("Cid", f"{path}:Cid", "legal", 40), ("Dee", f"{path}:Dee", "legal", 40)]
    (dee,) = [r for r in discover([path], pool) if r.player == "Dee"]
    assert dee.deck is not None
    assert [str(e.location) for e in dee.deck.main[:2]] == [f"{path}:Dee!B1", f"{path}:Dee!B2"]


def test_every_file_and_sheet_is_a_registration_or_skipped_with_a_reason(
        tmp_path: Path, pool: Any, kit: SimpleNamespace) -> None:
    import openpyxl

    from deckcheck.event.inputs import Skipped
    from deckcheck.event.registrations import discover_items

    folder = tmp_path / "decks"
    (folder / ".git").mkdir(parents=True)
    (folder / "README.md").write_text("Decks for Saturday\n")
    (folder / ".DS_Store").write_bytes(b"\0\0")
    (folder / "~$players.xlsx").write_bytes(b"lock")
    (folder / "amy.ydk").write_bytes(b"#main\n14558127\n#extra\n!side\n")
    wb = openpyxl.Workbook()
    wb.active.title = "Ben"
    _deck_sheet(wb.active, pool, kit)
    wb.create_sheet("Blank")
    wb.create_sheet("Notes")["A1"] = "Bring your sleeves"
    template = wb.create_sheet("Template")
    template.append(["Qty", "Card Name"])
    wb.save(folder / "players.xlsx")
    items = discover_items([folder], pool)
    got = [(type(i).__name__, i.source, getattr(i, "reason", None) or getattr(i, "error", None))
           for i in items]
    suffixes = ".csv, .omega, .text, .tsv, .txt, .xlsm, .xlsx, .ydk, .ydke"
    assert got == [
        ("Skipped", f"{folder}/.DS_Store", f"{folder}/.DS_Store is a hidden file; it was not "
                                           "read."),
        ("Skipped", f"{folder}/.git", f"{folder}/.git is a hidden folder; it was not searched."),
        ("Skipped", f"{folder}/README.md", f"{folder}/README.md is not a deck file (deck files "
                                           f"end in {suffixes})."),
        ("Registration", f"{folder}/amy.ydk", None),
        ("Registration", f"{folder}/players.xlsx:Ben", None),
        ("Skipped", f"{folder}/players.xlsx:Blank",
         f"{folder}/players.xlsx: Sheet Blank is empty."),
        ("Skipped", f"{folder}/players.xlsx:Notes",
         f"{folder}/players.xlsx: Sheet Notes holds no table of cards (no quantity, name or "
         "passcode columns) and no list of cards in one column."),
        ("Skipped", f"{folder}/players.xlsx:Template",
         f"{folder}/players.xlsx: Sheet Template has a card table header but no cards (a "
         "template or instructions)."),
        ("Skipped", f"{folder}/~$players.xlsx", f"{folder}/~$players.xlsx is a spreadsheet's "
                                                "lock file, not a deck."),
    ]
    assert all(isinstance(i, Skipped) or i.deck is not None for i in items)


def test_a_sheet_too_large_to_read_is_a_could_not_read_row(tmp_path: Path, pool: Any,
                                                           kit: SimpleNamespace) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.title = "Amy"
    _deck_sheet(wb.active, pool, kit)
    big = wb.create_sheet("Big")
    big.append(["Qty", "Card Name"])
    for i in range(1200):
        big.append([1, f"Card {i}"])
    path = tmp_path / "w.xlsx"
    wb.save(path)
    ev = check_event([path], pool, checker=kit.fake_check)
    assert [(r.player, r.verdict) for r in ev.players] == [("Amy", "legal"),
                                                           ("Big", "unreadable")]
    assert ev.players[1].error == (f"{path}:Big holds more than 1,000 card lines, which is no "
                                   "deck; check that it is the right file.")


def test_a_csv_registration_table_of_too_many_rows_is_refused(tmp_path: Path, pool: Any) -> None:
    path = tmp_path / "reg.csv"
    path.write_text("Name,Deck list\n" + "Amy,14558127\n" * 10_001)
    (reg,) = discover([path], pool)
    assert reg.error == (f"{path} has more than 10,000 rows, which is no deck or registration "
                         "table; split it or check that it is the right file.")


def test_thousands_of_other_files_are_counted_not_listed(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.event import inputs
    from deckcheck.event.inputs import Skipped, expand_items

    monkeypatch.setattr(inputs, "MAX_SKIPPED_LISTED", 3)
    for i in range(10):
        (tmp_path / f"note{i}.md").write_text("x")
    (tmp_path / "amy.ydk").write_bytes(b"#main\n14558127\n")
    items = expand_items([tmp_path])
    assert items[0] == tmp_path / "amy.ydk"
    assert [i.source for i in items[1:4]] == [str(tmp_path / f"note{i}.md") for i in range(3)]
    assert items[4] == Skipped(str(tmp_path), f"7 more files under {tmp_path} are not deck "
                                              "files (or hidden); they were not read.")


def test_registration_rows_past_the_bound_are_named(tmp_path: Path, pool: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import openpyxl

    from deckcheck.event.inputs import Skipped
    from deckcheck.event.registrations import discover_items

    monkeypatch.setattr("deckcheck.decks.xlsx.MAX_ROWS", 4)
    wb = openpyxl.Workbook()
    wb.active.title = "Form"
    wb.active.append(["Player", "Deck list"])
    for name in ("Amy", "Ben", "Cid", "Dee", "Eve"):
        wb.active.append([name, "ydke://1xqfAQ==!!!"])
    path = tmp_path / "reg.xlsx"
    wb.save(path)
    items = discover_items([path], pool)
    assert [getattr(i, "player", None) for i in items] == ["Amy", "Ben", "Cid", None]
    assert items[-1] == Skipped(f"{path}:Form", f"{path}:Form has more than 4 rows; the rows "
                                                "after row 4 were not read — split the "
                                                "registrations over several sheets.")


#: CSV texts on which the deck reader's delimiter guess (most lines) and the event's old one
#: (most on the first line) disagreed: a title line above the header, a bar-separated table,
#: a title with a semicolon above a tab-separated table. Both now use `guess_delimiter`.
_DISAGREED = [
    ("Regional Championship, Paris\nPlayer;Deck list\n", ";"),
    ("Player|Deck list\n", "|"),
    ("Event: Paris; day 1\nPlayer\tDeck list\n", "\t"),
]


@pytest.mark.parametrize(("head", "want"), _DISAGREED)
def test_deck_and_event_csv_readers_guess_one_delimiter(tmp_path: Path, pool: Any,
                                                        kit: SimpleNamespace, head: str,
                                                        want: str) -> None:
    from deckcheck.decks.csvfile import guess_delimiter
    from deckcheck.decks.ydke import to_ydke

    url = to_ydke(kit.make_deck(kit.LEGAL_MAIN, kit.LEGAL_EXTRA, kit.LEGAL_SIDE))
    text = head + f"Ann{want}{url}\nBob{want}{url}\n"
    first = text.split("\n", 1)[0]
    assert max((",", ";", "\t"), key=first.count) != want  # the event's old guess
    assert guess_delimiter(text) == want
    path = tmp_path / "reg.csv"
    path.write_text(text)
    regs = discover([path], pool)
    assert [(r.player, r.source, r.error) for r in regs] == [
        ("Ann", f"{path}:{text.count(chr(10)) - 1}", None),
        ("Bob", f"{path}:{text.count(chr(10))}", None)]
    assert all(r.deck is not None and r.deck.size("main") == 40 for r in regs)


def test_every_deck_file_kind_check_reads_is_read_by_event_check(tmp_path: Path,
                                                                   pool: Any) -> None:
    """One table of deck file kinds (issue 23): `check folder/*` read `.text` and `.tsv` lists
    as decks while `event check folder` called them "not a deck file"."""
    import deckcheck.checker
    import deckcheck.desk.library
    import deckcheck.event.inputs
    from deckcheck.decks.files import DECK_SUFFIXES

    assert deckcheck.checker.DECK_SUFFIXES is DECK_SUFFIXES
    assert deckcheck.event.inputs.DECK_SUFFIXES is DECK_SUFFIXES
    assert deckcheck.desk.library.DECK_EXTENSIONS is DECK_SUFFIXES
    folder = tmp_path / "regs"
    folder.mkdir()
    (folder / "amy.text").write_text("3 Ash Blossom & Joyous Spring\n", encoding="utf-8")
    (folder / "ben.tsv").write_text("Qty\tCard Name\n2\tAsh Blossom & Joyous Spring\n",
                                    encoding="utf-8")
    regs = discover([folder], pool)
    assert sorted((r.player, r.error, sum(e.count for e in r.deck.main) if r.deck else None)
                  for r in regs) == [("amy", None, 3), ("ben", None, 2)]


def test_event_inputs_do_not_share_the_card_sources_name() -> None:
    """Issue 23: `deckcheck/sources/` parses card data; the event's registration inputs were
    `deckcheck/event/sources.py`. One name, one meaning."""
    import importlib.util

    assert importlib.util.find_spec("deckcheck.event.sources") is None
    assert importlib.util.find_spec("deckcheck.event.inputs") is not None
    assert importlib.util.find_spec("deckcheck.event.registrations") is not None


def test_the_inputs_of_a_large_event_are_held_compactly(tmp_path: Path) -> None:
    """Issue 24: 100,000 registrations were 100,000 `Path` objects in the parent (~400 bytes
    each, and copied into each forked worker as it touched them); the paths are one text."""
    import gc
    import tracemalloc

    from deckcheck.event.inputs import Skipped, expand_items

    for i in range(2000):
        (tmp_path / f"Player {i:06d} {300000000 + i:010d}.ydk").write_bytes(b"")
    (tmp_path / "notes.md").write_bytes(b"")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        entries = expand_items([tmp_path])
        gc.collect()  # also empties the free lists of the tuples made while sorting
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    path = len(str(tmp_path / "Player 000000 0300000000.ydk"))
    assert held < 2001 * (path + 40), held  # the text, and 8 bytes of offset a file
    assert entries[0] == tmp_path / "Player 000000 0300000000.ydk"
    assert isinstance(entries[-1], Skipped) and entries.files == 2000
    assert entries[1999:] == [tmp_path / "Player 001999 0300001999.ydk", entries[-1]]

"""A large event's rows on disk (`event.spool`), its duplicate flags from a temporary database
(`event.duplicates`), and the reports read back from both: the same bytes as from rows held
in memory (issue 24: memory must not grow with every registration)."""

from __future__ import annotations

import io
import json
import random
import re
import unicodedata
from collections import Counter
from dataclasses import fields
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from deckcheck.event import spool
from deckcheck.event.duplicates import flag
from deckcheck.event.models import EventReport, PlayerRow
from deckcheck.event.report_csv import write_csv
from deckcheck.event.report_json import dumps, to_dict, write_to
from deckcheck.event.report_xlsx import write_xlsx
from deckcheck.event.run import PROBLEMS_EACH, check_event
from deckcheck.event.spool import RowSpool
from deckcheck.event.summary import format_summary


def _row(n: int, player: str | None = None, player_id: str | None = None,
         deck_hash: str | None = None) -> PlayerRow:
    return PlayerRow(number=n, player=player, player_id=player_id, source=f"p{n}.ydk",
                     verdict="legal", deck_hash=deck_hash)


def test_spool_reads_back_what_was_appended_held_and_on_disk() -> None:
    rows = [_row(n, f"P{n}", str(n)) for n in range(1, 24)]
    held = RowSpool(PlayerRow, keep=100)
    disk = RowSpool(PlayerRow, keep=5, block=4)
    for r in rows:
        held.append(r)
        disk.append(r)
    assert disk._file is not None and held._file is None
    assert not disk._rows and len(disk._tail) < 4  # only the block being filled is held
    for s in (held, disk):
        assert len(s) == 23
        assert list(s) == rows
        assert s[0] == rows[0] and s[22] == rows[22] and s[-1] == rows[-1] and s[9] == rows[9]
        for a, b in [(0, 23), (3, 9), (7, 8), (20, 40), (5, 5), (0, 1)]:
            assert s[a:b] == rows[a:b]
        assert s[::5] == rows[::5]
        with pytest.raises(IndexError):
            s[23]


def test_rows_given_as_values_are_stored_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """An event appends each row as its values (`run.add_row`): held or past `keep`, they are
    stored as they are, no row object made as they come (issue 24: the parent's work while
    the workers check); held rows become row objects once, when first read back."""
    rows = [_row(n, f"P{n}", str(n), f"h{n}") for n in range(1, 24)]
    names = [f.name for f in fields(PlayerRow)]
    values = [tuple(getattr(r, n) for n in names) for r in rows]
    table = RowSpool(PlayerRow, keep=5, block=4)
    made: list[tuple[Any, ...]] = []
    make = table._make
    monkeypatch.setattr(table, "_make", lambda v: made.append(v) or make(v))
    table.append_values(values[0])
    table.extend_values(values[1:5])
    assert made == [] and table._file is None  # held: as values
    assert list(table) == rows[:5] and table[1:3] == rows[1:3] and len(made) == 5
    assert list(table) == rows[:5] and len(made) == 5  # made once
    table.append_values(values[5])  # one more held: made again on the next read
    assert list(table) == rows[:6] and len(made) == 11
    table.extend_values(values[6:])
    assert len(made) == 11 and table._file is not None  # to the file as they are
    monkeypatch.undo()
    assert list(table) == rows and table[17] == rows[17] and table[2:21] == rows[2:21]


@pytest.mark.parametrize("keep", [2, 100])
def test_spool_fills_rows_as_they_are_read_back(keep: int) -> None:
    """As rows and as values, held and on disk; a row read before `fill` was set is made
    again with it."""
    table = RowSpool(PlayerRow, keep=keep, block=2)
    for n in range(1, 8):
        table.append(_row(n))
    assert table[0].duplicate is None
    at = table.names.index("duplicate")
    table.fill = lambda v: v.__setitem__(at, f"d{v[0]}")
    assert [r.duplicate for r in table] == [f"d{n}" for n in range(1, 8)]
    assert table[6].duplicate == "d7" and [r.duplicate for r in table[1:4]] == ["d2", "d3", "d4"]
    assert [v[at] for v in table.values()] == [f"d{n}" for n in range(1, 8)]
    assert [v[at] for v in table.values()[5:]] == ["d6", "d7"]
    table.append(_row(8))  # a row more: the held rows are made again, filled
    assert [r.duplicate for r in table][-2:] == ["d7", "d8"]


# --- the duplicate flags against the plain algorithm they replaced ------------------------------

def _name_key(name: str | None) -> str | None:
    if not name:
        return None
    s = unicodedata.normalize("NFKD", name).casefold()
    s = "".join(c for c in s if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w]+", " ", s).split()) or None


def _id_key(player_id: str | None) -> str | None:
    if not player_id:
        return None
    digits = re.sub(r"\D", "", player_id)
    return (digits.lstrip("0") or "0") if digits else _name_key(player_id)


def _plain_flags(rows: list[PlayerRow]) -> dict[int, str | None]:
    """The flags as `run.flag_duplicates` made them with every key in memory."""
    notes: dict[int, list[str]] = {}
    by = {r.number: r for r in rows}
    ids = {r.number: _id_key(r.player_id) for r in rows}

    def others(ns: list[int]) -> str:
        shown = ", ".join(f"#{m} {by[m].player}" if by[m].player else f"#{m}" for m in ns[:3])
        return shown + (f" and {len(ns) - 3} more" if len(ns) > 3 else "")

    def groups(keys: list[tuple[int, str | None]]) -> list[list[int]]:
        counts = Counter(k for _, k in keys)
        seen: dict[str, list[int]] = {}
        for n, k in keys:
            if k is not None and counts[k] > 1:
                seen.setdefault(k, []).append(n)
        return list(seen.values())

    id_group = {n: i for i, g in enumerate(groups(list(ids.items()))) for n in g}
    for g in groups(list(ids.items())):
        for n in g:
            notes.setdefault(n, []).append("same player id as " + others([m for m in g if m != n]))
    for g in groups([(r.number, _name_key(r.player)) for r in rows]):
        for n in g:
            os = [m for m in g if m != n and (ids[n] is None or ids[m] in (None, ids[n]))
                  and not (n in id_group and id_group.get(m) == id_group[n])]
            if os:
                notes.setdefault(n, []).append("same player name as " + others(os))
    for g in groups([(r.number, r.deck_hash) for r in rows]):
        for n in g:
            notes.setdefault(n, []).append("same deck as " + others([m for m in g if m != n]))
    return {r.number: "; ".join(notes[r.number]) if r.number in notes else None for r in rows}


@pytest.mark.parametrize("held", [7, 1024])  # through SQLite, and held in a dict
def test_duplicate_flags_are_those_of_the_plain_algorithm(
        held: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from deckcheck.event import duplicates

    monkeypatch.setattr(duplicates, "HELD", held)
    if held > 300:  # every key held: grouped without a database
        monkeypatch.setattr(sqlite3, "connect",
                            lambda *a: pytest.fail("a database for a few hundred rows"))
    rng = random.Random(24)
    names = ["Amy", "amy", "Ámy!", "Ben", "Cid", None, "Dee", "Zoë", "zoe", "\udcff x"]
    ids = [None, "0301", "301", "0302", "x-1", "X 1", "0303", "", "0"]
    rows = [_row(n, rng.choice(names), rng.choice(ids), rng.choice(["h1", "h2", None, *map(
        str, range(40))])) for n in range(1, 301)]
    dups = flag(rows)
    want = _plain_flags(rows)
    assert {r.number: dups.note(r.number) for r in rows} == want
    assert dups.flagged() == sum(v is not None for v in want.values())
    assert sum(v is not None and " more" in v for v in want.values()) > 10  # long groups seen


# --- a whole event, its rows on disk --------------------------------------------------------------

def _ydk(cards: list[tuple[int, int]]) -> str:
    return "#main\n" + "".join(f"{pc}\n" * n for pc, n in cards) + "#extra\n!side\n"


def _reports(event: EventReport, tmp: Path, jobs: int) -> dict[str, bytes]:
    tmp.mkdir()
    write_csv(event, tmp / "r.csv")
    write_xlsx(event, tmp / "r.xlsx", jobs=jobs)
    out = io.StringIO()
    write_to(event, out)
    files = {p.name: p.read_bytes() for p in tmp.iterdir() if p.suffix == ".csv"}
    import zipfile

    with zipfile.ZipFile(tmp / "r.xlsx") as zf:  # the zip's dates differ: the parts
        files.update({n: zf.read(n) for n in zf.namelist()})
    return {**files, "json": out.getvalue().encode(), "dumps": dumps(event).encode(),
            "summary": format_summary(event).encode()}


def test_an_event_read_back_from_disk_writes_the_same_reports(
        tmp_path: Path, kit: SimpleNamespace, pool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "regs"
    folder.mkdir()
    decks = [kit.LEGAL_MAIN, [*kit.LEGAL_MAIN, (kit.POT_OF_GREED, 1)],
             [(kit.POT_OF_GREED, 2), (kit.ASH, 3)]]
    for i in range(40):
        name = f"Player {i % 31:03d} {300000 + i % 29:010d}.ydk"  # shared names and ids
        (folder / f"{i:03d} {name}").write_text(_ydk(decks[i % 3]))
    (folder / "broken.ydk").write_text("not a deck at all\n")

    def run() -> EventReport:
        return check_event([folder], pool, date="2026-06-01", checker=kit.fake_check)

    held = run()
    assert held.players._file is None  # type: ignore[union-attr]
    # a table of problems holds `PROBLEMS_EACH` rows a registration: more than the players
    keep = -(-len(held.problems) // PROBLEMS_EACH)
    assert len(held.problems) > keep and len(held.players) > keep
    monkeypatch.setattr(spool, "KEEP", keep)
    fewer = run()
    assert fewer.players._file is not None  # type: ignore[union-attr]
    assert fewer.problems._file is None  # type: ignore[union-attr]
    monkeypatch.setattr(spool, "KEEP", 5)
    monkeypatch.setattr(spool, "BLOCK", 4)
    on_disk = run()
    players, problems = on_disk.players, on_disk.problems
    assert isinstance(players, RowSpool) and isinstance(problems, RowSpool)
    assert players._file is not None and not players._rows and len(players._tail) < 4
    assert problems._file is not None and not problems._rows and len(problems._tail) < 4
    assert held.duplicates == on_disk.duplicates > 10
    assert to_dict(held) == to_dict(on_disk)
    assert json.loads(dumps(on_disk)) == to_dict(on_disk)
    assert dumps(on_disk) == json.dumps(to_dict(on_disk), ensure_ascii=False, indent=2) + "\n"
    want = _reports(held, tmp_path / "a", 1)
    assert _reports(on_disk, tmp_path / "b", 1) == want
    # forked helpers render shares of the sheets, reading their rows from the file
    monkeypatch.setattr("deckcheck.event.xlsx_tables.MIN_ROWS_PER_JOB", 3)
    assert _reports(on_disk, tmp_path / "c", 3) == want


def test_the_problems_sheet_is_written_from_the_stored_values(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spooled Problems table goes to the workbook as stored (each row's values), never
    made into a `ProblemRow` again: the same workbook, without ~25,000 row objects made
    and dropped for an event of 4,000 (issue 24)."""
    from deckcheck.event.models import ProblemRow

    event = EventReport(format="tcg")
    problems = RowSpool(ProblemRow, keep=5, block=4)
    plain: list[ProblemRow] = []
    for n in range(1, 31):
        row = ProblemRow(number=n, player=f"P{n}", player_id=str(n), code="DC201",
                         name="too-many", severity="error", card=f"Card {n % 7}",
                         section="main", count=4, limit=3, location=f"p{n}.ydk:{n}",
                         message=f"Card {n % 7} is in the deck 4 times; 3 at most.")
        problems.append(row)
        plain.append(row)
    event.problems, event.players = problems, [_row(n) for n in range(1, 31)]
    made: list[object] = []
    real_make = problems._make
    monkeypatch.setattr(problems, "_make", lambda v: made.append(v) or real_make(v))
    on_disk = tmp_path / "disk.xlsx"
    write_xlsx(event, on_disk, jobs=1)
    assert made == []
    monkeypatch.undo()
    held = tmp_path / "held.xlsx"
    event.problems = plain
    write_xlsx(event, held, jobs=1)
    assert _parts(on_disk) == _parts(held)


def _parts(path: Path) -> dict[str, bytes]:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


@pytest.mark.parametrize("keep", [5, 100])
def test_the_players_sheet_and_summary_are_made_from_the_values(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep: int) -> None:
    """A spooled Players table (held, and on disk) goes to the workbook and the summary as its
    values completed with the duplicate flags, never made into `PlayerRow`s: the same
    workbook and summary as the same rows in a list."""
    from dataclasses import replace

    from deckcheck.event.run import finish

    verdicts = ("legal", "illegal", "unreadable", "unchecked")
    rows = [PlayerRow(number=n, player=f"P{n % 9}", player_id=str(n % 11), source=f"p{n}.ydk",
                      verdict=verdicts[n % 4], problem_count=n % 5,  # type: ignore[arg-type]
                      problems="DC201: too many" if n % 4 == 1 else "", deck_hash=f"h{n % 6}",
                      error="No deck." if n % 4 == 2 else None,
                      notes="Not checked." if n % 4 == 3 else None)
            for n in range(1, 31)]
    spooled = RowSpool(PlayerRow, keep=keep, block=4)
    for r in rows:
        spooled.append(r)
    as_list = finish(EventReport(format="tcg", players=[replace(r) for r in rows]))
    from_spool = finish(EventReport(format="tcg", players=spooled))
    made: list[object] = []
    real_make = spooled._make
    monkeypatch.setattr(spooled, "_make", lambda v: made.append(v) or real_make(v))
    write_xlsx(from_spool, tmp_path / "spool.xlsx", jobs=1)
    summary = format_summary(from_spool)
    assert made == []
    monkeypatch.undo()
    write_xlsx(as_list, tmp_path / "list.xlsx", jobs=1)
    assert _parts(tmp_path / "spool.xlsx") == _parts(tmp_path / "list.xlsx")
    assert summary == format_summary(as_list) and "Worst offenders" in summary
    assert as_list.duplicates == from_spool.duplicates > 5


def test_rows_read_before_fill_is_set_are_made_again_with_it() -> None:
    """The held rows and their values are each made once for the `fill` they were made with:
    rows read, then `fill` set, then the values read, then the rows again."""
    table = RowSpool(PlayerRow, keep=100)
    for n in range(1, 4):
        table.append(_row(n))
    assert [r.duplicate for r in table] == [None, None, None]
    at = table.names.index("duplicate")
    table.fill = lambda v: v.__setitem__(at, "d")
    assert [v[at] for v in table.values()] == ["d", "d", "d"]
    assert [r.duplicate for r in table] == ["d", "d", "d"]
    table.fill = lambda v: v.__setitem__(at, "e")
    assert [v[at] for v in table.values()] == ["e", "e", "e"]
    assert [r.duplicate for r in table] == ["e", "e", "e"]

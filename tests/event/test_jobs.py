"""`check_event(..., jobs=N)`: several processes give the same report as one."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import pytest

from deckcheck.decks.ydk import write_ydk
from deckcheck.event.report_json import to_dict
from deckcheck.event.run import MIN_FILES_PER_JOB, check_event


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_two_processes_give_the_same_report_as_one(kit: SimpleNamespace, pool: Any,
                                                   tmp_path: Any) -> None:
    legal = kit.make_deck(kit.LEGAL_MAIN, source="x.ydk")
    forbidden = kit.make_deck([*kit.LEGAL_MAIN[:-1], (kit.POT_OF_GREED, 1)], source="x.ydk")
    folder = tmp_path / "event"
    folder.mkdir()
    n = MIN_FILES_PER_JOB * 2 + 5  # enough files for the workers to start
    for i in range(n):
        deck = forbidden if i % 7 == 3 else legal
        (folder / f"Player {i:03d} {300000000 + i % 50:010d}.ydk").write_text(
            write_ydk(deck), encoding="utf-8")
    (folder / "broken.ydk").write_text("not a deck\n", encoding="utf-8")
    (folder / "README.md").write_text("Decks of the event\n", encoding="utf-8")  # skipped
    seen: list[tuple[int, int]] = []
    kw: dict[str, Any] = dict(format="tcg", date="2026-12-05")
    one = check_event([folder], pool, **kw)
    two = check_event([folder], pool, jobs=2, progress=lambda _s, d, t: seen.append((d, t)),
                      **kw)
    assert to_dict(two) == to_dict(one)
    assert (one.total, one.unreadable) == (n + 1, 1)
    assert one.illegal > 0 and one.duplicates > 0
    assert [x.source for x in two.skipped] == [str(folder / "README.md")]
    assert seen[-1] == (n + 1, n + 1)


@pytest.mark.parametrize("jobs", [1, 2])
def test_rows_rendered_while_checking_give_the_same_workbook(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, jobs: int) -> None:
    """`PreparedRows` (the workbook's rows rendered as the runs come back, duplicates
    rendered again at the end) writes the same parts as writing the finished report."""
    import zipfile

    from deckcheck.event.report_xlsx import PreparedRows, write_xlsx

    legal = kit.make_deck(kit.LEGAL_MAIN, source="x.ydk")
    forbidden = kit.make_deck([*kit.LEGAL_MAIN[:-1], (kit.POT_OF_GREED, 1)], source="x.ydk")
    folder = tmp_path / "event"
    folder.mkdir()
    n = MIN_FILES_PER_JOB * 2 + 5
    for i in range(n):  # duplicates (ids, decks) spread over the event, some illegal
        deck = forbidden if i % 7 == 3 else legal
        name = f"=Plåyer & <{i:03d}> {300000000 + i % 50:010d}.ydk"
        (folder / name).write_text(write_ydk(deck), encoding="utf-8")
    (folder / "broken.ydk").write_text("not a deck\n", encoding="utf-8")
    kw: dict[str, Any] = dict(format="tcg", date="2026-12-05")
    calls: list[int] = []
    plain, early = tmp_path / "plain.xlsx", tmp_path / "early.xlsx"
    with PreparedRows() as prepared:

        def on_rows(event: Any) -> None:
            calls.append(len(event.players))
            prepared.add(event)

        event = check_event([folder], pool, jobs=jobs, on_rows=on_rows, **kw)
        assert calls[-1] == n + 1 and event.duplicates > 0 and event.problems
        if jobs > 1:
            assert len(calls) > 1  # rendered run by run, as the workers send them
        write_xlsx(event, plain, jobs=1)
        write_xlsx(event, early, jobs=jobs, prepared=prepared)

    def parts(path: Any) -> dict[str, bytes]:
        with zipfile.ZipFile(path) as zf:
            return {name: zf.read(name) for name in zf.namelist()}

    assert parts(early) == parts(plain)


def test_prepared_rows_of_another_event_are_refused(kit: SimpleNamespace, pool: Any,
                                                   tmp_path: Any) -> None:
    from deckcheck.event.report_xlsx import PreparedRows, write_xlsx

    folder = tmp_path / "event"
    folder.mkdir()
    for i in range(3):
        (folder / f"p{i}.ydk").write_text(write_ydk(kit.make_deck(kit.LEGAL_MAIN)),
                                          encoding="utf-8")
    with PreparedRows() as prepared:
        check_event([folder], pool, format="tcg", date="2026-12-05", on_rows=prepared.add)
        other = check_event([folder / "p0.ydk"], pool, format="tcg", date="2026-12-05")
        with pytest.raises(ValueError):
            write_xlsx(other, tmp_path / "r.xlsx", prepared=prepared)
    assert not (tmp_path / "r.xlsx").exists()

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

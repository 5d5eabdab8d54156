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


_WORKER_IMPORTS = r"""
import sys
from pathlib import Path

import deckcheck.event.run as run
from deckcheck.cards.builtin import builtin_pool

plain = run.check_run


def check_run(entries, pool, checker, part):
    before = set(sys.modules)
    rows = plain(entries, pool, checker, part)
    part.notices += [f"imported {m}" for m in sorted(set(sys.modules) - before)]
    return rows


run.check_run = check_run
event = run.check_event([Path(sys.argv[1])], builtin_pool(), date="2026-12-05", jobs=2)
print(sorted(n for n in event.notices if n.startswith("imported")))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_forked_workers_import_nothing_the_parent_did_not(kit: SimpleNamespace,
                                                          tmp_path: Any) -> None:
    """Each worker imported the `.ydk` reader again (60–100 ms on a busy machine): the parent
    now reads the first file before forking, in a fresh process as a user runs it."""
    import subprocess
    import sys

    legal = kit.make_deck(kit.LEGAL_MAIN, source="x.ydk")
    folder = tmp_path / "event"
    folder.mkdir()
    for i in range(MIN_FILES_PER_JOB * 2 + 5):
        (folder / f"Player {i:03d}.ydk").write_text(write_ydk(legal), encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", _WORKER_IMPORTS, str(folder)], check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_the_files_of_each_run_are_counted_without_making_their_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent counts each run's files to report progress; with `Entries` it no longer
    makes a `Path` of every input to do so (4,000 of them for an event of 4,000)."""
    from deckcheck.event import inputs
    from deckcheck.event.inputs import Entries, Skipped
    from deckcheck.event.jobs import files_between

    items: list[str | Skipped] = [f"d/{i}.ydk" for i in range(10)]
    items[3] = items[7] = Skipped(source="d/README", reason="no deck")
    entries = Entries(items)
    made: list[object] = []
    real_path = inputs.Path
    monkeypatch.setattr(inputs, "Path", lambda text: made.append(text) or real_path(text))
    for a, b in [(0, 10), (0, 3), (3, 4), (2, 8), (8, 10), (5, 5), (9, 20)]:
        want = sum(not isinstance(x, Skipped) for x in items[a:b])
        assert files_between(entries, a, b) == want == entries.files_between(a, b)
    assert made == []
    assert files_between(list(entries), 2, 8) == 4  # a plain list: counted from its items


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_the_workers_end_on_their_own_once_every_run_is_in(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The idle workers are closed and joined (they exit 0), not stopped with a signal and
    waited for as leaving the pool's `with` does (~15-20 ms of every event)."""
    import multiprocessing.pool

    pools: list[Any] = []
    real_init = multiprocessing.pool.Pool.__init__

    def remember(self: Any, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        pools.append(self)

    monkeypatch.setattr(multiprocessing.pool.Pool, "__init__", remember)
    folder = tmp_path / "event"
    folder.mkdir()
    for i in range(MIN_FILES_PER_JOB * 2):
        (folder / f"Player {i:03d}.ydk").write_text(write_ydk(kit.make_deck(kit.LEGAL_MAIN)),
                                                    encoding="utf-8")
    check_event([folder], pool, date="2026-12-05", jobs=2)
    workers = [w for p in pools for w in p._pool]
    assert len(workers) == 2 and [w.exitcode for w in workers] == [0, 0]

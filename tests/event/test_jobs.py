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


def _runs_checked_here(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each run this process checks from now on (`run.check_run` counted in
    this process only, not in the workers it forks)."""
    from deckcheck.event import run

    parent, plain = os.getpid(), run.check_run
    here: list[int] = []

    def check_run(entries: Any, *args: Any) -> Any:
        if os.getpid() == parent:
            here.append(len(entries))
        return plain(entries, *args)

    monkeypatch.setattr(run, "check_run", check_run)
    return here


def _counted_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the processes this process forks from now on (`os.fork` counted)."""
    forked: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted)
    return forked


def _folder(kit: SimpleNamespace, tmp_path: Any, n: int = MIN_FILES_PER_JOB * 2) -> Any:
    folder = tmp_path / "event"
    folder.mkdir()
    for i in range(n):
        (folder / f"Player {i:03d}.ydk").write_text(write_ydk(kit.make_deck(kit.LEGAL_MAIN)),
                                                    encoding="utf-8")
    return folder


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_the_workers_end_on_their_own_once_every_run_is_in(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers exit 0 once their pipe of runs is closed, none stopped with a signal; no
    `multiprocessing` pool (its import, threads and queues) is started."""
    import sys

    ended: list[int] = []
    wait = os.waitpid

    def waited(pid: int, options: int) -> tuple[int, int]:
        got = wait(pid, options)
        ended.append(got[1])
        return got

    monkeypatch.setattr(os, "waitpid", waited)
    monkeypatch.setattr(os, "kill", lambda *a: pytest.fail(f"a worker was killed: {a}"))
    monkeypatch.delitem(sys.modules, "multiprocessing.pool", raising=False)
    check_event([_folder(kit, tmp_path)], pool, date="2026-12-05", jobs=3)
    assert ended == [0, 0]  # two workers, and this process
    assert "multiprocessing.pool" not in sys.modules


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_jobs_counts_this_process_which_checks_runs_too(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """`jobs=2` is this process and one forked worker, both checking runs (the parent sat
    idle while two workers checked: a third process on two cores, and every row pickled
    twice); the report is the one process's."""
    from deckcheck.event import jobs, run

    forked = _counted_forks(monkeypatch)
    plain = run.check_run
    here = _runs_checked_here(monkeypatch)
    folder = _folder(kit, tmp_path, MIN_FILES_PER_JOB * 4)
    kw: dict[str, Any] = dict(date="2026-12-05")
    two = check_event([folder], pool, jobs=2, **kw)
    assert len(forked) == 1
    runs = jobs.runs_of(list(folder.iterdir()), 2, run.BATCH)
    # the warm-up's one file, then some runs: not all of them
    assert here[0] == 1 and 1 < len(here) < len(runs) + 1
    monkeypatch.setattr(run, "check_run", plain)
    assert to_dict(two) == to_dict(check_event([folder], pool, **kw))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_the_last_run_handed_to_a_worker_is_not_checked_here_too(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a worker holds the run the parent waits for, the other worker's results can
    hand out the last run: the parent then has none left to check itself (it took one past
    the end: IndexError, seen once in CI). Here the parent's runs are slow and one worker
    holds the first run, so the other's results hand out runs between the parent's own;
    over event sizes of 9 to 13 runs, in some the last one goes to that worker."""
    import time

    from deckcheck.event import run

    parent, plain = os.getpid(), run.check_run
    folder = _folder(kit, tmp_path, 130)
    first = min(p.name for p in folder.iterdir())

    def paced(entries: Any, *args: Any) -> Any:
        if os.getpid() == parent:
            time.sleep(0.03 if len(entries) > 1 else 0)  # not the warm-up's one file
        elif entries and entries[0].name == first:
            time.sleep(0.6)  # the run the parent needs first, held in a worker
        return plain(entries, *args)

    kw: dict[str, Any] = dict(date="2026-12-05")
    for n in range(130, 195, 16):  # 9 to 13 runs
        for i in range(n - len(list(folder.iterdir()))):
            (folder / f"Player {n:03d}{i:03d}.ydk").write_text(
                (folder / first).read_text(encoding="utf-8"), encoding="utf-8")
        monkeypatch.setattr(run, "check_run", paced)
        three = check_event([folder], pool, jobs=3, **kw)
        monkeypatch.setattr(run, "check_run", plain)
        assert to_dict(three) == to_dict(check_event([folder], pool, **kw)), n


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_more_jobs_than_the_runs_need_fork_only_the_workers_given_runs(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """On many cores an event of a few hundred files has fewer runs than the workers could
    take ahead: a worker given no run ended at once and its pipe's end was taken for a worker
    killed (the event stopped with "stopped before it was done"). Fewer workers than runs are
    forked, and the first runs go to each worker in turn: every one forked has a run, as many
    work as there are runs (up to `jobs - 1`), not a worker per `_AHEAD` runs, and this
    process keeps runs of its own (it had handed them all out and only waited)."""
    from deckcheck.event import jobs, run

    folder = _folder(kit, tmp_path, 130)
    forked = _counted_forks(monkeypatch)
    plain = run.check_run
    here = _runs_checked_here(monkeypatch)
    kw: dict[str, Any] = dict(date="2026-12-05")
    eight = check_event([folder], pool, jobs=8, **kw)
    runs = jobs.runs_of(list(folder.iterdir()), 8, run.BATCH)
    assert len(forked) == min(7, len(runs) - 1) > -(-len(runs) // jobs._AHEAD)
    assert len(here) > 1  # the warm-up's one file, and a run at least
    monkeypatch.setattr(run, "check_run", plain)
    assert to_dict(eight) == to_dict(check_event([folder], pool, **kw))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_a_worker_that_dies_stops_the_event_with_a_sentence(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed (or out of memory) is an error the user reads, not an event left
    waiting for its rows forever (as a `multiprocessing` pool does); the others are stopped."""
    from deckcheck.errors import DeckcheckError
    from deckcheck.event import run

    parent, plain = os.getpid(), run.check_run

    def dies(*args: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), 9)
        return plain(*args)

    monkeypatch.setattr(run, "check_run", dies)
    with pytest.raises(DeckcheckError, match="stopped before it was done"):
        check_event([_folder(kit, tmp_path)], pool, date="2026-12-05", jobs=2)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked here")
def test_an_error_in_a_worker_is_raised_in_the_parent(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.event import run

    parent, plain = os.getpid(), run.check_run

    def fails(*args: Any) -> Any:
        if os.getpid() != parent:
            raise MemoryError("no room")
        return plain(*args)

    monkeypatch.setattr(run, "check_run", fails)
    with pytest.raises(MemoryError, match="no room"):
        check_event([_folder(kit, tmp_path)], pool, date="2026-12-05", jobs=2)


def test_spawned_workers_check_on_the_built_in_pool(
        kit: SimpleNamespace, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where workers cannot be forked (Windows) they are spawned: the built-in pool, whose
    files are mapped, is opened by each worker, not pickled (which failed)."""
    from deckcheck.cards.builtin import builtin_pool

    folder = _folder(kit, tmp_path)
    pool = builtin_pool()
    one = check_event([folder], pool, date="2026-12-05")
    monkeypatch.delattr(os, "fork", raising=False)
    two = check_event([folder], pool, date="2026-12-05", jobs=2)
    assert to_dict(two) == to_dict(one) and one.total == MIN_FILES_PER_JOB * 2


class _NotingChecker:
    """A checker whose reports carry a notice of its own (every deck's, as a `Checker`'s
    list notices are) and, for some decks, a notice or an open point of their own."""

    notices = ["Using the test card set."]

    def __init__(self, kit: SimpleNamespace) -> None:
        self.kit = kit

    def check(self, deck: Any) -> Any:
        report = self.kit.fake_check(deck)
        report.notices = list(self.notices)
        number = int(deck.source.rsplit(" ", 1)[-1].removesuffix(".ydk"))
        if number % 10 == 1:
            report.notices.append(f"{number % 7 + 1} cards have no known TCG release date; "
                                  "not checked.")
        if number % 50 == 2:
            report.verdict = "unchecked"
            report.open_points = ["The card data ends on 2026-05-30: Ash's status is not known."]
        return report


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_decks_own_notes_go_to_its_row_and_the_lists_to_the_event(
        kit: SimpleNamespace, pool: Any, tmp_path: Any, jobs: int) -> None:
    """A notice about one deck (cards with no known release date) is that registration's
    note, as are the points its check could not settle; the event's notices are the list's
    once, and how many registrations have notes: 4,000 registrations printed ten lines
    "7 cards have no known…", "1 card…", one per count, and no row said whose they were."""
    from deckcheck.event.summary import format_summary

    folder = _folder(kit, tmp_path)
    event = check_event([folder], pool, date="2026-12-05", jobs=jobs,
                        checker=_NotingChecker(kit).check)
    rows = list(event.players)
    noted = {r.number: r.notes for r in rows if r.notes}
    want = {n + 1: f"{n % 7 + 1} cards have no known TCG release date; not checked."
            for n in range(len(rows)) if n % 10 == 1}
    for n in range(2, len(rows), 50):
        want[n + 1] = "The card data ends on 2026-05-30: Ash's status is not known."
    assert noted == want and len(want) == 16
    assert event.notices == [
        "Using the test card set.",
        f"{len(want)} registrations have notes on what could not be checked in the deck "
        "(see the Notes column)."]
    assert event.unchecked == 3 and event.exit_code == 2
    summary = format_summary(event)
    assert "0 could not be read, 3 could not be fully checked" in summary
    # the first five with notes of their own, by number (the list's notice is no row's)
    shown = summary.split("With notes on what could not be checked:\n", 1)[1].splitlines()
    assert shown == [f"  #{n} Player {n - 1:03d}: {want[n]}" for n in sorted(want)[:5]] + [
        "  … and 11 more (see the Notes column)"]

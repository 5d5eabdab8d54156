"""An event checked in several processes: `check_event(..., jobs=N)`.

The files are cut into runs of consecutive files (at most `Work.most` each); each worker
process reads and checks a run exactly as one process would (`Work.check_run`, given by
`event.run`, which this module does not import) and sends back its rows as plain tuples
(`run.RowData`), never model objects. The parent adds them in file
order, numbering the rows as one process would, so the report is the same whatever `jobs`
is; duplicates are flagged on the whole event afterwards (`run.finish`).

Workers are forked where the platform can: they start with the format, list, checker and the
cards already looked up in memory, and are sent only the bounds of their runs (a card store
opens its own connection in each worker, since an SQLite connection must not cross a fork).
Elsewhere they are spawned and prepare their own checker.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from deckcheck.event.inputs import Entries
from deckcheck.event.models import EventReport, SkippedRow

if TYPE_CHECKING:
    from deckcheck.event.inputs import Progress, Skipped
    from deckcheck.event.run import CachingPool, CheckFn, RowData

#: Each worker's share is cut into about this many runs, so a worker whose files are slower
#: (workbooks, big CSV exports) does not hold the others up, and the last runs end close
#: together (4,000 files on 2 cores: runs of 63, about 50 ms each).
RUNS_PER_JOB = 32
#: No run is shorter than this many inputs (each run is one message each way).
MIN_RUN = 16

#: What a forked worker inherits (set in the parent just before the fork), or what a spawned
#: worker prepares: the inputs, the card pool and the checker.
_state: dict[str, Any] = {}

#: A run's result: its rows, the inputs it skipped (source, reason), and the list's facts it
#: saw (list name, date, notices).
RunResult = tuple[list["RowData"], list[tuple[str, str]],
                  tuple["str | None", "str | None", list[str]]]


class Work(NamedTuple):
    """What the workers do, given by the caller (`event.run`): module-level functions, so a
    spawned worker is sent them by name."""

    #: (entries, pool, checker, part) -> the rows of those entries; what was skipped and the
    #: list's facts go to `part`.
    check_run: Callable[[Sequence[Path | Skipped], Any, CheckFn, EventReport], list[RowData]]
    #: Adds one row (as a worker sent it) to the parent's report.
    add_row: Callable[[EventReport, RowData], object]
    #: (pool, format, date, options) -> the pool and checker a spawned worker prepares.
    prepare: Callable[[Any, str, str, dict[str, Any]], tuple[CachingPool, CheckFn]]
    #: The most inputs in one run.
    most: int


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def runs_of(entries: Sequence[Path | Skipped], jobs: int, most: int) -> list[tuple[int, int]]:
    """(start, stop) of each run of consecutive inputs (at most `most` each)."""
    n = len(entries)
    size = min(most, max(MIN_RUN, -(-n // (jobs * RUNS_PER_JOB))))
    # the last runs are shorter, so that the workers finish close together
    tail = max(0, (n - 2 * jobs * size) // size * size)
    last = max(MIN_RUN, size // 4)
    return [(i, min(i + size, tail)) for i in range(0, tail, size)] + \
        [(i, min(i + last, n)) for i in range(tail, n, last)]


def check_files(event: EventReport, entries: Sequence[Path | Skipped], pool: CachingPool,
                checker: CheckFn, *, jobs: int, work: Work, progress: Progress | None = None,
                options: dict[str, Any] | None = None) -> None:
    """Read and check `entries` in `jobs` processes, adding their rows to `event` in order
    (not finished: `run.finish` flags duplicates). `options` (banlist, points_cap, strict)
    prepare a worker's own checker where workers cannot be forked (`work.prepare`)."""
    runs = runs_of(entries, jobs, work.most)
    files_in = [files_between(entries, a, b) for a, b in runs]
    left = sum(files_in)
    store = None if pool.info.builtin else getattr(pool, "path", None)
    forked = "fork" in multiprocessing.get_all_start_methods()
    if forked:
        pool.before_fork()  # what every worker would read for itself, read once
        _warm_up(entries, pool, checker, event.format, work)
        # inherited, not pickled: the inputs, the prepared checker, the cards looked up
        ctx: multiprocessing.context.BaseContext = multiprocessing.get_context("fork")
        _state.update(entries=entries, pool=pool, checker=checker, format=event.format,
                      work=work)
        initializer: Any = _init_forked
        initargs: tuple[Any, ...] = ()
    else:  # pragma: no cover - Windows, macOS: the worker prepares its own checker
        ctx = multiprocessing.get_context("spawn")
        initializer = _init_spawned
        initargs = (list(entries), store, None if store else pool, event.format,
                    event.date, options or {}, work)
    try:
        with ctx.Pool(jobs, initializer=initializer, initargs=initargs) as workers:
            for k, (rows, skipped, facts) in enumerate(workers.imap(_check_run, runs)):
                event.skipped += [SkippedRow(source=s, reason=r) for s, r in skipped]
                for data in rows:
                    work.add_row(event, data)
                _add_facts(event, facts)
                left -= files_in[k]
                if progress is not None:
                    progress("check", len(event.players), len(event.players) + left)
            # every run is in: the idle workers end as they would after their last task
            # (leaving the `with` would stop them with a signal and wait for it)
            workers.close()
            workers.join()
    finally:
        _state.clear()


def files_between(entries: Sequence[Path | Skipped], start: int, stop: int) -> int:
    """How many of `entries[start:stop]` are files to read (`Entries` counts them without
    making each `Path`)."""
    if isinstance(entries, Entries):
        return entries.files_between(start, stop)
    return sum(isinstance(e, Path) for e in entries[start:stop])


def _warm_up(entries: Sequence[Path | Skipped], pool: CachingPool, checker: CheckFn,
             format: str, work: Work) -> None:
    """Read and check the first file here, before the workers are forked, and drop its row:
    the readers it imports (a `.ydk` reader is imported on first use) and the cards it looks
    up are then inherited by every worker instead of being paid again in each."""
    first = next((i for i, e in enumerate(entries) if isinstance(e, Path)), None)
    if first is not None:
        work.check_run(entries[first:first + 1], pool, checker, EventReport(format=format))


def _add_facts(event: EventReport, facts: tuple[str | None, str | None, list[str]]) -> None:
    banlist, date, notices = facts
    if event.banlist is None and banlist:
        event.banlist = banlist
    if event.date is None and date:
        event.date = date
    for notice in notices:
        if notice not in event.notices:
            event.notices.append(notice)


def _init_forked() -> None:
    pool = _state["pool"]
    pool.reopen()  # its own connection; the cards already in memory stay
    owner = getattr(_state["checker"], "__self__", None)
    if owner is not None and hasattr(owner, "pool") and owner.pool is not pool \
            and not pool.info.builtin:
        owner.pool = pool  # a checker on the parent's store: look-ups on this connection


def _init_spawned(entries: list[Path | Skipped], store: str | os.PathLike[str] | None,
                  pool: Any, format: str, date: str, options: dict[str, Any], work: Work
                  ) -> None:  # pragma: no cover - platforms without fork
    if store is not None:
        from deckcheck.cards.store import StorePool

        pool = StorePool(store)
    cached, checker = work.prepare(pool, format, date, options)
    _state.update(entries=entries, pool=cached, format=format, checker=checker, work=work)


def _check_run(run: tuple[int, int]) -> RunResult:
    """Read and check one run of inputs in this worker; its rows as plain data."""
    part = EventReport(format=_state["format"])  # gathers what was skipped, and the facts
    start, stop = run
    rows = _state["work"].check_run(_state["entries"][start:stop], _state["pool"],
                                    _state["checker"], part)
    return (rows, [(s.source, s.reason) for s in part.skipped],
            (part.banlist, part.date, part.notices))

"""An event checked in several processes: `check_event(..., jobs=N)`.

The files are cut into runs of consecutive files; each worker process reads and checks its
runs exactly as one process would (`add_registration`), and sends back the rows of a partial
`EventReport`. The parent joins the parts in file order, numbering the rows as one process
would, so the report is the same whatever `jobs` is; duplicates are flagged on the whole
event afterwards (`run.finish`).

Workers are forked where the platform can (they start with the format, list and card pool
already loaded; a card store opens its own connection in each worker, since an SQLite
connection must not cross a fork); elsewhere they are spawned and open the store again.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.event.models import EventReport

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool
    from deckcheck.event.run import CheckFn
    from deckcheck.event.sources import Progress, Skipped

#: Each worker's share is cut into about this many runs, so a worker whose files are slower
#: (workbooks, big CSV exports) does not hold the others up.
RUNS_PER_JOB = 8

_state: dict[str, Any] = {}


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_files(files: list[Path | Skipped], pool: CardPool, checker: CheckFn, *, format: str,
                date: dt.date, jobs: int, progress: Progress | None = None,
                options: dict[str, Any] | None = None) -> EventReport:
    """The event report of `files` (not finished: `run.finish` flags duplicates); a
    `Skipped` among them is listed in the report's `skipped`, in its place.
    `options` (banlist, points_cap, strict) prepare a worker's own checker where workers
    cannot be forked."""
    size = max(1, -(-len(files) // (jobs * RUNS_PER_JOB)))
    runs = [files[i:i + size] for i in range(0, len(files), size)]
    store = None if pool.info.builtin else getattr(pool, "path", None)
    if "fork" in multiprocessing.get_all_start_methods():
        # inherited, not pickled: the prepared checker, and a pool held in memory
        ctx: multiprocessing.context.BaseContext = multiprocessing.get_context("fork")
        initargs: tuple[Any, ...] = (store, None if store else pool, checker, format, date, {})
    else:  # pragma: no cover - Windows, macOS: the worker prepares its own checker
        ctx = multiprocessing.get_context("spawn")
        initargs = (store, None if store else pool, None, format, date, options or {})
    event = EventReport(format=format, date=date.isoformat())
    done = 0
    with ctx.Pool(jobs, initializer=_init, initargs=initargs) as workers:
        for part in workers.imap(_check_run, runs):
            _join(event, part)
            done += 1
            if progress is not None:
                progress("check", len(event.players),
                         len(event.players) + sum(len(r) for r in runs[done:]))
    return event


def _init(store: str | os.PathLike[str] | None, pool: CardPool | None,
          checker: CheckFn | None, format: str, date: dt.date, options: dict[str, Any]) -> None:
    from deckcheck.event.run import CachingPool, make_checker

    if store is not None:
        from deckcheck.cards.store import StorePool

        pool = StorePool(store)  # its own connection: the parent's must not cross a fork
    assert pool is not None
    cached = CachingPool(pool)
    if checker is None:
        checker = make_checker(cached, format=format, date=date, **options)
    else:
        owner = getattr(checker, "__self__", None)
        if store is not None and owner is not None and hasattr(owner, "pool"):
            owner.pool = cached  # the inherited `Checker.check`: look-ups on this connection
    _state.update(pool=cached, checker=checker, format=format, date=date)


def _check_run(files: list[Path | Skipped]) -> EventReport:
    from deckcheck.event.run import _new_event, add_registration, read_entry

    pool, checker = _state["pool"], _state["checker"]
    part = _new_event(_state["format"], _state["date"])
    for entry in files:
        for reg in read_entry(entry, pool, part):
            add_registration(part, reg, checker, pool)
    return part


def _join(event: EventReport, part: EventReport) -> None:
    """Append a worker's rows, numbered after those already in `event`."""
    offset = len(event.players)
    for row in part.players:
        row.number += offset
        event.players.append(row)
    for problem in part.problems:
        problem.number += offset
        event.problems.append(problem)
    if event.banlist is None:
        event.banlist = part.banlist
    event.skipped.extend(part.skipped)
    for notice in part.notices:
        if notice not in event.notices:
            event.notices.append(notice)

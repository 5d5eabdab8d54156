"""An event checked in several processes: `check_event(..., jobs=N)`.

The files are cut into runs of consecutive files (at most `Work.most` each); each worker
process reads and checks a run exactly as one process would (`Work.check_run`, given by
`event.run`, which this module does not import) and sends back its rows as plain tuples
(`run.RowData`), never model objects. The parent adds them in file
order, numbering the rows as one process would, so the report is the same whatever `jobs`
is; duplicates are flagged on the whole event afterwards (`run.finish`).

Workers are forked where the platform can: they start with the format, list, checker and the
cards already looked up in memory, and are sent only the number of each run (a card store
opens its own connection in each worker, since an SQLite connection must not cross a fork).
`jobs` processes check in all: the parent and `jobs - 1` forked workers. The parent hands out
the runs through a pipe to each worker, reads the results from another, and checks the next
run itself whenever no result is waiting, in its one thread (`_Forked`): no `multiprocessing`
pool, whose import, threads and queues cost the parent more than the rows it receives, and
no process idle while the others check. Elsewhere `jobs` workers are spawned by
`multiprocessing` and prepare their own checker.
"""

from __future__ import annotations

import os
import pickle
import selectors
import struct
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from deckcheck.errors import DeckcheckError
from deckcheck.event.children import read_pipe, reap
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
    results: Generator[RunResult, None, None] | None = None
    try:
        if hasattr(os, "fork"):
            pool.before_fork()  # what every worker would read for itself, read once
            _warm_up(entries, pool, checker, event.format, work)
            # inherited, not pickled: the inputs, the prepared checker, the cards looked up
            _state.update(entries=entries, pool=pool, checker=checker, format=event.format,
                          work=work, runs=runs)
            results = _Forked(jobs - 1, runs).results()
        else:  # pragma: no cover - Windows: the worker prepares its own checker
            results = _spawned(entries, pool, event, jobs, runs, work, options or {})
        for k, (rows, skipped, facts) in enumerate(results):
            event.skipped += [SkippedRow(source=s, reason=r) for s, r in skipped]
            for data in rows:
                work.add_row(event, data)
            _add_facts(event, facts)
            left -= files_in[k]
            if progress is not None:
                progress("check", len(event.players), len(event.players) + left)
    finally:
        if results is not None:
            results.close()  # the workers stopped and waited for, if the event failed
        _state.clear()


def _spawned(entries: Sequence[Path | Skipped], pool: CachingPool, event: EventReport,
             jobs: int, runs: list[tuple[int, int]], work: Work, options: dict[str, Any]
             ) -> Generator[RunResult, None, None]:  # pragma: no cover - without fork
    """The runs' results, in order, from `jobs` spawned processes (`multiprocessing`)."""
    import multiprocessing

    store = None if pool.info.builtin else getattr(pool, "path", None)
    # a store is opened again by its path, the built-in pool by each worker (its files are
    # mapped: not sent); any other pool is sent pickled
    sent = None if store or pool.info.builtin else pool
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(jobs, initializer=_init_spawned,
                  initargs=(list(entries), store, sent, event.format, event.date, options,
                            work)) as workers:
        yield from workers.imap(_check_run, runs)
        workers.close()
        workers.join()


#: A message's length, before its pickled bytes (a worker's result).
_LENGTH = struct.Struct("<Q")
#: A run's number, as the parent sends it to a worker.
_RUN = struct.Struct("<I")
#: Runs a worker is given ahead, so that it never waits for the parent between two: the
#: parent tops it up only between its own runs (with 2, a worker checking faster than the
#: parent went idle in a test with runs of 10 and 20 ms: 0.307 against 0.257 s with 4).
_AHEAD = 4


class _Forked:
    """`jobs` forked workers checking `runs`, with this process: each worker is sent the
    numbers of its next runs through a pipe of its own, `_AHEAD` at a time (one more as each
    result comes back, so a worker whose runs are slower does fewer), and sends back each
    run's `RunResult` pickled through another; this process checks the next run not handed
    out (`_check_run`) whenever no result is waiting. A worker that
    fails sends its error instead; one that dies (killed) stops the event with a sentence,
    never leaves it waiting."""

    def __init__(self, jobs: int, runs: list[tuple[int, int]]) -> None:
        self.runs = runs
        self.next = 0  # the next run to hand out
        self.pids: list[int] = []
        self.sent: list[int | None] = []  # per worker: the pipe its runs go to, until closed
        self.back: list[int] = []  # per worker: the pipe its results come from
        self.given: list[list[int]] = []  # per worker: its runs not back yet, in order
        # none left without a run, and one at least left for this process (`results`)
        for _ in range(min(jobs, len(runs) - 1)):
            task_r, task_w = os.pipe()
            result_r, result_w = os.pipe()
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the worker (measured by the parent's tests)
                for fd in [task_w, result_r, *self.back, *self.sent]:
                    if fd is not None:
                        os.close(fd)  # its own ends only
                _worker(task_r, result_w)
            os.close(task_r)
            os.close(result_w)
            self.pids.append(pid)
            self.sent.append(task_w)
            self.back.append(result_r)
            self.given.append([])

    def _give(self, w: int) -> None:
        """Send worker `w` its next run, or close its pipe when none is left (it ends once it
        has sent back what it was given)."""
        sent = self.sent[w]
        if sent is None:
            return
        if self.next < len(self.runs):
            try:
                os.write(sent, _RUN.pack(self.next))
            except BrokenPipeError:  # the worker is gone
                raise _stopped() from None
            self.given[w].append(self.next)
            self.next += 1
        else:
            os.close(sent)
            self.sent[w] = None

    def results(self) -> Generator[RunResult, None, None]:
        """Each run's result, in the order of the runs."""
        done: dict[int, RunResult] = {}
        ok = False
        try:
            with selectors.DefaultSelector() as sel:
                # a run to each worker in turn: each gets one, and this process keeps a
                # share of a short event's runs (it would only wait)
                ahead = max(1, min(_AHEAD, len(self.runs) // (len(self.back) + 1)))
                for _ in range(ahead):
                    for w in range(len(self.back)):
                        self._give(w)
                for w, fd in enumerate(self.back):
                    sel.register(fd, selectors.EVENT_READ, w)
                for k in range(len(self.runs)):
                    while k not in done:
                        # with a run left to check here, only the results already waiting
                        for key, _ in sel.select(0 if self.next < len(self.runs) else None):
                            w = key.data
                            done[self.given[w].pop(0)] = self._receive(w)
                            self._give(w)  # (may hand out the last run)
                            if not self.given[w]:  # it ends now: its pipe's end is no news
                                sel.unregister(key.fd)
                        if k not in done and self.next < len(self.runs):
                            self.next += 1
                            done[self.next - 1] = _check_run(self.runs[self.next - 1])
                    yield done.pop(k)
            ok = True
        finally:
            self.close(ok)

    def _receive(self, w: int) -> RunResult:
        """The next result worker `w` sends (its error raised here)."""
        fd = self.back[w]
        head = read_pipe(fd, _LENGTH.size)
        if len(head) < _LENGTH.size:
            raise _stopped()
        status, value = pickle.loads(read_pipe(fd, _LENGTH.unpack(head)[0]))
        if status != "ok":
            raise value  # the worker's exception, as one process would have raised it
        result: RunResult = value
        return result

    def close(self, ok: bool) -> None:
        """Wait for every worker (stopped first when the event failed) and close the pipes."""
        for w, pid in enumerate(self.pids):
            sent = self.sent[w]
            if sent is not None:
                os.close(sent)
            reap(pid, stop=not ok)
            os.close(self.back[w])
        self.pids, self.sent, self.back = [], [], []


def _stopped() -> DeckcheckError:
    return DeckcheckError("A worker process checking the event stopped before it was done "
                          "(killed, or out of memory?); run the check again, or with --jobs 1 "
                          "to check in one process.")


def _worker(runs: int, results: int) -> None:  # pragma: no cover - in the worker
    """A forked worker: check each run whose number comes through `runs`, and send back its
    result (or the error it raised) through `results`, until `runs` is closed."""
    code = 1
    try:
        _init_forked()
        out = os.fdopen(results, "wb", buffering=1 << 16)
        while len(got := os.read(runs, _RUN.size)) == _RUN.size:
            k = _RUN.unpack(got)[0]
            try:
                message = pickle.dumps(("ok", _check_run(_state["runs"][k])),
                                       pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - sent to the parent, raised there
                try:
                    message = pickle.dumps(("error", exc), pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - an exception that does not pickle
                    message = pickle.dumps(("error", RuntimeError(repr(exc))))
            out.write(_LENGTH.pack(len(message)))
            out.write(message)
            out.flush()
        code = 0
    finally:
        os._exit(code)


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
    elif pool is None:
        from deckcheck.cards.builtin import builtin_pool

        pool = builtin_pool()
    cached, checker = work.prepare(pool, format, date, options)
    _state.update(entries=entries, pool=cached, format=format, checker=checker, work=work)


def _check_run(run: tuple[int, int]) -> RunResult:
    """Read and check one run of inputs in this process (a worker, or the parent between
    results); its rows as plain data."""
    part = EventReport(format=_state["format"])  # gathers what was skipped, and the facts
    start, stop = run
    rows = _state["work"].check_run(_state["entries"][start:stop], _state["pool"],
                                    _state["checker"], part)
    return (rows, [(s.source, s.reason) for s in part.skipped],
            (part.banlist, part.date, part.notices))

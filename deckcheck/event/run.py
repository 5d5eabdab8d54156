"""Checking a whole event: every registration with the same format, list and date.

    report = check_event(["decks/", "registrations.csv"], pool, format="tcg",
                         date=dt.date(2026, 12, 5))
    report.exit_code  # 0 all legal, 1 any illegal, 2 any list that could not be read

The format and its list are loaded once, card look-ups are cached for the run, and a
`checker` (deck -> Report) can be passed in to check with anything else (tests do).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import fields
from functools import partial
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.cards.model import Card
from deckcheck.cards.pool import CardPool
from deckcheck.decks.deckhash import deck_hash
from deckcheck.decks.model import Deck
from deckcheck.errors import DeckcheckError
from deckcheck.event.duplicates import Duplicates, flag
from deckcheck.event.inputs import Entries, Progress, Skipped, expand_items, no_deck_files
from deckcheck.event.models import EventReport, PlayerRow, ProblemRow, Registration, SkippedRow
from deckcheck.event.registrations import no_registrations, read_items
from deckcheck.event.spool import RowSpool
from deckcheck.gc_pause import gc_paused
from deckcheck.reports.model import Checked, Outcome, Report, Violation

if TYPE_CHECKING:
    from deckcheck.formats.model import Banlist

#: deck -> Report: how each registration's deck is checked (a `Checker.check`, or a test's).
CheckFn = Callable[[Deck], Report]

#: With `jobs` > 1, an event of fewer than twice this many files is checked in this process
#: (starting workers would cost more than they save).
MIN_FILES_PER_JOB = 64

#: Registrations read ahead and checked as one batch: the cards of the batch are looked up
#: in one query, and no more than this many decks are held at once.
BATCH = 256

#: About how many problem rows a registration makes, as its spool holds them (`RowSpool`).
PROBLEMS_EACH = 4

#: Violations of these severities are the event's "problems" (info notes are not).
PROBLEM_SEVERITIES = ("error", "warning")


class CachingPool:
    """A card pool whose look-ups are remembered for one run (a store is asked once per card).

    `preload` fetches a whole batch of passcodes in one query and keeps the cards here, so
    a worker forked from this process answers them from memory (`reopen`)."""

    def __init__(self, pool: CardPool) -> None:
        self._pool = pool
        self.info = pool.info
        self._get: dict[int, Card | None] = {}
        self._names: dict[str, list[Card]] = {}
        self._suggest: dict[tuple[str, int], list[str]] = {}
        #: passcode as written -> the pool's passcode (alternate artworks folded), for hashing
        self.canonical: dict[int, int] = {}

    def get(self, passcode: int) -> Card | None:
        try:
            return self._get[passcode]
        except KeyError:
            card = self._get[passcode] = self._pool.get(passcode)
            return card

    def find_name(self, name: str) -> list[Card]:
        try:
            return list(self._names[name])
        except KeyError:
            cards = self._names[name] = list(self._pool.find_name(name))
            return list(cards)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        key = (name, limit)
        if key not in self._suggest:
            self._suggest[key] = list(self._pool.suggest(name, limit))
        return list(self._suggest[key])

    def by_konami_id(self, konami_id: int) -> Card | None:
        return self._pool.by_konami_id(konami_id)

    def with_rule_name(self, rule_name: str) -> list[Card]:
        return list(self._pool.with_rule_name(rule_name))

    def preload(self, passcodes: Iterable[int]) -> None:
        known = self._get
        new = [pc for pc in set(passcodes) if pc not in known]
        if new:
            pool = self._pool
            # the pool's own way with a batch of decks (a store: one query); a test's
            # stand-in may have none
            load = getattr(pool, "preload", None)
            if load is not None:
                load(new)
            for pc in new:
                known[pc] = pool.get(pc)

    def before_fork(self) -> None:
        """Read now what every worker would otherwise read for itself (the pool's
        `before_fork`: a store's compact rows, the built-in cards file's index); a forked
        worker inherits it. A pool in memory has nothing to read."""
        prepare = getattr(self._pool, "before_fork", None)
        if prepare is not None:
            prepare()

    def reopen(self) -> None:
        """In a forked worker: the pool's `reopen` (a store's connection of its own: an
        SQLite connection must not cross a fork); the cards already looked up, and the
        store's rows, stay in memory."""
        reopen = getattr(self._pool, "reopen", None)
        if reopen is not None:
            reopen()

    def __iter__(self) -> Iterator[Card]:
        return iter(self._pool)

    def __len__(self) -> int:
        return len(self._pool)

    def __getattr__(self, name: str) -> Any:  # anything else the underlying pool offers
        return getattr(self._pool, name)


def make_checker(pool: CardPool, *, format: str = "tcg", date: dt.date | str | None = None,
                 banlist: Banlist | str | None = None, points_cap: int | None = None,
                 strict: bool = False) -> CheckFn:
    """The checker with the format, its list and the rules prepared once for the event."""
    from deckcheck.checker import Checker

    return Checker(format, date, pool=pool, banlist=banlist, points_cap=points_cap,
                   strict=strict).check


def check_event(sources: Iterable[str | Path] | Entries, pool: CardPool, *,
                format: str = "tcg", date: dt.date | str | None = None,
                banlist: Banlist | str | None = None,
                points_cap: int | None = None, strict: bool = False,
                checker: CheckFn | None = None, progress: Progress | None = None,
                jobs: int = 1, event_name: str | None = None,
                finished: bool = True) -> EventReport:
    """Find every registration in `sources` (or in the `Entries` `expand_items` found in
    them), check each deck and build the event report.

    `format`, `date` (default today), `banlist` (a list name, format id or file overriding the
    format's list), `points_cap` and `strict` are as for `deckcheck.check`; a bad one raises
    before any file is read. A registration that cannot be read is a row with its sentence.

    Files are read a batch at a time (`BATCH`), their cards looked up in one query, and each
    deck checked and dropped: the report keeps one compact row per registration and per
    problem, never the decks or their reports. `progress("check", done, total)` follows each
    registration; `total` counts the registrations found so far plus one per file not read
    yet, so it grows when a workbook or CSV holds many players and is exact at the end.

    `jobs` > 1 reads and checks the files in that many forked processes (`event.jobs`), each
    with the same format, list and card pool; the report is the same as with one.

    `finished=False` returns the report with every row in but before `finish` (no duplicate
    flags, counts or notes yet): for a caller that finishes it while it does other work
    (`report_xlsx.write_xlsx`'s `complete`).
    """
    from deckcheck.checker import parse_date

    day = parse_date(date)
    cached = pool if isinstance(pool, CachingPool) else CachingPool(pool)
    if checker is None:
        checker = make_checker(cached, format=format, date=day, banlist=banlist,
                               points_cap=points_cap, strict=strict)
    if isinstance(sources, Entries):  # expanded already (the command line looked at them)
        entries = sources
        sources = entries.sources
    else:
        sources = list(sources)
        entries = expand_items(sources)  # one walk of the folders
    if not entries.files:
        raise no_deck_files(sources)
    event = _new_event(format, day)
    event.event = event_name
    # held up to a few thousand registrations (4,000 of real decks: 12,246 problems)
    event.players = RowSpool(PlayerRow)
    event.problems = RowSpool(ProblemRow, per_registration=PROBLEMS_EACH)
    with gc_paused():
        if jobs > 1 and entries.files >= MIN_FILES_PER_JOB * 2:
            from deckcheck.event.jobs import Work, check_files

            work = Work(check_run=check_run, add_row=add_row, prepare=prepare_worker,
                        most=BATCH)
            check_files(event, entries, cached, checker, jobs=jobs, work=work,
                        progress=progress,
                        options={"banlist": banlist, "points_cap": points_cap,
                                 "strict": strict})
        else:
            check_entries(event, entries, cached, checker, progress=progress)
    if not event.players:
        raise no_registrations([e for e in entries if isinstance(e, Path)])
    return finish(event) if finished else event


def check_entries(event: EventReport, entries: Sequence[Path | Skipped], pool: CardPool,
                  checker: CheckFn, *, progress: Progress | None = None) -> None:
    """Read and check `entries` in this process, adding their rows to `event` (not finished:
    `finish` flags duplicates)."""
    todo = entries.files if isinstance(entries, Entries) else \
        sum(isinstance(e, Path) for e in entries)
    found = done_files = 0
    for start in range(0, len(entries), BATCH):
        batch: list[Registration] = []
        totals: list[int] = []  # the total as known when each registration was read
        for entry in entries[start:start + BATCH]:
            regs = read_entry(entry, pool, event)
            if not isinstance(entry, Skipped):
                done_files += 1
                found += len(regs)
                batch += regs
                totals += [found + todo - done_files] * len(regs)
        preload_cards(pool, batch, checker)
        for data, total in zip(check_batch(batch, checker, pool, event), totals, strict=True):
            add_row(event, data)
            if progress is not None:
                progress("check", len(event.players), total)


def check_run(entries: Sequence[Path | Skipped], pool: CardPool, checker: CheckFn,
              part: EventReport) -> list[RowData]:
    """Read and check a run of inputs as a worker of `event.jobs` does: their rows as plain
    data; what was skipped and the list's facts go to `part`."""
    regs: list[Registration] = []
    for entry in entries:
        regs += read_entry(entry, pool, part)
    preload_cards(pool, regs, checker)
    return check_batch(regs, checker, pool, part)


def prepare_worker(pool: CardPool, format: str, date: str, options: dict[str, Any]
                   ) -> tuple[CachingPool, CheckFn]:  # pragma: no cover - without fork
    """The pool and checker a spawned worker of `event.jobs` prepares for itself."""
    cached = CachingPool(pool)
    return cached, make_checker(cached, format=format, date=date, **options)


def preload_cards(pool: CardPool, regs: Iterable[Registration],
                  checker: CheckFn | None = None) -> None:
    """Look up the cards of a batch of registrations in one query (a store is asked once for
    the batch, not once per deck), and the checker's facts of them when it is a `Checker`'s
    (`Checker.learn`: no deck's check then stops at a card not met yet, and starts again)."""
    passcodes: set[int | None] = set()
    for reg in regs:
        deck = reg.deck
        if deck is not None:
            passcodes.update([e.passcode for e in deck.main])
            passcodes.update([e.passcode for e in deck.extra])
            passcodes.update([e.passcode for e in deck.side])
    passcodes.discard(None)
    if not passcodes:
        return
    learn = getattr(getattr(checker, "__self__", None), "learn", None)
    if learn is not None:
        learn(passcodes)  # the pool's preload, then the facts
    else:
        pool.preload(passcodes)  # type: ignore[arg-type]  # None discarded


def read_entry(entry: Path | Skipped, pool: CardPool, event: EventReport) -> list[Registration]:
    """The registrations of one input of the event; what is not a registration (the entry
    itself, or an empty sheet in it) goes to `event.skipped` with its reason."""
    if isinstance(entry, Skipped):
        event.skipped.append(SkippedRow(source=entry.source, reason=entry.reason))
        return []
    regs: list[Registration] = []
    for item in read_items(entry, pool):
        if isinstance(item, Skipped):
            event.skipped.append(SkippedRow(source=item.source, reason=item.reason))
        else:
            regs.append(item)
    return regs


def check_registrations(regs: list[Registration], checker: CheckFn, pool: CardPool, *,
                        format: str = "tcg", date: dt.date | None = None,
                        progress: Progress | None = None) -> EventReport:
    """Check registrations already found; `progress("check", done, total)` after each."""
    event = _new_event(format, date)
    for done, reg in enumerate(regs, 1):
        add_registration(event, reg, checker, pool)
        if progress is not None:
            progress("check", done, len(regs))
    return finish(event)


def _new_event(format: str, date: dt.date | None) -> EventReport:
    return EventReport(format=format, date=date.isoformat() if date else None)


def _problem_text(v: Violation) -> str:
    """"DC201: The deck has 4 … (deck.ydk:12)": the message, then where it was written."""
    where = f" ({v.place})" if v.place else ""
    return f"{v.code}: {v.message}{where}"


def _check_error(reg: Registration, exc: Exception) -> str:
    """The sentence for a deck the checker failed on."""
    if isinstance(exc, DeckcheckError):
        return exc.message
    return f"{reg.source} could not be checked ({type(exc).__name__}: {exc})."


def check_registration(reg: Registration, checker: CheckFn) -> Outcome:
    """A registration as the library's per-input result (`deckcheck.reports.model.Outcome`):
    its deck's report, or the one sentence saying why it could not be read or checked. A deck
    the checker fails on never stops the event."""
    if reg.deck is None or reg.error is not None:
        return Outcome(source=reg.source, error=reg.error or "The list could not be read.")
    try:
        report = checker(reg.deck)
    except Exception as exc:  # one deck the checker chokes on never stops the event
        return Outcome(source=reg.source, error=_check_error(reg, exc))
    return Outcome(source=reg.source, decks=[Checked(report=report)])


#: One problem of a registration, compact: (code, name, severity, card, section, count,
#: limit, location, message) — the fields of `ProblemRow` after number, player, player_id.
ProblemData = tuple[str, str, str, "str | None", "str | None", "int | None", "int | None",
                    "str | None", str]
#: One checked registration, compact (what a worker sends back): (player, player_id,
#: source, verdict, main, extra, side, problem_count, problems, deck_hash, error, problems
#: as `ProblemData`, notes) — the fields of `PlayerRow` without number and duplicate.
RowData = tuple[Any, ...]


def check_one(reg: Registration, checker: CheckFn, pool: CardPool,
              event: EventReport, shared: Collection[str] | None = None) -> RowData:
    """Check one registration; its row as plain data. The list's facts (list name, date,
    notices) go to `event` when it has none yet. A deck the checker fails on is a row with
    the reason, never an exception.

    `shared`: the notices the checker gives every deck (default: `shared_notices`); the
    report's others, and its open points, are the row's notes."""
    return check_batch([reg], checker, pool, event, shared)[0]


def check_batch(regs: Sequence[Registration], checker: CheckFn, pool: CardPool,
                event: EventReport, shared: Collection[str] | None = None) -> list[RowData]:
    """`check_one` of each of `regs`, in order: every deck hashed, then every deck checked,
    then every row made: each loop runs one kind of code (hashing then checking 4,000 real
    decks in batches of 256 took ~7% less time than hashing and checking deck by deck)."""
    canonical = pool.canonical if isinstance(pool, CachingPool) else None
    hashes = [deck_hash(deck, pool, canonical)
              if (deck := reg.deck) is not None and reg.error is None
              and (deck.main or deck.extra or deck.side) else None for reg in regs]
    checked: list[Report | str | None] = []
    for reg in regs:
        if reg.deck is None or reg.error is not None:
            checked.append(None)
            continue
        try:
            checked.append(checker(reg.deck))
        except Exception as exc:  # one deck the checker chokes on never stops the event
            checked.append(_check_error(reg, exc))
    if shared is None:
        shared = shared_notices(checker)
    return [_row(reg, report, h, event, shared)
            for reg, report, h in zip(regs, checked, hashes, strict=True)]


def _row(reg: Registration, report: Report | str | None, h: str | None, event: EventReport,
         shared: Collection[str]) -> RowData:
    """A registration's row as plain data: `report` is its deck's report, the sentence the
    checker failed with, or None when its list could not be read."""
    deck = reg.deck
    if deck is None or report is None:
        error = reg.error or "The list could not be read."
        return (reg.player, reg.player_id, reg.source, "unreadable", None, None, None, 0,
                error, None, error, (), None)
    if isinstance(report, str):
        return (reg.player, reg.player_id, reg.source, "unreadable", deck.size("main"),
                deck.size("extra"), deck.size("side"), 0, report, h, report, (), None)
    sizes = report.sizes
    main = sizes["main"] if "main" in sizes else deck.size("main")
    extra = sizes["extra"] if "extra" in sizes else deck.size("extra")
    side = sizes["side"] if "side" in sizes else deck.size("side")
    if event.banlist is None and report.banlist:
        event.banlist = report.banlist
    if event.date is None and report.date:
        event.date = report.date
    notes = report.open_points
    if report.notices:
        # the notices every deck gets (the checker's own) are the event's; the others are
        # this deck's notes
        notices = event.notices
        for notice in report.notices:
            if notice in shared:
                if notice not in notices:
                    notices.append(notice)
            else:
                notes = [*notes, notice]
    problems: list[ProblemData] = []
    lines: list[str] = []
    for v in report.violations:
        if v.severity in PROBLEM_SEVERITIES:
            place = v.place
            lines.append(f"{v.code}: {v.message} ({place})" if place else
                         f"{v.code}: {v.message}")
            problems.append((v.code, v.name, v.severity, v.card, v.section, v.count, v.limit,
                             place, v.message))
    return (reg.player, reg.player_id, reg.source, report.verdict, main, extra, side,
            len(problems), "\n".join(lines), h, None, problems,
            "\n".join(notes) if notes else None)


def add_row(event: EventReport, data: RowData) -> None:
    """Append a checked registration (`check_one`) to `event`, numbered after the others (to
    a spooled table as its values: past the rows it holds, no row object is made)."""
    number = len(event.players) + 1
    (player, player_id, source, verdict, main, extra, side, count, text, h, error,
     problems, notes) = data
    # the fields of `PlayerRow`, in order (`duplicate` is set by `finish`)
    values = (number, player, player_id, source, verdict, main, extra, side, count, text, None,
              h, error, notes)
    players = event.players
    if isinstance(players, RowSpool):
        players.append_values(values)
    else:
        players.append(PlayerRow(**dict(zip(_PLAYER_FIELDS, values, strict=True))))
    if problems:  # `ProblemData` follows `ProblemRow`'s order after its first three fields
        rows = [(number, player, player_id, *p) for p in problems]
        if isinstance(event.problems, RowSpool):
            event.problems.extend_values(rows)
        else:
            event.problems.extend(ProblemRow(**dict(zip(_PROBLEM_FIELDS, r, strict=True)))
                                  for r in rows)


_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerRow))
_PROBLEM_FIELDS = tuple(f.name for f in fields(ProblemRow))
#: what `finish` reads of each row
_FINISH_FIELDS = ("number", "player", "player_id", "deck_hash", "verdict", "notes")
_FINISH_AT = itemgetter(*map(_PLAYER_FIELDS.index, _FINISH_FIELDS))


def add_registration(event: EventReport, reg: Registration, checker: CheckFn,
                     pool: CardPool, shared: Collection[str] | None = None) -> None:
    """Check one registration and add its row (and its problems) to `event`; a list that
    could not be read or checked is a row with its sentence. `shared`: as `check_one`."""
    add_row(event, check_one(reg, checker, pool, event, shared))


def shared_notices(checker: CheckFn) -> Collection[str]:
    """The notices `checker` gives every deck: those of the object it is a method of, when
    that has a `notices` list (a `Checker.check`'s: which card set, a stale list, no list in
    force); none for any other callable (then every notice of a report is its deck's note,
    unless the caller says which are shared)."""
    notices = getattr(getattr(checker, "__self__", None), "notices", None)
    return notices if isinstance(notices, list) else ()


def finish(event: EventReport) -> EventReport:
    """Flag duplicates and count verdicts once every registration is in (one pass over the
    rows; a spooled table's rows get their flags as they are read back). The event's notices
    gain each note every checked registration has (`_Notes`), and how many registrations have
    others."""
    dups = Duplicates()
    verdicts: Counter[str] = Counter()
    notes = _Notes()
    players = event.players
    rows = map(_FINISH_AT, players.values()) if isinstance(players, RowSpool) else \
        map(attrgetter(*_FINISH_FIELDS), players)  # a spool's values: no row object made
    for number, player, player_id, h, verdict, noted in rows:
        dups.add(number, player, player_id, h)
        verdicts[verdict] += 1
        if noted:
            notes.add(noted)
    dups.done()
    if isinstance(event.players, RowSpool):
        event.players.fill = partial(_fill_duplicate, dups)
    else:
        for r in event.players:
            dups.fill(r)
    event.total = len(event.players)
    event.legal = verdicts["legal"]
    event.illegal = verdicts["illegal"]
    event.unreadable = verdicts["unreadable"]
    event.unchecked = verdicts["unchecked"]
    event.duplicates = dups.flagged()
    for notice in notes.notices(event.total - event.unreadable):
        if notice not in event.notices:
            event.notices.append(notice)
    return event


_NUMBER, _DUPLICATE = _PLAYER_FIELDS.index("number"), _PLAYER_FIELDS.index("duplicate")


def _fill_duplicate(dups: Duplicates, values: list[Any]) -> None:
    """Complete a player row's values (`RowSpool.fill`) with its duplicate flags."""
    values[_DUPLICATE] = dups.note(values[_NUMBER])


class _Notes:
    """The rows' notes, counted in `finish`'s pass: how many rows have notes, how many rows
    have each note (up to `MOST` different: an event's notes are a few kinds, but open points
    name cards), and how many have each number of different notes."""

    MOST = 1000

    def __init__(self) -> None:
        self.rows = 0
        self.lines: Counter[str] = Counter()
        self.sizes: Counter[int] = Counter()

    def add(self, notes: str) -> None:
        self.rows += 1
        mine = dict.fromkeys(notes.split("\n"))  # each once, in the order written
        self.sizes[len(mine)] += 1
        for line in mine:
            if line in self.lines or len(self.lines) < self.MOST:
                self.lines[line] += 1

    def notices(self, checked: int) -> list[str]:
        """The event's notices: each note every one of the `checked` registrations has (a
        pool with no release dates: every deck's), then how many registrations have others
        (those with more different notes than the ones every registration has)."""
        every = [line for line, n in self.lines.items() if n == checked] if checked > 1 else []
        others = self.rows - (self.sizes[len(every)] if every else 0)
        return every + ([noted_notice(others)] if others else [])


def noted_notice(noted: int) -> str:
    """The event's notice for its registrations with notes (`PlayerRow.notes`)."""
    some = f"{noted} registration{'s' if noted != 1 else ''} {'have' if noted != 1 else 'has'}"
    return f"{some} notes on what could not be checked in the deck (see the Notes column)."


def flag_duplicates(rows: Iterable[PlayerRow]) -> None:
    """Set `duplicate` on every row that shares a player id, a player name (when the ids do
    not tell them apart) or the normalised deck with another row (`event.duplicates`)."""
    rows = list(rows)
    dups = flag(rows)
    for r in rows:
        dups.fill(r)

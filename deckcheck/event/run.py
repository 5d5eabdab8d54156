"""Checking a whole event: every registration with the same format, list and date.

    report = check_event(["decks/", "registrations.csv"], pool, format="tcg",
                         date=dt.date(2026, 12, 5))
    report.exit_code  # 0 all legal, 1 any illegal, 2 any list that could not be read

The format and its list are loaded once, card look-ups are cached for the run, and a
`checker` (deck -> Report) can be passed in to check with anything else (tests do).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckcheck.cards.model import Card
from deckcheck.cards.pool import CardPool
from deckcheck.decks.diff import deck_hash
from deckcheck.decks.model import Deck
from deckcheck.errors import DeckcheckError
from deckcheck.event.models import EventReport, PlayerRow, ProblemRow, Registration, SkippedRow
from deckcheck.event.sources import (
    Progress,
    Skipped,
    expand_items,
    expand_some,
    no_registrations,
    read_items,
)
from deckcheck.reports.model import Checked, Outcome, Report, Violation

if TYPE_CHECKING:
    from deckcheck.formats.model import Banlist

#: deck -> Report: how each registration's deck is checked (a `Checker.check`, or a test's).
CheckFn = Callable[[Deck], Report]

#: With `jobs` > 1, an event of fewer than twice this many files is checked in this process
#: (starting workers would cost more than they save).
MIN_FILES_PER_JOB = 64

#: Violations of these severities are the event's "problems" (info notes are not).
PROBLEM_SEVERITIES = ("error", "warning")


class CachingPool:
    """A card pool whose look-ups are remembered for one run (a store is asked once per card)."""

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
        new = [pc for pc in passcodes if pc not in self._get]
        if new:
            self._pool.preload(new)

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


def check_event(sources: Iterable[str | Path], pool: CardPool, *, format: str = "tcg",
                date: dt.date | str | None = None, banlist: Banlist | str | None = None,
                points_cap: int | None = None, strict: bool = False,
                checker: CheckFn | None = None, progress: Progress | None = None,
                jobs: int = 1, event_name: str | None = None) -> EventReport:
    """Find every registration in `sources`, check each deck and build the event report.

    `format`, `date` (default today), `banlist` (a list name, format id or file overriding the
    format's list), `points_cap` and `strict` are as for `deckcheck.check`; a bad one raises
    before any file is read. A registration that cannot be read is a row with its sentence.

    Files are read and checked one at a time (a deck is dropped once checked, so memory does
    not grow with the event). `progress("check", done, total)` follows each registration;
    `total` counts the registrations found so far plus one per file not read yet, so it grows
    when a workbook or CSV holds many players and is exact at the end.

    `jobs` > 1 reads and checks the files in that many processes (`event_jobs`), each with the
    same format, list and card pool; the report is the same as with one.
    """
    from deckcheck.checker import parse_date

    day = parse_date(date)
    cached = CachingPool(pool)
    if checker is None:
        checker = make_checker(cached, format=format, date=day, banlist=banlist,
                               points_cap=points_cap, strict=strict)
    sources = list(sources)
    files = expand_some(sources)  # refuses sources without any deck file
    entries = expand_items(sources)
    if jobs > 1 and len(files) >= MIN_FILES_PER_JOB * 2:
        from deckcheck.event.jobs import check_files

        event = check_files(entries, pool, checker, format=format, date=day, jobs=jobs,
                            progress=progress, options={"banlist": banlist,
                                                        "points_cap": points_cap,
                                                        "strict": strict})
        event.event = event_name
        if not event.players:
            raise no_registrations(files)
        return finish(event)
    event = _new_event(format, day)
    event.event = event_name
    found = k = 0
    for entry in entries:
        regs = read_entry(entry, cached, event)
        if isinstance(entry, Skipped):
            continue
        k += 1
        found += len(regs)
        for reg in regs:
            add_registration(event, reg, checker, cached)
            if progress is not None:
                progress("check", len(event.players), found + len(files) - k)
    if not event.players:
        raise no_registrations(files)
    return finish(event)


def read_entry(entry: Path | Skipped, pool: CardPool, event: EventReport) -> list[Registration]:
    """The registrations of one input of the event; what is not a registration (the entry
    itself, or an empty sheet in it) goes to `event.skipped` with its reason."""
    items: list[Registration | Skipped] = [entry] if isinstance(entry, Skipped) \
        else read_items(entry, pool)
    regs: list[Registration] = []
    for item in items:
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


def check_registration(reg: Registration, checker: CheckFn) -> Outcome:
    """A registration as the library's per-input result (`deckcheck.reports.model.Outcome`):
    its deck's report, or the one sentence saying why it could not be read or checked. A deck
    the checker fails on never stops the event."""
    if reg.deck is None or reg.error is not None:
        return Outcome(source=reg.source, error=reg.error or "The list could not be read.")
    try:
        report = checker(reg.deck)
    except Exception as exc:  # one deck the checker chokes on never stops the event
        error = exc.message if isinstance(exc, DeckcheckError) else (
            f"{reg.source} could not be checked ({type(exc).__name__}: {exc}).")
        return Outcome(source=reg.source, error=error)
    return Outcome(source=reg.source, decks=[Checked(report=report)])


def add_registration(event: EventReport, reg: Registration, checker: CheckFn,
                     pool: CardPool) -> PlayerRow:
    """Check one registration and add its row (and its problems) to `event`; a list that
    could not be read or checked is a row with its sentence."""
    outcome = check_registration(reg, checker)
    row = PlayerRow(number=len(event.players) + 1, player=reg.player,
                    player_id=reg.player_id, source=reg.source, verdict="unreadable")
    deck = reg.deck
    if deck is not None and reg.error is None:
        row.main, row.extra, row.side = deck.size("main"), deck.size("extra"), deck.size("side")
        if deck.main or deck.extra or deck.side:
            canonical = pool.canonical if isinstance(pool, CachingPool) else None
            row.deck_hash = deck_hash(deck, pool, canonical)
    if outcome.error is not None:
        row.error = row.problems = outcome.error
    for report in outcome.reports:
        _apply(row, report, event)
    event.players.append(row)
    return row


def finish(event: EventReport) -> EventReport:
    """Flag duplicates and count verdicts once every registration is in."""
    flag_duplicates(event.players)
    event.total = len(event.players)
    event.legal = sum(r.verdict == "legal" for r in event.players)
    event.illegal = sum(r.verdict == "illegal" for r in event.players)
    event.unreadable = sum(r.verdict == "unreadable" for r in event.players)
    event.duplicates = sum(r.duplicate is not None for r in event.players)
    return event


def _apply(row: PlayerRow, report: Report, event: EventReport) -> None:
    row.verdict = report.verdict
    for key in ("main", "extra", "side"):
        if key in report.sizes:
            setattr(row, key, report.sizes[key])
    if event.banlist is None and report.banlist:
        event.banlist = report.banlist
    if event.date is None and report.date:
        event.date = report.date
    for notice in report.notices:
        if notice not in event.notices:
            event.notices.append(notice)
    problems = [v for v in report.violations if v.severity in PROBLEM_SEVERITIES]
    row.problem_count = len(problems)
    row.problems = "\n".join(_problem_text(v) for v in problems)
    event.problems.extend(  # model_construct: the values come from validated Violations
        ProblemRow.model_construct(
            number=row.number, player=row.player, player_id=row.player_id, code=v.code,
            name=v.name, severity=v.severity, card=v.card, section=v.section, count=v.count,
            limit=v.limit, location=v.place, message=v.message)
        for v in problems)


def _name_key(name: str | None) -> str | None:
    if not name:
        return None
    s = unicodedata.normalize("NFKD", name).casefold()
    s = "".join(c for c in s if not unicodedata.combining(c))
    s = " ".join(re.sub(r"[^\w]+", " ", s).split())
    return s or None


def _id_key(player_id: str | None) -> str | None:
    if not player_id:
        return None
    digits = re.sub(r"\D", "", player_id)
    if digits:
        return digits.lstrip("0") or "0"
    return _name_key(player_id)


def flag_duplicates(rows: list[PlayerRow]) -> None:
    """Set `duplicate` on every row that shares a player id, a player name (when the ids do
    not tell them apart) or the normalised deck with another row."""
    notes: dict[int, list[str]] = {r.number: [] for r in rows}
    by_number = {r.number: r for r in rows}

    def label(n: int) -> str:
        player = by_number[n].player
        return f"#{n} {player}" if player else f"#{n}"

    def others_text(ns: list[int]) -> str:
        shown = ", ".join(label(m) for m in ns[:3])
        return shown + (f" and {len(ns) - 3} more" if len(ns) > 3 else "")

    def groups(key: Callable[[PlayerRow], str | None]) -> list[list[int]]:
        seen: dict[str, list[int]] = {}
        for r in rows:
            k = key(r)
            if k is not None:
                seen.setdefault(k, []).append(r.number)
        return [g for g in seen.values() if len(g) > 1]

    same_id = groups(lambda r: _id_key(r.player_id))
    for g in same_id:
        for n in g:
            notes[n].append("same player id as " + others_text([m for m in g if m != n]))
    for g in groups(lambda r: _name_key(r.player)):
        for n in g:
            others = [m for m in g if m != n]
            mine = _id_key(by_number[n].player_id)
            # Two people may share a name: only flag it when their ids do not differ.
            others = [m for m in others if mine is None or _id_key(by_number[m].player_id) in
                      (None, mine)]
            others = [m for m in others if not any(n in s and m in s for s in same_id)]
            if others:
                notes[n].append("same player name as " + others_text(others))
    for g in groups(lambda r: r.deck_hash):
        for n in g:
            notes[n].append("same deck as " + others_text([m for m in g if m != n]))
    for r in rows:
        r.duplicate = "; ".join(notes[r.number]) or None

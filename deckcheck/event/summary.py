"""The event summary for the terminal: counts, duplicates, worst offenders, unreadable lists.

    12 registrations checked: tcg, 2026.05 TCG, as of 2026-12-05
      8 legal, 3 illegal, 1 could not be read
      2 duplicate registrations
    Worst offenders:
      #4 Bob (0301234567): 5 problems — DC201: …
    Could not be read:
      #9 broken.ydk: broken.ydk holds no deck: check that it is a decklist.

Names, sources and messages come from the registrations: control characters in them are
escaped (`deckcheck.reports.printable`) so they cannot drive the terminal.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any

from deckcheck.event.models import PLAYER_FIELDS, EventReport, PlayerRow
from deckcheck.event.spool import RowSpool
from deckcheck.reports import printable

#: How many illegal registrations the summary lists by name.
WORST = 5


def _who(row: PlayerRow) -> str:
    who = f"#{row.number} {row.player or row.source}"
    return printable(f"{who} ({row.player_id})" if row.player_id else who)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_VALUES = attrgetter(*PLAYER_FIELDS)
_NUMBER, _VERDICT, _COUNT = map(PLAYER_FIELDS.index, ("number", "verdict", "problem_count"))


def _worst(rows: Iterable[PlayerRow], worst: int) -> tuple[list[PlayerRow], list[PlayerRow]]:
    """In one pass over the rows (a large event's are read back from disk; a spool's as their
    values, a row made only of those shown): the `worst` illegal rows with the most problems
    (then by number), and the first `worst` unreadable rows (how many there are of each,
    `finish` has counted)."""
    values = rows.values() if isinstance(rows, RowSpool) else map(_VALUES, rows)
    unreadable: list[Sequence[Any]] = []

    def illegal() -> Iterator[Sequence[Any]]:
        for v in values:
            verdict = v[_VERDICT]
            if verdict == "illegal":
                yield v
            elif verdict == "unreadable" and len(unreadable) < worst:
                unreadable.append(v)

    offenders = heapq.nsmallest(worst, illegal(), key=lambda v: (-v[_COUNT], v[_NUMBER]))
    return list(map(_row, offenders)), list(map(_row, unreadable))


def _row(values: Sequence[Any]) -> PlayerRow:
    return PlayerRow(**dict(zip(PLAYER_FIELDS, values, strict=True)))


def format_summary(event: EventReport, *, worst: int = WORST) -> str:
    facts = ", ".join(x for x in (event.format, event.banlist,
                                  f"as of {event.date}" if event.date else None) if x)
    lines = [f"{_plural(event.total, 'registration')} checked: {facts}",
             f"  {event.legal} legal, {event.illegal} illegal, "
             f"{event.unreadable} could not be read"
             + (f", {event.unchecked} could not be fully checked" if event.unchecked else "")]
    if event.duplicates:
        lines.append(f"  {_plural(event.duplicates, 'registration')} flagged as duplicate"
                     " (see the Duplicate column)")
    illegal, unreadable = _worst(event.players, worst)
    if illegal:
        lines.append("Worst offenders:")
        for row in illegal:
            first = row.problems.split("\n", 1)[0]
            lines.append(f"  {_who(row)}: {_plural(row.problem_count, 'problem')}"
                         + (f" \u2014 {printable(first)}" if first else ""))
        if event.illegal > worst:
            lines.append(f"  … and {event.illegal - worst} more illegal")
    if unreadable:
        lines.append("Could not be read:")
        for row in unreadable:
            lines.append(f"  {_who(row)}: {printable(row.error or '')}")
        if event.unreadable > worst:
            lines.append(f"  … and {event.unreadable - worst} more")
    if event.skipped:
        lines.append(f"Skipped ({_plural(len(event.skipped), 'input')} not a registration):")
        for s in event.skipped[:worst]:
            lines.append(f"  {printable(s.reason)}")
        if len(event.skipped) > worst:
            lines.append(f"  … and {len(event.skipped) - worst} more (listed in the report)")
    return "\n".join(lines)

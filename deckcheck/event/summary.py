"""The event summary for the terminal: counts, duplicates, worst offenders, unreadable lists,
and the registrations whose notes say what could not be checked.

    12 registrations checked: tcg, 2026.05 TCG, as of 2026-12-05
      7 legal, 3 illegal, 1 could not be read, 1 could not be fully checked
      2 duplicate registrations
    Worst offenders:
      #4 Bob (0301234567): 5 problems — DC201: …
    Could not be read:
      #9 broken.ydk: broken.ydk holds no deck: check that it is a decklist.
    With notes on what could not be checked:
      #2 Amy: 2 cards have no known TCG release date; not checked.

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
_NUMBER, _VERDICT, _COUNT, _NOTES = map(PLAYER_FIELDS.index,
                                        ("number", "verdict", "problem_count", "notes"))


class _Picked:
    """What the summary shows of the rows, picked in one pass over them (a large event's are
    read back from disk; a spool's as their values, a row made only of those shown): the
    `worst` illegal rows with the most problems (then by number), the first `worst`
    unreadable rows (how many there are of each, `finish` has counted), and the first `worst`
    rows with notes of their own (not among the event's notices), with how many there are."""

    def __init__(self, rows: Iterable[PlayerRow], worst: int, shared: list[str]) -> None:
        values = rows.values() if isinstance(rows, RowSpool) else map(_VALUES, rows)
        unreadable: list[Sequence[Any]] = []
        noted: list[tuple[Sequence[Any], str]] = []
        self.noted = 0

        def illegal() -> Iterator[Sequence[Any]]:
            for v in values:
                notes = v[_NOTES]
                if notes:
                    own = [n for n in notes.split("\n") if n not in shared]
                    if own:
                        self.noted += 1
                        if len(noted) < worst:
                            noted.append((v, own[0]))
                verdict = v[_VERDICT]
                if verdict == "illegal":
                    yield v
                elif verdict == "unreadable" and len(unreadable) < worst:
                    unreadable.append(v)

        offenders = heapq.nsmallest(worst, illegal(), key=lambda v: (-v[_COUNT], v[_NUMBER]))
        self.illegal = list(map(_row, offenders))
        self.unreadable = list(map(_row, unreadable))
        self.notes = [(_row(v), first) for v, first in noted]


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
    picked = _Picked(event.players, worst, event.notices)
    illegal, unreadable = picked.illegal, picked.unreadable
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
    if picked.notes:
        lines.append("With notes on what could not be checked:")
        for row, first in picked.notes:
            lines.append(f"  {_who(row)}: {printable(first)}")
        if picked.noted > worst:
            lines.append(f"  … and {picked.noted - worst} more (see the Notes column)")
    if event.skipped:
        lines.append(f"Skipped ({_plural(len(event.skipped), 'input')} not a registration):")
        for s in event.skipped[:worst]:
            lines.append(f"  {printable(s.reason)}")
        if len(event.skipped) > worst:
            lines.append(f"  … and {len(event.skipped) - worst} more (listed in the report)")
    return "\n".join(lines)

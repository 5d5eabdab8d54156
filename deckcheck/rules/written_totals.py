"""written-total-mismatch: a totals row written on the form must match the cards listed.

Registration forms (Konami's TCG form, club sheets) carry totals the player writes by hand:
"Total Monster Cards", "Main Deck total", a bare "Total" under a column. The deck reader
cross-checks each one that states a number against the copies listed in its scope (the
group or section it names, or the rows above it) and keeps a mismatch as a problem with both
numbers and the cell. Either the total or the list is wrong, and a judge has to ask the player
which — the list alone cannot show the deck the player meant.

Passing (a spreadsheet, one row a line)::

    Monster Cards
    3 | Ash Blossom & Joyous Spring
    3 | Maxx "C"
    6 | Total Monster Cards

Failing (a spreadsheet, one row a line)::

    Monster Cards
    3 | Ash Blossom & Joyous Spring
    3 | Maxx "C"
    8 | Total Monster Cards
    -> DC407 written-total-mismatch: The total written at A4 ('Total Monster Cards') is 8,
       but 6 cards are listed; correct the total or the list.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, make, where
from deckcheck.rules.violation import Found, Severity

CODE = "DC407"
NAME = "written-total-mismatch"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if not deck.problems:  # no written totals that differ
        return NOTHING
    return _check(deck, ctx)


def _check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    for p in deck.problems:
        if p.kind == "written-total":
            yield make(p.message, count=p.count, section=p.section, location=where(p.location))

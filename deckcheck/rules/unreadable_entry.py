"""unreadable-entry: every line of the deck must be readable (a count, a card, a section).

Reported from what the deck reader could not read: a bad count ("x3x Pot of Greed"), a line
that is neither a card nor a section header, a broken part of a ydke:// URL. The deck's
real contents are then unknown, so it cannot be shown to be legal.

Passing (a text decklist)::

    3 Ash Blossom & Joyous Spring

Failing (a text decklist)::

    0 Ash Blossom & Joyous Spring
    -> DC405 unreadable-entry: The count '0' for 'Ash Blossom & Joyous Spring' is zero; write
       1 to 99 copies.

(A line such as "three Ash Blossom & Joyous Spring" is read as a card name: DC401.)
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, make, where
from deckcheck.rules.violation import Found, Severity

CODE = "DC405"
NAME = "unreadable-entry"
SEVERITY: Severity = "error"

_KINDS = ("bad-count", "bad-line", "bad-part")


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if not deck.problems:  # nothing the reader could not read
        return NOTHING
    return _check(deck, ctx)


def _check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    for p in deck.problems:
        if p.kind not in _KINDS:
            continue
        text = p.message.strip()
        if not text.endswith((".", "?", "!")):
            text += "."
        yield make(text, card=p.written, count=p.count,
                   section=p.section, location=where(p.location))

"""semi-limited: a card the list makes Semi-Limited may be used at most 2 times.

The list's limits are per passcode; every passcode of the card counts (alternate artworks
included), and the strictest limit of any card the deck uses in a rule-name group applies to
the whole group (Main + Extra + Side together). The entry that goes over is reported.

Passing::

    #main
    40640057 ×2    (Kuriboh, if Semi-Limited)

Failing::

    #main
    40640057 ×3
    -> DC204 semi-limited: … is Semi-Limited in the list: at most 2, the deck has 3.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._limits import over_limit
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC204"
NAME = "semi-limited"
SEVERITY: Severity = "error"
LIMIT = 2


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return over_limit(ctx, LIMIT)

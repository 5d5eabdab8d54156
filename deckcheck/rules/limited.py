"""limited: a card the list makes Limited may be used at most 1 time.

The list's limits are per passcode; every passcode of the card counts (alternate artworks
included), and the strictest limit of any card the deck uses in a rule-name group applies to
the whole group (Main + Extra + Side together). The entry that goes over is reported.

In Traditional, Forbidden cards count as Limited and are reported here.

Passing (2026.05 TCG)::

    #main
    14558127 ×1    (Ash Blossom & Joyous Spring, if Limited)

Failing::

    #main
    14558127 ×1
    #side
    14558128 ×1    (its alternate artwork: the same card)
    -> DC203 limited: Ash Blossom & Joyous Spring is Limited in the list: at most 1, the deck
       has 2.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._limits import over_limit
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC203"
NAME = "limited"
SEVERITY: Severity = "error"
LIMIT = 1


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return over_limit(ctx, LIMIT)

"""forbidden: a card the list makes Forbidden may not be used at all (Main, Extra or Side).

The list's limits are per passcode; every passcode of the card counts (alternate artworks
included), and the strictest limit of any card the deck uses in a rule-name group applies to
the whole group (Main + Extra + Side together). The entry that goes over is reported.

Passing (2026.05 TCG)::

    #main
    (no Forbidden card)

Failing (2026.05 TCG)::

    #main
    55144522       (Pot of Greed, Forbidden)
    -> DC202 forbidden: Pot of Greed is Forbidden in 2026.05 TCG; remove it.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._limits import over_limit
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC202"
NAME = "forbidden"
SEVERITY: Severity = "error"
LIMIT = 0


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return over_limit(ctx, LIMIT)

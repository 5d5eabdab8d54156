"""extra-deck-size: the Extra Deck holds as many cards as the format allows.

The range comes from the format file (TCG/OCG: Main 40–60, Extra and Side 0–15; Speed Duel:
Main 20–30, Extra and Side 0–5). In formats with Skill Cards, the Skill Card is not counted.
A Extra Deck that is too big is reported at the entry that goes over.

Passing::

    #extra            (0 to 15 cards (TCG))

Failing::

    #extra            (16 cards)
    -> DC102 extra-deck-size: The Extra Deck has 16 cards; TCG Advanced allows at most 15.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._sizes import check_size
from deckcheck.rules.context import CheckContext
from deckcheck.rules.violation import Found, Severity

CODE = "DC102"
NAME = "extra-deck-size"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    return check_size(ctx, "extra")

"""too-many-copies: at most 3 cards (the format's `copies`) of one name in Main + Extra + Side.

Cards count by their *rule name*: alternate artworks are the same card, a card whose name "is
always treated as" another's shares that card's count (Harpie Lady 1 counts as Harpie Lady;
Angry Burger as Hungry Burger). Cards only "treated as an X card" (an archetype) keep their own
name. When the banlist gives the name a stricter limit, DC202–DC204 report it instead.

Passing::

    #main
    76812113 ×2    (Harpie Lady)
    91932350 ×1    (Harpie Lady 1)

Failing::

    #main
    76812113 ×2    (Harpie Lady)
    #side
    91932350 ×2    (Harpie Lady 1)
    -> DC201 too-many-copies: The deck has 4 cards named Harpie Lady; at most 3 are allowed.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules._limits import group_limits, names_note
from deckcheck.rules.context import NOTHING, CheckContext, going_over, make
from deckcheck.rules.violation import Found, Severity

CODE = "DC201"
NAME = "too-many-copies"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if not group_limits(ctx):  # no name over a limit
        return NOTHING
    return _check(deck, ctx)


def _check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    cap = ctx.format.copies
    for g in group_limits(ctx):
        if g.total <= cap or (g.effective is not None and g.effective < cap):
            continue
        at = going_over(g.items, cap)
        name = ctx.rule_name(g.items)
        # the passcode of the card the rule name is (Harpie Lady), not of the entry counted
        # under it (Cyber Harpie Lady); None when that card is not in the deck
        own = next((i.card.passcode for i in g.items
                    if i.card is not None and i.card.name == name), None)
        yield make(f"The deck has {g.total} cards named {name} across Main, Extra and Side; "
                   f"at most {cap} are allowed{names_note(ctx, g, at)}.",
                   at, card=name, passcode=own, count=g.total, limit=cap)

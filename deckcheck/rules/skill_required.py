"""skill-required: a Speed Duel deck has exactly one Skill Card (Main or Extra Deck).

Checked when the format's `skills` is "required-one" (exactly one) or "optional" (at most
one). A Skill Card is not counted in the Main Deck's size there; Skill Cards in the Side Deck
are not counted here.

Passing (Speed Duel)::

    #main
    300101004      (one Skill Card)
    (20 to 30 other cards)

Failing (Speed Duel)::

    #main
    (20 cards, no Skill Card)
    -> DC122 skill-required: The deck has no Skill Card; Speed Duel needs exactly one.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.cards.model import Kind
from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, going_over, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC122"
NAME = "skill-required"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    mode = ctx.format.skills
    if mode == "forbidden":
        return
    skills = [i for i in ctx.items
              if i.section != "side" and i.card is not None and i.card.kind is Kind.SKILL]
    n = sum(i.count for i in skills)
    if n == 0 and mode == "required-one":
        yield make(f"The deck has no Skill Card; {ctx.format.name} needs exactly one.",
                   count=0, limit=1, location=ctx.deck_location)
    elif n > 1:
        at = going_over(skills, 1)
        need = "exactly one" if mode == "required-one" else "at most one"
        yield make(f"The deck has {n} Skill Cards; {ctx.format.name} allows {need}"
                   f"{others(skills, at)}.", at, count=n, limit=1)

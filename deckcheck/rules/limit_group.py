"""limit-group: at most N cards in total from a list's group (Speed Duel "Limited 1/2/3",
Rush Duel "Legend" cards).

Groups come from the banlist file (`groups:` with a name, a maximum and passcodes); copies in
Main, Extra and Side all count. The entry that goes over is reported.

Passing (Speed Duel, a group "Limited 2" of Blue-Eyes White Dragon and Dark Magician)::

    #main
    89631139 ×1    (Blue-Eyes White Dragon)
    46986414 ×1    (Dark Magician)

Failing::

    #main
    89631139 ×2
    46986414 ×1
    -> DC206 limit-group: The deck has 3 cards from the group "Limited 2" (Blue-Eyes White
       Dragon ×2, Dark Magician ×1); Speed Duel allows 2.
"""

from __future__ import annotations

from collections.abc import Iterator

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, Item, card_codes, going_over, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC206"
NAME = "limit-group"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if ctx.banlist is None or not ctx.banlist.groups:
        return
    group_of = ctx.view.group_of
    members: dict[int, list[Item]] = {}
    for it in ctx.items:
        hit: set[int] = set()
        for pc in card_codes(it):
            hit.update(group_of.get(pc, ()))
        for gi in sorted(hit):
            members.setdefault(gi, []).append(it)
    for gi, items in members.items():
        group = ctx.banlist.groups[gi]
        total = sum(i.count for i in items)
        if total <= group.max:
            continue
        at = going_over(items, group.max)
        per: dict[str, int] = {}
        for it in items:
            per[it.label] = per.get(it.label, 0) + it.count
        listing = ", ".join(f"{k} ×{v}" for k, v in per.items())
        yield make(f"The deck has {total} cards from the group \"{group.name}\" ({listing}); "
                   f"{ctx.format.name} allows {group.max}{others(items, at)}.",
                   at, count=total, limit=group.max)

"""banned-card-type: some formats ban whole card types (Genesys: Link and Pendulum monsters).

The format's `banned_frames` lists card frames, with shell-style wildcards ("link",
"*_pendulum"); every card whose frame matches is reported, once per card, at its first entry.

Passing (Genesys)::

    #extra
    (Fusion, Synchro and Xyz monsters only)

Failing (Genesys)::

    #extra
    1861629        (Decode Talker, a Link Monster)
    -> DC302 banned-card-type: Decode Talker is a Link Monster, and Genesys does not allow
       Link Monsters.
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from deckcheck.decks.model import Deck
from deckcheck.rules.context import CheckContext, distinct, frame_label, make, others
from deckcheck.rules.violation import Found, Severity

CODE = "DC302"
NAME = "banned-card-type"
SEVERITY: Severity = "error"


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    patterns = ctx.format.banned_frames
    if not patterns:
        return
    banned: dict[str, str | None] = {}

    def matches(frame: str) -> str | None:
        if frame not in banned:
            banned[frame] = next((p for p in patterns if fnmatchcase(frame, p)), None)
        return banned[frame]

    hits = (i for i in ctx.items if i.card is not None and matches(i.card.frame.value))
    for items in distinct(hits).values():
        at = items[0]
        assert at.card is not None
        kind = frame_label(at.card)
        plural = kind.split(" ", 1)[1] + "s"
        if at.card.frame.is_pendulum:
            plural = "Pendulum Monsters"
        n = sum(i.count for i in items)
        yield make(f"{at.card.name} is {kind}, and {ctx.format.name} does not allow "
                   f"{plural}{others(items, at)}.", at, count=n)

"""unknown-card: every card in the deck must be one the card pool knows.

Reported for passcodes the pool does not know (anime and custom ids, typos, cards newer than
the database) and for names a reader could not resolve (with "did you mean" suggestions).
A deck with unknown cards cannot be shown to be legal. On a date past the day the card list
ends (`deckcheck.cards.coverage`) an unknown passcode may be a card printed since (a new
prerelease id): it is an open point, not an error, and the deck "could not be fully checked".

Passing::

    #main
    14558127       (Ash Blossom & Joyous Spring)

Failing::

    #main
    14558126
    -> DC401 unknown-card: Passcode 14558126 is not a card deckcheck knows; check the number,
       or run `deckcheck cards update` if the card is new.
    3 Ash Blosom & Joyous Spring     (a text decklist)
    -> DC401 unknown-card: No card is named "Ash Blosom & Joyous Spring" (did you mean
       Ash Blossom & Joyous Spring?).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from deckcheck.cards.coverage import beyond
from deckcheck.decks.model import Deck
from deckcheck.rules.context import NOTHING, CheckContext, distinct, make, others, where
from deckcheck.rules.violation import Found, Severity

CODE = "DC401"
NAME = "unknown-card"
SEVERITY: Severity = "error"

_KINDS = ("unknown-name", "ambiguous-name", "unknown-passcode")


#: "Did you mean" look-ups cost up to ~0.2 s each on a full pool: at most this many per deck,
#: and none once this many seconds have gone to them (a list of 9,990 made-up names took 42 s).
SUGGEST_MAX = 25
SUGGEST_SECONDS = 2.0


class _Budget:
    """Suggestions for the first unknown names only, within a time budget."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx, self.left, self.spent, self.skipped = ctx, SUGGEST_MAX, 0.0, 0

    def suggest(self, written: str) -> list[str]:
        if self.left <= 0 or self.spent >= SUGGEST_SECONDS or len(written) > 100:
            self.skipped += 1
            return []
        self.left -= 1
        started = time.monotonic()
        try:
            return list(self.ctx.pool.suggest(written))
        finally:
            self.spent += time.monotonic() - started

    def done(self) -> None:
        looked = SUGGEST_MAX - self.left
        if self.skipped and looked:
            self.ctx.notice(f"\"Did you mean\" suggestions were looked up for the first "
                            f"{looked} unknown names only ({self.skipped} more have none).")
        elif self.skipped:  # every one longer than any card name: none was looked up
            which = "unknown name is" if self.skipped == 1 else \
                f"{self.skipped} unknown names are"
            self.ctx.notice(f"No \"did you mean\" suggestions were looked up: the {which} "
                            "longer than any card name.")


def check(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    if not ctx.unknown and not deck.problems:
        return NOTHING
    return _found(deck, ctx)


def _found(deck: Deck, ctx: CheckContext) -> Iterator[Found]:
    budget = _Budget(ctx)
    yield from _check(deck, ctx, budget)
    budget.done()


def _check(deck: Deck, ctx: CheckContext, budget: _Budget) -> Iterator[Found]:
    unknown = ctx.unknown_items
    seen: set[str] = set()
    end = ctx.past("cards")
    for items in distinct(unknown).values():
        at = items[0]
        n = sum(i.count for i in items)
        written = at.entry.written or (str(at.entry.passcode) if at.entry.passcode else "")
        seen.add(written)
        if at.entry.passcode is not None and end is not None:
            ctx.open_point(f"Passcode {at.entry.passcode} is not a card deckcheck's data knows, "
                           f"but a card printed since may have it{others(items, at)}: "
                           f"{beyond('cards', end)}.", at)
        elif at.entry.passcode is not None:
            yield make(f"Passcode {at.entry.passcode} is not a card deckcheck knows; check the "
                       f"number, or update the card database if the card is new"
                       f"{others(items, at)}.", at, count=n)
        else:
            sugg = budget.suggest(written) if written else []
            yield make(_no_such_name(written, sugg), at, count=n,
                       suggestions=sugg)
    for p in deck.problems:
        if p.kind not in _KINDS or (p.written is not None and p.written in seen):
            continue
        sugg = list(p.suggestions)
        if not sugg and p.written and p.kind == "unknown-name":
            sugg = budget.suggest(p.written)
        if p.kind == "unknown-name" and p.written:
            message = _no_such_name(p.written, sugg)
        else:
            message = _sentence(p.message)
        yield make(message, card=p.written, count=p.count,
                   section=p.section, location=where(p.location), suggestions=sugg)


def _no_such_name(written: str, suggestions: list[str]) -> str:
    hint = f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
    return f"No card is named \"{written}\"{hint}."


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."

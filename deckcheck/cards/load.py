"""`open_pool`: the imported card database if there is one, else the built-in card set.

(Owned by the card-pool work: the SQLite store plugs in here.)
"""

from __future__ import annotations

from deckcheck.cards.pool import CardPool


def open_pool(db: str | None = None) -> CardPool:
    from deckcheck.cards.builtin import builtin_pool

    return builtin_pool()

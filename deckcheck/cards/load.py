"""`open_pool`: the imported card database if there is one, else the built-in card set.

Where the database lives is `deckcheck.cards.dbpath`'s; the store (sqlite3) is imported only
when one exists, so `deckcheck check` on the built-in set starts faster.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from deckcheck.cards.dbpath import resolve

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool


def open_pool(db: str | os.PathLike[str] | None = None) -> CardPool:
    """The store at `db` (default: $DECKCHECK_DB, else the user's data directory).

    When no store exists yet, the built-in pool of every card (`PoolInfo.builtin` is True).
    An existing file that is not a readable deckcheck store raises `StoreVersionError`.
    """
    path = resolve(db)
    if not os.path.exists(path):
        from deckcheck.cards.builtin import builtin_pool

        return builtin_pool()
    from deckcheck.cards.store import StorePool

    return StorePool(path)

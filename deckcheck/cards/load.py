"""`open_pool`: the imported card database if there is one, else the built-in card set."""

from __future__ import annotations

import os

from deckcheck.cards.pool import CardPool


def open_pool(db: str | os.PathLike[str] | None = None) -> CardPool:
    """The store at `db` (default: $DECKCHECK_DB, else the user's data directory).

    When no store exists yet, the small built-in card set (`PoolInfo.builtin` is True).
    An existing file that is not a readable deckcheck store raises `StoreVersionError`.
    """
    from deckcheck.cards.store import StorePool, resolve_path

    path = resolve_path(db)
    if not path.exists():
        from deckcheck.cards.builtin import builtin_pool

        return builtin_pool()
    return StorePool(path)

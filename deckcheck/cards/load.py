"""`open_pool`: the imported card database if there is one, else the built-in card set.

Where the database lives (`default_db_path`, `resolve_path`) is decided here, without
importing the store (sqlite3), so `deckcheck check` on the built-in set starts faster.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.errors import CardPoolError

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool


def default_db_path() -> Path:
    """$DECKCHECK_DB, else cards.sqlite in the user's data folder (`deckcheck.paths`)."""
    env = os.environ.get("DECKCHECK_DB")
    if env:
        return Path(env).expanduser()
    from deckcheck.paths import data_dir

    return data_dir() / "cards.sqlite"


def resolve_path(db: str | os.PathLike[str] | None) -> Path:
    path = Path(db).expanduser() if db else default_db_path()
    if path.is_dir():
        raise CardPoolError(f"{path} is a folder, not a card database file; point --db or "
                            f"DECKCHECK_DB at a file such as {path / 'cards.sqlite'}.")
    from deckcheck.atomic import not_regular

    what = not_regular(path)
    if what is not None:  # SQLite would wait on a FIFO forever
        raise CardPoolError(f"{path} is {what}, not a card database file; point --db or "
                            "DECKCHECK_DB at a regular file.")
    return path


def read_only_uri(path: str | os.PathLike[str]) -> str:
    """An SQLite URI opening `path` read-only; "#", "?" and "%" in the name are escaped (a
    plain f"file:{path}" would cut "x#y.db" at the "#" and open "x")."""
    return Path(os.path.abspath(path)).as_uri() + "?mode=ro"


def open_pool(db: str | os.PathLike[str] | None = None) -> CardPool:
    """The store at `db` (default: $DECKCHECK_DB, else the user's data directory).

    When no store exists yet, the built-in pool of every card (`PoolInfo.builtin` is True).
    An existing file that is not a readable deckcheck store raises `StoreVersionError`.
    """
    path = resolve_path(db)
    if not path.exists():
        from deckcheck.cards.builtin import builtin_pool

        return builtin_pool()
    from deckcheck.cards.store import StorePool

    return StorePool(path)

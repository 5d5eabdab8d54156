"""Where the card database lives (`default_db_path`, `resolve_path`) and how it is opened
read-only (`read_only_uri`), decided without importing the store (sqlite3), so `deckcheck
check` on the built-in set starts faster.
"""

from __future__ import annotations

import os
from pathlib import Path

from deckcheck.errors import CardPoolError


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

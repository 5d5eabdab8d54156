"""Where the card database lives (`default_db_path`, `resolve_path`) and how it is opened
read-only (`read_only_uri`), decided without importing the store (sqlite3), so `deckcheck
check` on the built-in set starts faster. A check works on the path as a string
(`default_db_file`, `resolve`): it imports no pathlib either.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from deckcheck.errors import CardPoolError

if TYPE_CHECKING:
    from pathlib import Path


def default_db_file() -> str:
    """$DECKCHECK_DB, else cards.sqlite in the user's data folder (`deckcheck.paths`)."""
    env = os.environ.get("DECKCHECK_DB")
    if env:
        return os.path.expanduser(env)
    from deckcheck.paths import data_folder

    return os.path.join(data_folder(), "cards.sqlite")


def default_db_path() -> Path:
    """`default_db_file()` as a `Path`."""
    from pathlib import Path

    return Path(default_db_file())


def resolve(db: str | os.PathLike[str] | None) -> str:
    """The card database file `db` names (None: `default_db_file()`); CardPoolError when it
    is a folder, a pipe or a device (it need not exist)."""
    path = os.path.expanduser(os.fspath(db)) if db else default_db_file()
    if os.path.isdir(path):
        from pathlib import Path

        shown = Path(path)
        raise CardPoolError(f"{shown} is a folder, not a card database file; point --db or "
                            f"DECKCHECK_DB at a file such as {shown / 'cards.sqlite'}.")
    from deckcheck.atomic import not_regular

    what = not_regular(path)
    if what is not None:  # SQLite would wait on a FIFO forever
        from pathlib import Path

        raise CardPoolError(f"{Path(path)} is {what}, not a card database file; point --db or "
                            "DECKCHECK_DB at a regular file.")
    return path


def resolve_path(db: str | os.PathLike[str] | None) -> Path:
    """`resolve(db)` as a `Path`."""
    from pathlib import Path

    return Path(resolve(db))


def read_only_uri(path: str | os.PathLike[str]) -> str:
    """An SQLite URI opening `path` read-only; "#", "?" and "%" in the name are escaped (a
    plain f"file:{path}" would cut "x#y.db" at the "#" and open "x"). SQLite's URI path needs
    no other escape (sqlite.org/uri.html), so a POSIX path is written as it is, without
    pathlib's import (and urllib.parse's) on the way to a store."""
    full = os.path.abspath(path)
    if os.sep == "/":
        quoted = full.replace("%", "%25").replace("?", "%3F").replace("#", "%23")
        return f"file://{quoted}?mode=ro"
    from pathlib import Path

    return Path(full).as_uri() + "?mode=ro"

"""Where deckcheck keeps the user's files (the card database, imported lists): one lookup.

`$XDG_DATA_HOME/deckcheck` when that is set (on any system), else the platform's own data
folder through `platformdirs`: `~/.local/share/deckcheck` on Linux,
`~/Library/Application Support/deckcheck` on macOS, `%LOCALAPPDATA%\\deckcheck` on Windows.
Each file's own variable ($DECKCHECK_DB, $DECKCHECK_BANLISTS) still wins over both.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """deckcheck's folder in the user's data directory (not created here)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg).expanduser() / "deckcheck"
    from platformdirs import user_data_dir  # only when no override is set

    return Path(user_data_dir("deckcheck", appauthor=False))

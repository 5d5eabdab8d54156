"""Where deckcheck keeps the user's files (the card database, imported lists): one lookup.

`$XDG_DATA_HOME/deckcheck` when that is set (on any system), else the platform's own data
folder as `platformdirs` names it: `~/.local/share/deckcheck` on Linux (computed here, without
importing platformdirs, which costs start-up),
`~/Library/Application Support/deckcheck` on macOS, `%LOCALAPPDATA%\\deckcheck` on Windows.
Each file's own variable ($DECKCHECK_DB, $DECKCHECK_BANLISTS) still wins over both.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def _android() -> bool:
    """platformdirs' own test for Android, whose data folder it knows."""
    return hasattr(sys, "getandroidapilevel") or (
        os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system")


def data_dir() -> Path:
    """deckcheck's folder in the user's data directory (not created here)."""
    from pathlib import Path

    return Path(data_folder())


def data_folder() -> str:
    """`data_dir()` as a string, for a check that finds its files without importing pathlib."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return os.path.join(os.path.expanduser(xdg), "deckcheck")
    home = os.environ.get("HOME", "")
    if sys.platform == "linux" and os.path.isabs(home) and not _android():
        # what platformdirs gives on Linux (~/.local/share), without importing it: its import
        # (tempfile among others) was ~5% of a cold `deckcheck check`
        return os.path.join(home, ".local", "share", "deckcheck")
    from platformdirs import user_data_dir  # other systems, when no override is set

    return user_data_dir("deckcheck", appauthor=False)

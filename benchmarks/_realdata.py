"""Shared by the benchmark scripts: the real data folder, a card store imported from it once
(cached in the system temp folder), and the real .ydk corpus."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
CARDINFO = SHARED / "cards" / "ygoprodeck-cardinfo.zip"
DECKS = SHARED / "decks"


def need_data() -> None:
    if not CARDINFO.is_file() or not DECKS.is_dir():
        sys.exit(f"needs the real data folder {SHARED} (absent here)")


def store_path() -> Path:
    """A card store imported from the YGOPRODeck dump (imported on first use, then reused; one
    file per store schema, so that a store cached by an older deckcheck is not measured)."""
    from deckcheck.cards.store import SCHEMA

    path = (Path(tempfile.gettempdir())
            / f"deckcheck-bench-{CARDINFO.stat().st_size}-schema{SCHEMA}.sqlite")
    if not path.exists():
        from deckcheck.sources import ygoprodeck

        ygoprodeck.update(path, from_file=CARDINFO)
    return path


def ydk_files() -> list[Path]:
    return sorted(DECKS.rglob("*.ydk"))

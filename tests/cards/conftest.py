"""Fixtures of the card tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A store imported from the small YGOPRODeck fixture."""
    path = tmp_path / "cards.sqlite"
    import_sources(path, [read_source(FIX / "ygoprodeck_small.json")])
    return path

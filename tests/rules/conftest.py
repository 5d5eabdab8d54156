"""Fixtures for the rule tests; the hand-made cards and helpers are in `rulekit` (this folder
is put on sys.path so the tests can `import rulekit`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rulekit import make_pool  # noqa: E402

from deckcheck.cards.pool import MemoryPool  # noqa: E402


@pytest.fixture
def pool() -> MemoryPool:
    return make_pool()

"""Shared by the CLI tests: a card pool installed as the one every command opens. The cards
are made with `clikit.card` (this folder is put on sys.path so the tests can `import
clikit`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clikit import InstallPool  # noqa: E402

from deckcheck.cards.model import Card  # noqa: E402
from deckcheck.cards.pool import MemoryPool, PoolInfo  # noqa: E402


@pytest.fixture
def install_pool(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> InstallPool:
    """`install_pool(cards, extra_ids=None)`: these cards become the card pool every command
    opens, and the test runs in tmp_path."""

    def install(cards: Iterable[Card], extra_ids: dict[int, int] | None = None) -> MemoryPool:
        cards = list(cards)
        pool = MemoryPool(cards, PoolInfo(card_count=len(cards)), extra_ids=extra_ids)
        monkeypatch.setattr("deckcheck.cards.load.open_pool", lambda db=None: pool)
        monkeypatch.chdir(tmp_path)
        return pool

    return install

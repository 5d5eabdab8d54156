"""Optional pool features are declared protocol members: a pool with its own search is a
`SearchablePool`, and `search_pool` uses that search; other pools are searched card by card."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from deckcheck.cards.builtin import builtin_pool
from deckcheck.cards.model import Card
from deckcheck.cards.pool import CardPool, SearchablePool, search_pool
from deckcheck.cards.store import StorePool
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


def test_store_is_searchable_memory_pool_is_not(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    store = StorePool(db)
    try:
        assert isinstance(store, SearchablePool)
        assert isinstance(store, CardPool)
    finally:
        store.close()
    assert not isinstance(builtin_pool(), SearchablePool)


def test_search_pool_uses_the_pools_own_search() -> None:
    memory = builtin_pool()
    calls: list[tuple[str, int]] = []

    class Indexed:
        """The built-in pool with an own search that answers one fixed card."""

        def __init__(self) -> None:
            self.info = memory.info

        def __getattr__(self, name: str) -> object:
            return getattr(memory, name)

        def __iter__(self) -> Iterator[Card]:
            return iter(memory)

        def __len__(self) -> int:
            return len(memory)

        def search(self, query: str, limit: int = 20) -> list[Card]:
            calls.append((query, limit))
            return [next(iter(memory))]

    pool = Indexed()
    assert isinstance(pool, SearchablePool)
    assert search_pool(pool, "dark", 5) == [next(iter(memory))]
    assert calls == [("dark", 5)]
    # without an own search: every card whose name holds the query
    found = search_pool(memory, "dark magician", 5)
    assert found and all("dark magician" in c.name.casefold() for c in found)

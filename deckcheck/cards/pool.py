"""The card pool interface every other part of deckcheck uses, and an in-memory pool.

`CardPool` is what deck readers, the validator and the simulation core ask: a card by
passcode (alternate artworks and prerelease ids included), cards by name in any language,
"did you mean" suggestions. The SQLite store (`deckcheck.cards.store`) provides the same
interface over an imported database; `MemoryPool` serves the built-in card set and tests.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from deckcheck.cards.model import Card
from deckcheck.cards.names import normalize


class PoolInfo(BaseModel):
    """Where a pool's cards came from, for notices and `deckcheck cards info`."""

    model_config = ConfigDict(extra="forbid")

    builtin: bool = False
    sources: dict[str, str] = {}
    """source name -> version or date string"""
    card_count: int = 0
    imported_at: str | None = None
    path: str | None = None


@runtime_checkable
class CardPool(Protocol):
    info: PoolInfo

    def get(self, passcode: int) -> Card | None:
        """The card with this passcode, alternate-artwork or prerelease id; None if unknown."""

    def find_name(self, name: str) -> list[Card]:
        """Cards whose name in any language normalises like `name` (usually one)."""

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """The closest known names (English canonical names first) for an unknown name."""

    def by_konami_id(self, konami_id: int) -> Card | None: ...

    def with_rule_name(self, rule_name: str) -> list[Card]:
        """Every card that counts as `rule_name` for the copy limit."""

    def preload(self, passcodes: Iterable[int]) -> None:
        """Look these passcodes up in one go before `get` asks for each (the store: one query
        per deck); pools held in memory do nothing."""

    def __iter__(self) -> Iterator[Card]: ...

    def __len__(self) -> int: ...


class MemoryPool:
    """A `CardPool` held in memory: the built-in set, test fixtures, or a loaded store."""

    def __init__(self, cards: Iterable[Card], info: PoolInfo | None = None,
                 extra_ids: dict[int, int] | None = None) -> None:
        """`extra_ids` maps more ids (prerelease ids) to official passcodes."""
        self._cards: dict[int, Card] = {}
        self._ids: dict[int, Card] = {}
        self._names: dict[str, list[Card]] = {}
        self._konami: dict[int, Card] = {}
        self._rule: dict[str, list[Card]] = {}
        for card in cards:
            self._cards[card.passcode] = card
            for pc in card.all_passcodes:
                self._ids.setdefault(pc, card)
            self._ids[card.passcode] = card
            if card.konami_id is not None:
                self._konami[card.konami_id] = card
            keys = {normalize(card.name)} | {normalize(n) for n in card.names.values() if n}
            for key in keys:
                if key:
                    self._names.setdefault(key, []).append(card)
            self._rule.setdefault(card.rule_name, []).append(card)
        for extra, official in (extra_ids or {}).items():
            if extra not in self._ids and official in self._ids:
                self._ids[extra] = self._ids[official]
        self.info = info or PoolInfo(card_count=len(self._cards))
        self._suggest_keys: list[str] | None = None

    def get(self, passcode: int) -> Card | None:
        return self._ids.get(passcode)

    def find_name(self, name: str) -> list[Card]:
        return list(self._names.get(normalize(name), ()))

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        if self._suggest_keys is None:
            self._suggest_keys = list(self._names)
        key = normalize(name)
        close = difflib.get_close_matches(key, self._suggest_keys, n=limit * 2, cutoff=0.6)
        out: list[str] = []
        for k in close:
            for card in self._names[k]:
                if card.name not in out:
                    out.append(card.name)
        return out[:limit]

    def by_konami_id(self, konami_id: int) -> Card | None:
        return self._konami.get(konami_id)

    def with_rule_name(self, rule_name: str) -> list[Card]:
        return list(self._rule.get(rule_name, ()))

    def preload(self, passcodes: Iterable[int]) -> None:
        """Nothing to do: every card is in memory."""

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)


def search_pool(pool: CardPool, query: str, limit: int = 20) -> list[Card]:
    """Cards whose name in any language contains `query` (normalised), shortest names first.

    Uses the pool's own indexed `search` when it has one (the SQLite store does).
    """
    own = getattr(pool, "search", None)
    if callable(own):
        return list(own(query, limit))
    key = normalize(query)
    if not key:
        return []
    hits = [c for c in pool
            if any(key in normalize(n) for n in (c.name, *c.names.values()) if n)]
    hits.sort(key=lambda c: (len(c.name), c.name))
    return hits[:limit]

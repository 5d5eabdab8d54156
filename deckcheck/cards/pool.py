"""The card pool interface every other part of deckcheck uses, and an in-memory pool.

`CardPool` is what deck readers, the validator and the simulation core ask: a card by
passcode (alternate artworks and prerelease ids included), cards by name in any language,
"did you mean" suggestions. The SQLite store (`deckcheck.cards.store`) provides the same
interface over an imported database; `MemoryPool` serves the built-in card set and tests.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, runtime_checkable

from deckcheck.cards.model import UNOFFICIAL_IDS, Card
from deckcheck.cards.names import normalize
from deckcheck.cards.suggest import CANDIDATES, NameLines, TrigramIndex, rank, tier
from deckcheck.errors import CardPoolError
from deckcheck.plain import Plain


class PoolInfo(Plain):
    """Where a pool's cards came from, for notices and `deckcheck cards info`."""

    __slots__ = ("builtin", "sources", "card_count", "imported_at", "path", "covers")

    builtin: bool
    #: source name -> version or date string
    sources: dict[str, str]
    card_count: int
    imported_at: str | None
    path: str | None
    #: family of facts ("cards", "tcg", "ocg", "md") -> the last day the pool's data covers
    #: (`deckcheck.cards.coverage`); a family not here is taken as complete
    covers: dict[str, dt.date]

    def __init__(self, *, builtin: bool = False, sources: dict[str, str] | None = None,
                 card_count: int = 0, imported_at: str | None = None,
                 path: str | None = None, covers: dict[str, dt.date] | None = None) -> None:
        self.builtin = builtin
        self.sources = {} if sources is None else dict(sources)
        self.card_count = card_count
        self.imported_at = imported_at
        self.path = path
        self.covers = {} if covers is None else dict(covers)


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


@runtime_checkable
class SearchablePool(CardPool, Protocol):
    """A pool with its own (indexed) name search, which `search_pool` uses: the store has one;
    a pool without one is searched card by card."""

    def search(self, query: str, limit: int = 20) -> list[Card]:
        """Cards whose name in any language contains `query`, ranked as `search_pool` says."""


def name_keys(card: Card) -> list[str]:
    """The keys a card is found under: its English name's, then its other names' in
    `card.names` order (a pool's "did you mean" breaks ties between one card's names so)."""
    keys = (normalize(n) for n in (card.name, *card.names.values()) if n)
    return [k for k in dict.fromkeys(keys) if k]


class MemoryPool:
    """A `CardPool` held in memory: the built-in set, test fixtures, or a loaded store."""

    def __init__(self, cards: Iterable[Card], info: PoolInfo | None = None,
                 extra_ids: dict[int, int] | None = None) -> None:
        """`extra_ids` maps more ids (prerelease ids) to official passcodes."""
        self._cards: dict[int, Card] = {}
        self._ids: dict[int, Card] = {}
        #: normalised name -> cards, built on first use (a deck of passcodes never asks)
        self._names_index: dict[str, list[Card]] | None = None
        self._konami: dict[int, Card] = {}
        self._rule: dict[str, list[Card]] = {}
        for card in cards:
            self._cards[card.passcode] = card
            for pc in card.all_passcodes:
                self._ids.setdefault(pc, card)
            self._ids[card.passcode] = card
            if card.konami_id is not None:
                self._konami[card.konami_id] = card
            self._rule.setdefault(card.rule_name, []).append(card)
        for extra, official in (extra_ids or {}).items():
            if extra not in self._ids and official in self._ids:
                self._ids[extra] = self._ids[official]
        self.info = info or PoolInfo(card_count=len(self._cards))
        #: tier ("en", "all") -> trigram index and its names' cards, built on first use
        self._suggest: dict[str, tuple[TrigramIndex, dict[str, list[Card]]]] = {}

    def get(self, passcode: int) -> Card | None:
        return self._ids.get(passcode)

    @property
    def _names(self) -> dict[str, list[Card]]:
        if self._names_index is None:
            index: dict[str, list[Card]] = {}
            for card in self._cards.values():
                for key in name_keys(card):
                    index.setdefault(key, []).append(card)
            self._names_index = index
        return self._names_index

    def find_name(self, name: str) -> list[Card]:
        return list(self._names.get(normalize(name), ()))

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Closest names, the same way as every pool (`cards.suggest`)."""
        key = normalize(name)
        if not key:
            return []
        which = tier(key)
        if which not in self._suggest:
            by_key: dict[str, list[Card]] = {}
            if which == "en":
                for card in self._cards.values():
                    by_key.setdefault(normalize(card.name), []).append(card)
            else:
                by_key = self._names
            self._suggest[which] = (TrigramIndex(by_key), by_key)
        index, cards = self._suggest[which]
        out: list[str] = []
        for k in index.closest(key, limit * 3):
            for card in cards[k]:
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


class LineSuggester:
    """`suggest` for a pool whose names are also one text (the built-in pool): the first
    `SCANS` names from the text (`suggest_from_lines`: tens of milliseconds each, nothing
    built), later ones from the `MemoryPool` of every card (`memory`), whose index takes
    seconds to build once and milliseconds a name after: a process asked for many names (an
    event full of typos) pays that once. The same suggestions either way."""

    #: about where building the index once costs less than scanning for each later name
    SCANS = 40

    def __init__(self, lines: NameLines, memory: Callable[[], MemoryPool]) -> None:
        self.lines = lines
        self.memory = memory
        self.scans = 0

    def suggest(self, pool: CardPool, name: str, limit: int = 3) -> list[str]:
        if self.scans >= self.SCANS:
            return self.memory().suggest(name, limit)
        self.scans += 1
        return suggest_from_lines(pool, self.lines, name, limit)


def suggest_from_lines(pool: CardPool, lines: NameLines, name: str,
                       limit: int = 3) -> list[str]:
    """`MemoryPool.suggest` over a pool whose names are also one text (`NameLines`, the
    built-in pool's `builtin_names.tsv`), without indexing every name or parsing every card:
    the same candidates (`line_candidates`), so the same names in the same order."""
    key = normalize(name)
    if not key:
        return []
    chosen = line_candidates(pool, lines, key)
    out: list[str] = []
    for k in rank(key, chosen, limit * 3):
        for pc in chosen[k]:
            if _name(pool, pc) not in out:
                out.append(_name(pool, pc))
    return out[:limit]


def line_candidates(pool: CardPool, lines: NameLines, key: str) -> dict[str, list[int]]:
    """`TrigramIndex.candidates` of a `MemoryPool` of `pool`'s cards in passcode order, for a
    normalised name, with the passcodes of each candidate's cards (of the name's `tier`): the
    `CANDIDATES` keys sharing the most trigrams with it; on a tie, the key of the card of
    lowest passcode, then that card's `name_keys` order (as `MemoryPool` indexes them). Only
    the lines of the tied counts kept are read, and only the cards they name (for an ASCII
    name, whose candidates are English names) are looked up."""
    english = tier(key) == "en"
    by_count: dict[int, list[int]] = {}
    for end, count in lines.counts(key).items():
        by_count.setdefault(count, []).append(end)
    chosen: dict[str, list[int]] = {}
    for count in sorted(by_count, reverse=True):
        need = CANDIDATES - len(chosen)
        if need <= 0:
            break
        tied = [lines.line(end) for end in by_count[count]]
        chosen.update(_english_first(pool, tied, need) if english else _first(pool, tied, need))
    return chosen


def _first(pool: CardPool, tied: list[tuple[str, list[int]]],
           need: int) -> list[tuple[str, list[int]]]:
    """The `need` keys indexed first of keys tied on count: by lowest passcode, then one
    card's keys in `name_keys` order."""
    firsts = Counter(codes[0] for _, codes in tied)
    order = [(codes[0], name_keys(_card(pool, codes[0])).index(k) if firsts[codes[0]] > 1 else 0,
              k, codes) for k, codes in tied]
    order.sort(key=lambda t: t[:2])
    return [(k, codes) for _, _, k, codes in order[:need]]


def _english_first(pool: CardPool, tied: list[tuple[str, list[int]]],
                   need: int) -> list[tuple[str, list[int]]]:
    """The `need` English keys indexed first of keys tied on count, with the cards whose
    English name each is (a key's first passcode is the least its English card can have,
    so only the keys up to the last one taken are looked at)."""
    import heapq  # only for suggestions: not on the check path

    heap: list[tuple[int, bool, str, list[int]]] = [(codes[0], False, k, codes)
                                                    for k, codes in tied]
    heapq.heapify(heap)
    out: list[tuple[str, list[int]]] = []
    while heap and len(out) < need:
        first, english, k, codes = heapq.heappop(heap)
        if english:
            out.append((k, codes))
            continue
        codes = [pc for pc in codes if normalize(_name(pool, pc)) == k]
        if codes:
            heapq.heappush(heap, (codes[0], True, k, codes))
    return out


def _card(pool: CardPool, passcode: int) -> Card:
    card = pool.get(passcode)
    if card is None:
        raise CardPoolError(f"The card pool lists a name of card {passcode} but has no such "
                            "card; reinstall deckcheck or re-import the card data.")
    return card


def _name(pool: CardPool, passcode: int) -> str:
    return _card(pool, passcode).name


def search_pool(pool: CardPool, query: str, limit: int = 20) -> list[Card]:
    """Cards whose name in any language contains `query` (normalised), best first
    (`search_rank`), each card once.

    Uses the pool's own indexed `search` when it has one (the SQLite store does).
    """
    if isinstance(pool, SearchablePool):
        return list(pool.search(query, limit))
    key = normalize(query)
    if not key:
        return []
    word = " ".join(query.casefold().split())
    ranked = []
    for c in pool:
        keys = [normalize(n) for n in (c.name, *c.names.values()) if n]
        if any(key in k for k in keys):
            ranked.append((search_rank(key, word, c.name, keys), c.passcode >= UNOFFICIAL_IDS,
                           len(c.name), c.name, c))
    ranked.sort(key=lambda r: r[:4])
    return [r[4] for r in ranked[:limit]]


def search_rank(key: str, word: str, name: str, keys: list[str]) -> int:
    """0 an exact name, 1 the English name starts with the query as a word ("ash" in "Ash
    Blossom"), 2 it starts with the query, 3 a name in another language does, 4 a word of the
    English name starts with it, 5 the rest (the store's SQL orders the same way)."""
    low = name.casefold()
    if key in keys:
        return 0
    if low.startswith(word + " "):
        return 1
    if low.startswith(word):
        return 2
    if any(k.startswith(key) for k in keys):
        return 3
    if f" {word}" in low:
        return 4
    return 5


#: Scopes of cards no official TCG/OCG format allows: when a name also belongs to such a card,
#: a player writing it means the other one.
_NOT_PLAYED = frozenset({"anime", "rush", "unofficial", "custom", "skill", "speed"})


def narrow_by_name(written: str, cards: list[Card]) -> list[Card]:
    """The cards a player writing `written` most likely means, of several whose names
    normalise alike: those spelt exactly so ("Raimei", not "Rai-Mei"), then of those the
    cards official formats allow (not the anime, Rush Duel or Skill Card of the same name)."""
    unique = list({c.passcode: c for c in cards}.values())
    if len(unique) <= 1:
        return unique
    spelt = " ".join(written.casefold().split())
    same = [c for c in unique if spelt in {" ".join(n.casefold().split())
                                            for n in (c.name, *c.names.values()) if n}]
    if same:
        unique = same
    played = [c for c in unique if not c.scopes & _NOT_PLAYED and c.kind.value != "token"
              and c.passcode < UNOFFICIAL_IDS]
    return played if played else unique


def tell_apart(cards: list[Card]) -> list[str]:
    """Each card by name, and where names are the same, with what tells it from the others:
    "Mind Scan (Trap Card, 34298391, OCG only)"."""
    if len({c.name for c in cards}) == len(cards):
        return sorted(c.name for c in cards)
    out = []
    for c in sorted(cards, key=lambda c: (c.passcode >= UNOFFICIAL_IDS, c.passcode)):
        what = c.frame.value.replace("_", " ").title() + (
            " Monster" if c.kind.value == "monster" else " Card" if c.kind.value in (
                "spell", "trap", "skill") else "")
        extra = [s.replace("_", " ").replace("ocg only", "OCG only").replace(
            "tcg only", "TCG only") for s in sorted(c.scopes)]
        out.append(f"{c.name} ({', '.join([what, str(c.passcode), *extra])})")
    return out

""""Did you mean" on the built-in pool from its names file (`NameLines`, `line_candidates`)
gives the candidates and suggestions of the in-memory index (`TrigramIndex` over a
`MemoryPool` of every card: the algorithm the built-in pool used before), without parsing
every card."""

from __future__ import annotations

import random

import pytest

from deckcheck.cards.builtin import BuiltinPool
from deckcheck.cards.model import Card
from deckcheck.cards.names import normalize
from deckcheck.cards.pool import (
    LineSuggester,
    MemoryPool,
    line_candidates,
    name_keys,
    suggest_from_lines,
)
from deckcheck.cards.suggest import NameLines, TrigramIndex, tier, trigrams
from tests.cards.test_builtin import _fresh


def _mutations(cards: list[Card], seed: int, count: int) -> list[str]:
    """Real names made wrong as people write them: a letter dropped, two swapped, one
    doubled or replaced, the case changed, the end cut off; names in other languages cut
    short or with a character dropped."""
    rng = random.Random(seed)
    out: list[str] = []
    for card in rng.sample(cards, count):
        name = card.name
        i = rng.randrange(len(name))
        j = min(i + 1, len(name) - 1)
        out += [name[:i] + name[i + 1:],
                name[:i] + name[j] + name[i] + name[j + 1:],
                rng.choice([name.upper(), name.lower(), name[:i] + "e" + name[i + 1:],
                            name[:i] + name[i] + name[i:], name[:max(3, len(name) // 2)]])]
        other = [n for lang, n in card.names.items() if lang != "en" and n]
        if other:
            n = rng.choice(other)
            k = rng.randrange(len(n))
            out.append(rng.choice([n[:-1], n[:k] + n[k + 1:], n + "ー"]))
    return out


#: foreign and made-up names, short and long
_FIXED = ["存在しないカード", "ブルーアイズ", "灰流うらら", "增殖的G", "하루 우라라", "zzzz", "a",
          "xyz",
          "30000 year white turtle", "Number 39", "the", "Blue-Eyes White Dragun", "D/D/D",
          "Sky Striker Ace - Kagari & Shizuku", "ＡＳＨ ＢＬＯＳＳＯＭ", "Pot of Greed 2", "1000"]


@pytest.fixture(scope="module")
def pools() -> tuple[BuiltinPool, MemoryPool]:
    """A built-in pool that has parsed nothing, and the `MemoryPool` of every card (the old
    way: an index of every name)."""
    return _fresh(), _fresh()._all()


@pytest.fixture(scope="module")
def queries(pools: tuple[BuiltinPool, MemoryPool]) -> list[str]:
    return _FIXED + _mutations(list(pools[1]), seed=6, count=110)


def test_candidates_are_the_in_memory_index(pools: tuple[BuiltinPool, MemoryPool],
                                            queries: list[str]) -> None:
    lazy, memory = pools
    lines = NameLines(*lazy._names_file())
    en: dict[str, list[Card]] = {}
    for card in memory:
        en.setdefault(normalize(card.name), []).append(card)
    index = {"en": TrigramIndex(en), "all": TrigramIndex(memory._names)}
    by_key = {"en": en, "all": memory._names}
    assert len(queries) > 400
    for query in queries:
        key = normalize(query)
        which = tier(key)
        want = index[which].candidates(key)
        got = line_candidates(lazy, lines, key)
        assert sorted(got) == sorted(want), query
        assert all(got[k] == [c.passcode for c in by_key[which][k]] for k in got), query


def test_suggestions_are_the_in_memory_pools(pools: tuple[BuiltinPool, MemoryPool],
                                            queries: list[str]) -> None:
    lazy, memory = pools
    lines = NameLines(*lazy._names_file())
    for query in queries[:len(_FIXED) + 120]:
        assert suggest_from_lines(lazy, lines, query, 5) == memory.suggest(query, 5), query


def test_a_suggestion_parses_only_the_cards_it_needs() -> None:
    """The unknown Japanese name of ../shared/hostile: no card list of every card."""
    pool = _fresh()
    assert pool.suggest("存在しないカード") == []
    assert pool.suggest("灰流うららら") == ["Ash Blossom & Joyous Spring"]
    assert pool.suggest("ash blosom")[0] == "Ash Blossom & Joyous Spring"
    assert pool._memory is None
    assert len(pool._cards) < 1000


def _lines(cards: list[Card]) -> NameLines:
    """A names file as `builtin_names.tsv`, for these cards."""
    by_key: dict[str, list[int]] = {}
    for card in cards:
        for key in name_keys(card):
            by_key.setdefault(key, []).append(card.passcode)
    body = "".join(f"{k}\t{','.join(map(str, v))}\n" for k, v in sorted(by_key.items()))
    return NameLines(f"# header\n{body}".encode(), len("# header\n"))


def _card(passcode: int, name: str, **names: str) -> Card:
    return Card(passcode=passcode, name=name, names={"en": name, **names}, kind="spell",
                frame="spell", rule_name=name)


def test_counts_are_shared_trigrams_not_passcode_digits() -> None:
    """A trigram counts once per key, "^"/"$" only at a key's start/end, and the passcodes
    after the TAB never match (digits of a name do)."""
    cards = [_card(1230, "Dragon 123"), _card(4123, "dragon dragon"), _card(123, "a"),
             _card(7, "on"), _card(8, "Drag", ja="ドラゴン")]
    lines = _lines(cards)
    for query in ("dragon", "123", "a", "on", "n12", "ドラゴ", "q"):
        key = normalize(query)
        got = {lines.line(end)[0]: n for end, n in lines.counts(key).items()}
        want = {k: len(trigrams(key) & trigrams(k)) for c in cards for k in name_keys(c)}
        assert got == {k: n for k, n in want.items() if n}, query


def test_ties_past_the_candidates_go_to_the_lowest_passcode_then_the_cards_name_order() -> None:
    """301 names share one trigram with the name (more than the 200 candidates kept); the
    cut falls between the two names of one card: the same as the in-memory index."""
    cards = [_card(1, "ドラxx")]  # one name: the cut falls inside a card of two
    tails = [chr(0x4E00 + i) + chr(0x5E00 + i) for i in range(150)]
    cards += [_card(1000 - i, f"ドラ{tail}", ja=f"{tail}ゴン") for i, tail in enumerate(tails)]
    memory = MemoryPool(sorted(cards, key=lambda c: c.passcode))
    chosen = line_candidates(memory, _lines(cards), "ドラゴン")
    assert sorted(chosen) == sorted(TrigramIndex(memory._names).candidates("ドラゴン"))
    assert f"ドラ{tails[50]}" in chosen  # passcode 950, the 100th card: its first name in,
    assert f"{tails[50]}ゴン" not in chosen  # its second name cut
    for query in ("ドラゴン", "ドラ一帀", "dragon"):
        assert suggest_from_lines(memory, _lines(cards), query, 9) == memory.suggest(query, 9)


def test_many_names_in_one_process_build_the_index_once() -> None:
    """Past `SCANS` names the suggester asks the pool of every card (built once): the same
    names as before it."""
    cards = [_card(i, f"Card number {i}", ja=f"カード{i}") for i in range(1, 30)]
    memory = MemoryPool(cards)
    built: list[MemoryPool] = []

    def every_card() -> MemoryPool:
        built.append(memory)
        return memory

    suggester = LineSuggester(_lines(cards), every_card)
    queries = [f"card numbr {i}" for i in range(LineSuggester.SCANS)]
    scanned = [suggester.suggest(memory, q) for q in queries]
    assert built == []
    assert scanned == [memory.suggest(q) for q in queries]
    assert [suggester.suggest(memory, q) for q in queries + ["カード1"]] == scanned + [
        memory.suggest("カード1")]
    assert len(built) == len(queries) + 1 and memory._suggest

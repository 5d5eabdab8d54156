"""Hand-made cards, decks and pools for the simulation tests (facts only: names, types)."""

from __future__ import annotations

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.model import Deck, Entry, Location


def monster(pc: int, name: str, level: int = 4, frame: Frame = Frame.EFFECT,
            **kw: object) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.MONSTER, frame=frame, level=level,
                rule_name=name, **kw)  # type: ignore[arg-type]


def spell(pc: int, name: str, race: str = "Normal", **kw: object) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.SPELL, frame=Frame.SPELL, race=race,
                rule_name=name, **kw)  # type: ignore[arg-type]


def trap(pc: int, name: str, race: str = "Normal") -> Card:
    return Card(passcode=pc, name=name, kind=Kind.TRAP, frame=Frame.TRAP, race=race,
                rule_name=name)


def extra_monster(pc: int, name: str, frame: Frame = Frame.FUSION, level: int = 8) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.MONSTER, frame=frame, level=level,
                rule_name=name)


def token(pc: int, name: str) -> Card:
    return Card(passcode=pc, name=name, kind=Kind.TOKEN, frame=Frame.TOKEN, level=1,
                rule_name=name)


def fillers(n: int, start: int = 90000) -> list[Card]:
    """`n` different vanilla Level 4 monsters."""
    return [monster(start + i, f"Filler {i}") for i in range(n)]


def expand(spec: list[tuple[Card, int]]) -> list[Card]:
    return [c for c, n in spec for _ in range(n)]


def make_deck(main: list[tuple[Card, int]], extra: list[tuple[Card, int]] = (),  # type: ignore
              source: str = "test.ydk") -> Deck:
    line = 1
    entries: dict[str, list[Entry]] = {"main": [], "extra": []}
    for section, spec in (("main", main), ("extra", extra)):
        for card, n in spec:
            line += 1
            entries[section].append(Entry(passcode=card.passcode, written=str(card.passcode),
                                          count=n, location=Location(source=source, line=line)))
    return Deck(name="test", source=source, main=entries["main"], extra=entries["extra"])


def make_pool(*groups: list[Card] | Card) -> MemoryPool:
    cards: dict[int, Card] = {}
    for g in groups:
        for c in (g if isinstance(g, list) else [g]):
            cards[c.passcode] = c
    return MemoryPool(cards.values())


def arrangements(counts: dict[str, int]) -> list[tuple[str, ...]]:
    """Every distinct order of a multiset of cards (each equally likely after a shuffle): the
    independent enumeration the odds tests compare the engines with."""
    out: list[tuple[str, ...]] = []
    left = dict(counts)

    def rec(prefix: list[str]) -> None:
        if not any(left.values()):
            out.append(tuple(prefix))
            return
        for k in sorted(left):
            if left[k]:
                left[k] -= 1
                rec([*prefix, k])
                left[k] += 1

    rec([])
    return out

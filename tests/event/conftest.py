"""Fixtures for the event tests: the built-in card pool, decks built directly, a fake checker."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

import pytest

from deckcheck.decks.model import Deck, Entry, Location
from deckcheck.reports.model import Report, Violation

POT_OF_GREED = 55144522  # Forbidden in the fake checker below
ASH, ASH_ALT = 14558127, 14558128
MAXX_C, VEILER, IMPERM, CALLED, NIBIRU = 23434538, 97268402, 10045474, 24224830, 27204311
RAIGEKI, DARK_HOLE, REBORN = 12580477, 53129443, 83764718
ACCESSCODE, UNICORN, STARDUST = 86066372, 38342335, 44508094

Cards = Sequence[tuple[int, int]]


def make_deck(main: Cards = (), extra: Cards = (), side: Cards = (), *,
              source: str = "deck.ydk") -> Deck:
    """A deck from (passcode, count) pairs, each entry on its own line of `source`."""
    line = 0

    def entries(cards: Cards) -> list[Entry]:
        nonlocal line
        out = []
        for pc, n in cards:
            line += 1
            out.append(Entry(passcode=pc, written=str(pc), count=n,
                             location=Location(source=source, line=line)))
        return out

    return Deck(source=source, main=entries(main), extra=entries(extra), side=entries(side))


#: A 40-card main deck, 3-card extra deck, 2-card side deck of built-in cards.
LEGAL_MAIN: Cards = ((ASH, 3), (MAXX_C, 3), (VEILER, 3), (IMPERM, 3), (CALLED, 3),
                     (NIBIRU, 3), (RAIGEKI, 1), (DARK_HOLE, 2), (REBORN, 1),
                     (26202165, 3), (78010363, 3), (40640057, 3), (33508719, 3), (54652250, 3),
                     (71625222, 3))
LEGAL_EXTRA: Cards = ((ACCESSCODE, 1), (UNICORN, 1), (STARDUST, 1))
LEGAL_SIDE: Cards = ((94145021, 2),)


def fake_check(deck: Deck) -> Report:
    """A stand-in validator: main deck 40-60 cards, Pot of Greed forbidden."""
    violations = []
    size = deck.size("main")
    if not 40 <= size <= 60:
        violations.append(Violation(code="DC101", name="main-deck-size",
                                    message=f"The Main Deck has {size} cards; it needs 40 to 60.",
                                    section="main", count=size, limit=40))
    for section in ("main", "extra", "side"):
        for e in deck.section(section):  # type: ignore[arg-type]
            if e.passcode == POT_OF_GREED:
                violations.append(Violation(
                    code="DC201", name="forbidden", card="Pot of Greed", passcode=e.passcode,
                    section=section, count=e.count, limit=0, location=e.location,
                    message=f"Pot of Greed is Forbidden ({e.count} in the {section} deck)."))
    return Report(deck=deck.source or "?", verdict="illegal" if violations else "legal",
                  format="tcg", banlist="test list", date="2026-12-05",
                  sizes={s: deck.size(s) for s in ("main", "extra", "side")},  # type: ignore[arg-type]
                  violations=violations)


@pytest.fixture
def kit() -> SimpleNamespace:
    """The helpers above as one object (test modules cannot import conftest)."""
    return SimpleNamespace(
        make_deck=make_deck, fake_check=fake_check, LEGAL_MAIN=LEGAL_MAIN,
        LEGAL_EXTRA=LEGAL_EXTRA, LEGAL_SIDE=LEGAL_SIDE, POT_OF_GREED=POT_OF_GREED, ASH=ASH,
        ASH_ALT=ASH_ALT, MAXX_C=MAXX_C, VEILER=VEILER, NIBIRU=NIBIRU, ACCESSCODE=ACCESSCODE)


@pytest.fixture
def pool():  # type: ignore[no-untyped-def]
    from deckcheck.cards.builtin import builtin_pool

    return builtin_pool()

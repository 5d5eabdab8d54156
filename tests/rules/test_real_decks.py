"""Real decks (../shared/data/decks): every .ydk gets a verdict under the 2026.05 TCG list,
against the full YGOPRODeck card pool imported into a temporary store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.fixture(scope="module")
def real_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The YGOPRODeck dump imported into a temporary store (once for this module)."""
    dump = SHARED / "cards" / "ygoprodeck-cardinfo.zip"
    if not dump.is_file():
        pytest.skip("../shared/data is not present (real-data test)")
    from deckcheck.cards.store import StorePool
    from deckcheck.imports.update import update_ygoprodeck

    path = tmp_path_factory.mktemp("realpool") / "cards.sqlite"
    update_ygoprodeck(path, from_file=dump)
    pool = StorePool(path)
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def tcg() -> Any:
    from deckcheck.formats import load_format

    fmt = load_format("tcg")
    assert fmt.banlist_at(fmt.list_dates()[-1]).name == "2026.05 TCG"
    return fmt


def test_every_real_ydk_deck_gets_a_verdict(shared_data: Path, real_pool: Any, tcg: Any) -> None:
    from deckcheck.checker import Checker
    from deckcheck.decks.files import read_decks
    from deckcheck.errors import DeckReadError

    checker = Checker(tcg, "2026-06-01", pool=real_pool)
    assert checker.banlist is not None and checker.banlist.name == "2026.05 TCG"
    files = sorted((shared_data / "decks").rglob("*.ydk"))
    assert len(files) > 3000
    verdicts: dict[str, int] = {}
    flagged: dict[str, int] = {}
    unreadable = 0
    for path in files:
        try:
            decks = read_decks(str(path), real_pool)
        except DeckReadError:  # a file that is not a deck at all: "could not check"
            unreadable += 1
            continue
        for deck in decks:
            r = checker.check(deck)
            verdicts[r.verdict] = verdicts.get(r.verdict, 0) + 1
            assert r.sizes == {s: deck.size(s) for s in ("main", "extra", "side")}
            assert (r.verdict == "illegal") == any(v.severity == "error" for v in r.violations)
            if deck.size("main") < 40:
                assert "DC101" in {v.code for v in r.violations}, path
            for v in r.violations:
                flagged[v.code] = flagged.get(v.code, 0) + 1
                assert v.message.endswith("."), v
                if v.place:  # every location points into the deck's own file
                    assert v.place.startswith(r.deck), (v.place, r.deck)
    assert unreadable <= 5
    assert set(verdicts) <= {"legal", "illegal"}
    assert verdicts.get("legal", 0) > 100 and verdicts.get("illegal", 0) > 100
    # Old lists allowed what 2026.05 forbids; anime decks use unknown ids.
    assert flagged.get("DC202", 0) > 100 and flagged.get("DC401", 0) > 0


def test_a_real_forbidden_card_and_alternate_artwork(real_pool: Any, tcg: Any) -> None:
    from deckcheck.checker import check
    from deckcheck.decks.model import Deck, Entry, Location

    def entry(pc: int, line: int) -> Entry:
        return Entry(passcode=pc, written=str(pc), location=Location(source="d.ydk", line=line))

    # Maxx "C" (23434538) is Forbidden in the 2026.05 TCG list; Ash Blossom & Joyous Spring's
    # alternate artwork 14558128 counts with 14558127.
    deck = Deck(source="d.ydk", main=[entry(23434538, 2)] + [entry(14558127, 3 + i)
                                                            for i in range(3)],
                side=[entry(14558128, 7)])
    r = check(deck, tcg, "2026-06-01", pool=real_pool, select=["DC2"])
    assert [(v.code, v.card, v.place) for v in r.violations] == [
        ("DC202", 'Maxx "C"', "d.ydk:2"),
        ("DC201", "Ash Blossom & Joyous Spring", "d.ydk:7")]

from __future__ import annotations

from rulekit import ANIME, FILLER, OCG_ONLY, card, codes, deck, only, run, tcg

from deckcheck.cards.model import Card
from deckcheck.cards.pool import MemoryPool


def test_ocg_only_card_passes_in_ocg() -> None:
    ocg = tcg(id="ocg", name="OCG", region="ocg", excluded_scopes=["tcg_only", "anime"])
    assert codes(run(deck([(OCG_ONLY, 1)]), ocg)) == []


def test_ocg_only_card_fails_in_tcg() -> None:
    v = only(run(deck([(OCG_ONLY, 1)])), "DC403")
    assert v.message == "Test OCG-only Monster is an OCG-only card, not legal in TCG Advanced."


def test_anime_card_fails() -> None:
    v = only(run(deck(side=[(ANIME, 1)])), "DC403")
    assert v.message == "Test Anime Card is an anime or manga card, not legal in TCG Advanced."


def _md_pool(*cards: Card) -> MemoryPool:
    fill = [card(c.passcode, c.name, c.frame, master_duel=True) for c in FILLER]
    return MemoryPool([*fill, *cards])


MD = tcg(id="master-duel", name="Master Duel", region="md",
         excluded_scopes=["anime", "rush", "speed", "skill", "unofficial"])


def test_card_not_in_master_duel_fails_there() -> None:
    absent = card(99900005, "Test Paper-only Card", master_duel=False)
    present = card(99900006, "Test Master Duel Card", master_duel=True)
    r = run(deck([(absent, 2), (present, 1)], fill=37), MD, pool=_md_pool(absent, present))
    v = only(r, "DC403")
    assert v.message == ("Test Paper-only Card is not in Master Duel's card pool, not legal in "
                         "Master Duel (also at line 40).")
    assert v.count == 2
    assert not any("no Master Duel data" in n for n in r.notices)


def test_cards_without_master_duel_data_get_one_counted_notice() -> None:
    # a pool with no Master Duel data at all: one notice, no wall of errors
    r = run(deck(), MD)
    assert codes(r) == []
    assert [n for n in r.notices if "Master Duel data" in n] == [
        "40 cards have no Master Duel data in this card pool; whether they are in Master Duel "
        "was not checked (`deckcheck cards import` a YGOJSON archive to add it)."]


def test_unofficial_ids_say_what_they_are() -> None:
    pre = card(101402024, "Test Announced Card", scopes=frozenset({"unofficial", "prerelease"}))
    custom = card(511000001, "Test Custom Card", scopes=frozenset({"unofficial", "custom"}))
    plain = card(100200293, "Test Unprinted Card", scopes=frozenset({"unofficial"}))
    pool = MemoryPool([*FILLER, pre, custom, plain])
    r = run(deck([(pre, 1), (custom, 1), (plain, 1)], fill=37), pool=pool)
    assert sorted(v.message for v in r.violations if v.code == "DC403") == [
        "Test Announced Card is a prerelease card without an official passcode yet, not legal "
        "in TCG Advanced.",
        "Test Custom Card is a custom card, not legal in TCG Advanced.",
        "Test Unprinted Card is a card with no official printing under this id (100200293: an "
        "announced card before its passcode, an anime or a custom card), not legal in TCG "
        "Advanced."]

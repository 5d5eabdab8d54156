from __future__ import annotations

from rulekit import ANIME, OCG_ONLY, codes, deck, only, run, tcg


def test_ocg_only_card_passes_in_ocg() -> None:
    ocg = tcg(id="ocg", name="OCG", region="ocg", excluded_scopes=["tcg_only", "anime"])
    assert codes(run(deck([(OCG_ONLY, 1)]), ocg)) == []


def test_ocg_only_card_fails_in_tcg() -> None:
    v = only(run(deck([(OCG_ONLY, 1)])), "DC403")
    assert v.message == "Test OCG-only Monster is an OCG-only card, not legal in TCG Advanced."


def test_anime_card_fails() -> None:
    v = only(run(deck(side=[(ANIME, 1)])), "DC403")
    assert v.message == "Test Anime Card is an anime or manga card, not legal in TCG Advanced."

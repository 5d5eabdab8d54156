from __future__ import annotations

import datetime as dt

from rulekit import ASH, BLUE_EYES, FILLER, POT, codes, deck, only, run, tcg

from deckcheck.formats.model import Banlist, BanlistEntry


def goat() -> object:
    listed = [BanlistEntry(passcode=c.passcode, limit=3) for c in FILLER]
    listed += [BanlistEntry(passcode=BLUE_EYES.passcode, limit=3),
               BanlistEntry(passcode=POT.passcode, limit=1)]
    return tcg(id="goat", name="GOAT", list_mode="whitelist", history=[
        Banlist(name="GOAT", format="goat", effective=dt.date(2005, 4, 1), whitelist=True,
                entries=listed)])


def test_listed_cards_pass() -> None:
    assert codes(run(deck([(BLUE_EYES, 3), (POT, 1)]), goat())) == []


def test_unlisted_card_fails_and_listed_limits_still_apply() -> None:
    r = run(deck([(ASH, 1), (POT, 2)]), goat())
    v = only(r, "DC205")
    assert (v.card, v.count, v.limit) == ("Ash Blossom & Joyous Spring", 1, 0)
    assert v.message == ("Ash Blossom & Joyous Spring is not on the GOAT list, and GOAT allows "
                         "only the cards it lists.")
    assert only(r, "DC203").count == 2


def test_whitelist_off_means_unlisted_is_unlimited() -> None:
    assert codes(run(deck([(ASH, 1)]))) == []

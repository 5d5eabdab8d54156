from __future__ import annotations

import datetime as dt

import pytest

from deckcheck.errors import FormatError
from deckcheck.formats import ygoprodeck_banlist

CARDINFO = {"data": [
    {"id": 55144522, "name": "Pot of Greed",
     "banlist_info": {"ban_tcg": "Forbidden", "ban_ocg": "Forbidden", "ban_goat": "Banned"},
     "card_images": [{"id": 55144522}]},
    {"id": 83764718, "name": "Monster Reborn",
     "banlist_info": {"ban_tcg": "Limited", "ban_goat": "Limited"},
     "card_images": [{"id": 83764718}, {"id": 83764719}]},
    {"id": 14558127, "name": "Ash Blossom & Joyous Spring",
     "banlist_info": {"ban_ocg": "Semi-Limited"}},
    {"id": 21044178, "name": "Abyss Dweller"},
]}


def test_banlist_info_becomes_one_list_per_key() -> None:
    lists = ygoprodeck_banlist.banlists(CARDINFO, effective=dt.date(2026, 5, 18))
    got = {b.format: b.limits() for b in lists}
    assert got == {"tcg": {55144522: 0, 83764718: 1},
                   "ocg": {55144522: 0, 14558127: 2},
                   "goat": {55144522: 0, 83764718: 1}}
    assert lists[0].name == "YGOPRODeck TCG 2026-05-18"


def test_alternate_artwork_ids() -> None:
    assert ygoprodeck_banlist.alt_ids(CARDINFO)[83764719] == 83764718


def test_unknown_status_and_shape() -> None:
    with pytest.raises(FormatError, match="unknown ban_tcg status 'Gone'"):
        ygoprodeck_banlist.limits({"data": [{"id": 1, "name": "X",
                                     "banlist_info": {"ban_tcg": "Gone"}}]}, "ban_tcg")
    with pytest.raises(FormatError, match="not a YGOPRODeck cardinfo"):
        ygoprodeck_banlist.limits({"cards": []}, "ban_tcg")

from __future__ import annotations

import datetime as dt

import pytest

from deckcheck.errors import FormatError
from deckcheck.formats import konami

DAY = dt.date(2026, 5, 18)


def test_vector_maps_konami_ids_to_passcodes(pool) -> None:
    day, reg = konami.parse_vector({"date": "2026-05-18",
                                    "regulation": {"10180": 0, "4844": 1, "12950": 2}})
    assert day == DAY
    bl = konami.from_vector(reg, pool, name="2026.05.18 TCG", format="tcg", effective=day)
    assert bl.limits() == {21044178: 0, 55144522: 1, 14558127: 2}
    assert {e.name for e in bl.entries} == {"Abyss Dweller", "Pot of Greed",
                                            "Ash Blossom & Joyous Spring"}


def test_points_vector(pool) -> None:
    bl = konami.from_vector({4837: 5, 10180: 100}, pool, name="g", format="ocg-genesys",
                            effective=DAY, points=True)
    assert bl.points() == {83764718: 5, 21044178: 100} and bl.limits() == {}


def test_unknown_konami_id_is_reported_not_dropped(pool) -> None:
    with pytest.raises(konami.UnmappedCards) as info:
        konami.from_vector({10180: 0, 99999: 1}, pool, name="L", format="tcg", effective=DAY)
    assert info.value.missing == ["Konami id 99999"]
    assert "1 card(s) are not in the card pool (Konami id 99999)" in str(info.value)


def test_names_map_through_the_pool(pool) -> None:
    bl = konami.from_names({"Pot of Greed": 0, "ash blossom and joyous spring": "2"}, pool,
                           name="n", format="ocg", effective=DAY)
    assert bl.limits() == {55144522: 0, 14558127: 2}
    with pytest.raises(konami.UnmappedCards):
        konami.from_names({"No Such Card": 0}, pool, name="n", format="ocg", effective=DAY)


def test_bad_vector_documents() -> None:
    with pytest.raises(FormatError, match="not a Konami-id list"):
        konami.parse_vector({"date": "2026-05-18"}, "v.json")
    with pytest.raises(FormatError, match="not a date"):
        konami.parse_vector({"date": "soon", "regulation": {}}, "v.json")


def test_to_vector_round_trip(pool) -> None:
    bl = konami.from_vector({10180: 0, 4844: 1}, pool, name="x", format="tcg", effective=DAY)
    assert konami.to_vector(bl, pool) == {"date": "2026-05-18",
                                          "regulation": {"10180": 0, "4844": 1}}

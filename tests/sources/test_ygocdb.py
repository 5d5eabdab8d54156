"""ygocdb (百鸽) cards.json importer on a hand-written fixture of four cards."""

from __future__ import annotations

import zipfile
from pathlib import Path

from deckcheck.cards.model import Frame, Kind
from deckcheck.cards.store import StorePool
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source

FIX = Path(__file__).parent / "fixtures"


def test_records_and_packing() -> None:
    data = read_source(FIX / "ygocdb_small.json")
    assert data.name == "ygocdb"
    by = {r["passcode"]: r for r in data.records}
    odd = by[16178681]
    assert odd["frame"] == "effect_pendulum" and odd["level"] == 7 and odd["scale"] == 4
    assert odd["race"] == "Dragon" and odd["attribute"] == "DARK"
    assert odd["names"]["nwbbs_n"] == "异色眼钟摆龙" and "sc_name" not in odd["names"]
    ash = by[14558127]
    assert ash["monster_types"] == ["Tuner", "Effect"] and ash["race"] == "Zombie"
    assert ash["konami_id"] == 12950 and ash["names"]["ja"] == "灰流うらら"


def test_alone_and_zip(tmp_path: Path) -> None:
    z = tmp_path / "cards.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.write(FIX / "ygocdb_small.json", "cards.json")
    db = tmp_path / "c.sqlite"
    import_sources(db, [read_source(z)])
    pool = StorePool(db)
    assert len(pool) == 4
    lemuria = pool.get(34103656)
    assert lemuria.kind is Kind.SPELL and lemuria.race == "Field" and lemuria.frame is Frame.SPELL
    assert lemuria.rule_name == "Umi" and lemuria.rule_name_evidence == {"ygocdb-text": "Umi"}
    for key in ("遗忘都市 雷姆利亚", "遗忘之都 雷穆利亚", "忘却の都 レミューリア"):
        assert [c.passcode for c in pool.find_name(key)] == [34103656]
    assert lemuria.names["zh-CN"] == "遗忘之都 雷穆利亚"


def test_adds_community_names_to_ygoprodeck(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    import_sources(db, [read_source(FIX / "ygocdb_small.json")])
    pool = StorePool(db)
    odd = pool.find_name("异色眼钟摆龙")
    assert [c.passcode for c in odd] == [16178681]
    assert odd[0].names["cnocg_n"] == "异色眼灵摆龙" and odd[0].name == "Odd-Eyes Pendulum Dragon"

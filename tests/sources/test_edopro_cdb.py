"""EDOPro cards.cdb importer on cdb files built in the test, and mappings.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.cards.model import Frame, Kind
from deckcheck.cards.store import StorePool
from deckcheck.errors import ImportFailed
from deckcheck.imports.run import import_sources
from deckcheck.sources import edopro_cdb, read_source

FIX = Path(__file__).parent / "fixtures"
M, EFF, XYZ, LINK, PEND = 0x1, 0x20, 0x800000, 0x4000000, 0x1000000
SPELL, FIELD, TUNER = 0x2, 0x80000, 0x1000
ARROWS = 0x80 | 0x1 | 0x4  # Top, Bottom-Left, Bottom-Right
ROWS = [
    # id, ot, alias, type, atk, def, level, race, attribute, name, desc
    (22702055, 3, 0, SPELL | FIELD, 0, 0, 0, 0, 0, "Umi", "Fish gain ATK."),
    (295517, 3, 22702055, SPELL | FIELD, 0, 0, 0, 0, 0, "A Legendary Ocean", "WATER gain ATK."),
    (1861629, 3, 0, M | EFF | LINK, 2300, ARROWS, 3, 0x1000000, 0x20, "Decode Talker", "2+"),
    (1861630, 3, 1861629, M | EFF | LINK, 2300, ARROWS, 3, 0x1000000, 0x20, "Decode Talker",
     "2+"),
    (16178681, 1, 0, M | EFF | PEND, 2500, 2000, (4 << 24) | (4 << 16) | 7, 0x2000, 0x20,
     "Odd-Eyes Pendulum Dragon", "Pendulum."),
    (84013237, 2, 0, M | EFF | XYZ, 2500, 2000, 4, 0x1, 0x10, "Number 39: Utopia", "2 Level 4"),
    (100200001, 0x100 | 3, 0, M | EFF | TUNER, -2, 1000, 3, 0x8, 0x4, "Prerelease Tuner", "Tuner."),
]


def test_decode(cdb_factory) -> None:  # type: ignore[no-untyped-def]
    recs = {r["passcode"]: r for r in edopro_cdb.parse(cdb_factory(ROWS))}
    link = recs[1861629]
    assert link["frame"] == "link" and link["link_rating"] == 3
    assert link["link_arrows"] == ["Bottom-Left", "Bottom-Right", "Top"]
    assert link["race"] == "Cyberse" and link["attribute"] == "DARK"
    odd = recs[16178681]
    assert odd["frame"] == "effect_pendulum" and odd["level"] == 7 and odd["scale"] == 4
    assert odd["scopes"] == ["ocg_only"] and odd["race"] == "Dragon"
    utopia = recs[84013237]
    assert utopia["rank"] == 4 and "level" not in utopia and utopia["scopes"] == ["tcg_only"]
    pre = recs[100200001]
    assert pre["atk"] is None and pre["scopes"] == ["prerelease"]
    assert pre["monster_types"] == ["Tuner", "Effect"]
    assert recs[22702055]["race"] == "Field"


def test_alias_same_name_is_alt_art_other_name_is_rule(  # type: ignore[no-untyped-def]
        cdb_factory, tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    data = read_source(cdb_factory(ROWS))
    assert data.name == "edopro:cards.cdb"
    import_sources(db, [data])
    pool = StorePool(db)
    assert pool.get(1861630).passcode == 1861629
    assert pool.get(1861629).alt_passcodes == (1861630,)
    ocean = pool.get(295517)
    assert ocean.alt_passcodes == () and ocean.rule_name == "Umi"
    assert ocean.rule_name_evidence == {"edopro-alias": "Umi", "edopro-text": "A Legendary Ocean"}
    assert len(pool) == 6


def test_mappings(cdb_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "c.sqlite"
    import_sources(db, [read_source(cdb_factory(ROWS))])
    official = ROWS[:6] + [(33333333, 3, 0, M | EFF | TUNER, 0, 1000, 3, 0x8, 0x4,
                            "Official Tuner", "Tuner.")]
    import_sources(db, [read_source(cdb_factory(official, "other.cdb"))])
    mp = tmp_path / "mappings.json"
    mp.write_text(json.dumps({"mappings": [[100200001, 33333333]]}), encoding="utf-8")
    data = read_source(mp)
    assert data.name == "edopro-mappings"
    import_sources(db, [data])
    pool = StorePool(db)
    assert pool.get(100200001).passcode == 33333333
    assert pool.get(100200001).alt_passcodes == ()
    assert pool.find_name("Prerelease Tuner")[0].passcode == 33333333


def test_mappings_alone_make_no_cards(tmp_path: Path) -> None:
    mp = tmp_path / "m.json"
    mp.write_text(json.dumps({"mappings": [[100200001, 33333333]]}), encoding="utf-8")
    with pytest.raises(ImportFailed, match="no complete cards"):
        import_sources(tmp_path / "c.sqlite", [read_source(mp)])
    assert not (tmp_path / "c.sqlite").exists()


def test_not_a_cdb(tmp_path: Path) -> None:
    import sqlite3

    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x(a)").connection.close()
    with pytest.raises(ImportFailed, match="not a YGOPro card database"):
        read_source(other)


def test_kinds_from_type_bits() -> None:
    assert edopro_cdb.decode(1, 3, 0x4000 | 0x11, 0, 0, 1, 1, 1)["kind"] == "token"
    assert edopro_cdb.decode(1, 3, 0x8000000, 0, 0, 0, 0, 0)["frame"] == "skill"
    trap = edopro_cdb.decode(1, 3, 0x4 | 0x100000, 0, 0, 0, 0, 0)
    assert trap["kind"] == "trap" and trap["race"] == "Counter"
    rush = edopro_cdb.decode(1, 0x200, 0x11, 1000, 1000, 4, 1, 1)
    assert "rush" in rush["scopes"] and rush["frame"] == "normal"
    assert edopro_cdb.decode(1, 0x10, 0x11, 0, 0, 1, 1, 1)["scopes"] == ["unofficial"]  # video game
    assert edopro_cdb.decode(1, 0x4, 0x11, 0, 0, 1, 1, 1)["scopes"] == ["anime"]
    assert Kind.TRAP.value == trap["kind"] and Frame("normal")


@pytest.mark.parametrize(("race", "attribute", "names"), [
    # EDOPro's constant.lua: RACE_* and ATTRIBUTE_* bits
    (0x4, 0x2, ("Fairy", "WATER")), (0x8, 0x1, ("Fiend", "EARTH")),
    (0x10, 0x20, ("Zombie", "DARK")), (0x200, 0x8, ("Winged Beast", "WIND")),
    (0x100000, 0x10, ("Psychic", "LIGHT")), (0x800000, 0x4, ("Wyrm", "FIRE")),
    (0x200000, 0x40, ("Divine-Beast", "DIVINE")),
])
def test_race_and_attribute_bits(race: int, attribute: int, names: tuple[str, str]) -> None:
    rec = edopro_cdb.decode(1, 3, 0x11, 0, 0, 4, race, attribute)
    assert (rec["race"], rec["attribute"]) == names


def test_zip_holding_a_cdb(cdb_factory, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import zipfile

    z = tmp_path / "download.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.write(cdb_factory(ROWS), "cards.cdb")
    data = read_source(z)
    assert data.name == "edopro:cards.cdb" and len(data.records) == len(ROWS)


def test_cdb_bomb_in_a_zip_is_refused_quickly(tmp_path: Path, unpacked: list[str]) -> None:
    import zipfile

    path = tmp_path / "cards.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("cards.cdb", "w", force_zip64=True) as f:
            chunk = b"\0" * (1 << 20)
            for _ in range(512):  # 512 MB of zeros, under a MB packed
                f.write(chunk)
    with pytest.raises(ImportFailed, match=r"cards\.zip: cards\.cdb would unpack to 537 MB"):
        read_source(path)
    assert unpacked == []  # refused from the archive's directory: nothing unpacked
    assert list(tmp_path.iterdir()) == [path]


def test_white_space_around_a_name_is_not_part_of_it(  # type: ignore[no-untyped-def]
        cdb_factory) -> None:
    """Real unofficial cdbs hold "Reflect Bounder (Anime)\\r\\n" and "\\tUmbra & Lumis"; a
    name of white space only is no name (the row is skipped, as an empty one)."""
    rows = [(511020012, 4, 0, M | EFF, 1700, 1000, 4, 0x20, 0x10,
             "Reflect Bounder (Anime)\r\n", "Anime."),
            (301131072, 4, 0, M, 0, 0, 1, 0x1, 0x1, "\tUmbra & Lumis", "Skill."),
            (301262144, 4, 0, M, 0, 0, 1, 0x1, 0x1, " \t\r\n", "No name.")]
    recs = {r["passcode"]: r for r in edopro_cdb.parse(cdb_factory(rows))}
    assert sorted(recs) == [301131072, 511020012]
    assert recs[511020012]["name"] == "Reflect Bounder (Anime)"
    assert recs[511020012]["names"] == {"en": "Reflect Bounder (Anime)"}
    assert recs[301131072]["name"] == "Umbra & Lumis"

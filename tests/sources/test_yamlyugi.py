"""YAML Yugi importer: names in many languages, merged with YGOPRODeck."""

from __future__ import annotations

from pathlib import Path

from deckcheck.cards.store import StorePool
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source, yamlyugi

FIX = Path(__file__).parent / "fixtures"


def test_records() -> None:
    data = read_source(FIX / "yamlyugi_small.json")
    assert data.name == "yaml-yugi"
    by = {r["passcode"]: r for r in data.records}
    assert 14558127 in by and len(by) == 6  # the card without a password is skipped
    ash = by[14558127]
    assert ash["names"]["ja"] == "灰流うらら" and "ja_romaji" not in ash["names"]
    assert ash["monster_types"] == ["Tuner", "Effect"] and ash["race"] == "Zombie"
    assert by[12345678]["scopes"] == ["ocg_only"] and by[12345678]["kind"] == "trap"


def test_monster_frames_from_the_type_line() -> None:
    def frame(line: str, **kw: object) -> tuple[str, str]:
        rec = yamlyugi.card_record({"password": 1, "name": {"en": "X"}, "card_type": "Monster",
                                    "monster_type_line": line, **kw})
        assert rec is not None
        return rec["kind"], rec["frame"]

    assert frame("Dragon / Pendulum / Effect", pendulum_scale=4) == ("monster", "effect_pendulum")
    assert frame("Dragon / Xyz / Pendulum / Effect", rank=4) == ("monster", "xyz_pendulum")
    assert frame("Cyberse / Link / Effect", link_arrows=["Top"]) == ("monster", "link")
    assert frame("Spellcaster / Normal") == ("monster", "normal")
    assert frame("Beast / Token") == ("token", "token")
    assert frame("Zombie / Tuner / Effect") == ("monster", "effect")


def test_strip_ruby() -> None:
    assert yamlyugi.strip_ruby("<ruby>灰<rt>は</rt></ruby>流うらら") == "灰流うらら"


def test_merge_with_ygoprodeck(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    pool = StorePool(db)
    for name in ("灰流丽", "灰流うらら", "灰流麗", "ash blossom & joyous spring", "하루 우라라"):
        assert [c.passcode for c in pool.find_name(name)] == [14558127], name
    ash = pool.get(14558127)
    assert ash.konami_id == 12950 and ash.archetypes == ("Yo-kai Girl",)
    assert ash.atk == 0 and ash.defense == 1800  # YGOPRODeck's facts kept
    # a YAML-Yugi-only card with a password is added; Japanese name evidence resolves
    only = pool.get(12345678)
    assert only is not None and only.name == "Only In Yaml" and "ocg_only" in only.scopes
    harpie = pool.get(91932350)
    assert harpie.rule_name == "Harpie Lady"
    assert harpie.rule_name_evidence["yaml-yugi-text-ja"] == "Harpie Lady"
    ocean = pool.get(295517)
    assert ocean.rule_name_evidence["yaml-yugi-text-zh-CN"] == "Umi"
    assert len(pool) == 19


def test_an_id_sqlite_cannot_hold_is_one_sentence(tmp_path: Path) -> None:
    import json

    import pytest

    from deckcheck.errors import ImportFailed

    raw = json.loads((FIX / "yamlyugi_small.json").read_text(encoding="utf-8"))
    raw[1]["password"] = 12345678901234567890
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"cards\.json: record #2 has the id "
                                           r"12345678901234567890, which is not a passcode"):
        import_sources(tmp_path / "cards.sqlite", [read_source(path)])
    assert not (tmp_path / "cards.sqlite").exists()


def test_master_duel_from_the_rarity() -> None:
    """Only cards in Master Duel carry a `master_duel_rarity`; the rest are not in it."""
    base = {"password": 1, "name": {"en": "X"}, "card_type": "Spell", "property": "Normal"}
    assert yamlyugi.card_record({**base, "master_duel_rarity": "UR"})["master_duel"] is True  # type: ignore[index]
    assert yamlyugi.card_record(base)["master_duel"] is False  # type: ignore[index]

"""YGOPRODeck v7 importer on a hand-written dump."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from deckcheck.cards.model import Frame, Kind
from deckcheck.cards.store import StorePool
from deckcheck.errors import ImportFailed
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source, ygoprodeck

FIXTURE = Path(__file__).parent / "fixtures" / "ygoprodeck_small.json"


@pytest.fixture
def pool(tmp_path: Path) -> StorePool:
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIXTURE)])
    return StorePool(db)


def test_recognised_by_content() -> None:
    data = read_source(FIXTURE)
    assert data.name == "ygoprodeck"
    assert len(data.records) == 18


def test_zip_with_cardinfo_json(tmp_path: Path) -> None:
    z = tmp_path / "anything.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("__MACOSX/._cardinfo.json", b"\x00junk")
        zf.writestr("cardinfo.json", FIXTURE.read_bytes())
    assert read_source(z).name == "ygoprodeck"
    assert len(ygoprodeck.load_file(z)["data"]) == 18


def test_fields(pool: StorePool) -> None:
    dm = pool.get(46986414)
    assert dm is not None and dm.kind is Kind.MONSTER and dm.frame is Frame.NORMAL
    assert dm.alt_passcodes == (46986415, 46986416)
    assert dm.konami_id == 4041 and dm.released["tcg"].isoformat() == "2002-03-08"
    assert dm.monster_types == ("Normal",) and dm.race == "Spellcaster" and dm.deck == "main"
    assert pool.get(46986416) is dm
    link = pool.get(1861629)
    assert link.link_rating == 3 and link.level is None and link.defense is None
    assert link.link_arrows == ("Top", "Bottom-Left", "Bottom-Right") and link.deck == "extra"
    xyz = pool.get(84013237)
    assert xyz.rank == 4 and xyz.level is None and xyz.frame is Frame.XYZ
    pend = pool.get(16178681)
    assert pend.scale == 4 and pend.level == 7 and pend.frame.is_pendulum
    assert pool.get(14558127).monster_types == ("Tuner", "Effect")


def test_kinds_and_quirks(pool: StorePool) -> None:
    assert pool.get(73915052).kind is Kind.TOKEN and pool.get(73915052).deck is None
    skill = pool.get(300302022)
    assert skill.kind is Kind.SKILL and "skill" in skill.scopes and skill.deck is None
    ra = pool.get(10000010)
    assert ra.atk is None and ra.defense is None and ra.alt_passcodes == ()
    assert pool.get(83965310).cannot_normal_summon is True
    assert pool.get(10000000).cannot_normal_summon is False
    big = pool.get(501000007)
    assert big.race == "Counter" and big.konami_id == 99999
    assert big.scopes == frozenset({"ocg_only"}) and "tcg" not in big.released
    assert pool.by_konami_id(99999) is big


def test_treated_as_is_evidence(pool: StorePool) -> None:
    big = pool.get(501000007)
    assert big.rule_name == "Umi"
    assert big.rule_name_evidence == {"ygoprodeck-treated_as": "Umi",
                                      "ygoprodeck-text": "Big Id Card"}


def test_rule_names(pool: StorePool) -> None:
    assert pool.get(91932350).rule_name == "Harpie Lady"
    assert pool.get(295517).rule_name == "Umi"
    assert pool.get(34130561).rule_name == "Gaia the Magical Knight"
    assert {c.passcode for c in pool.with_rule_name("Umi")} == {22702055, 295517, 501000007}


def test_not_cardinfo() -> None:
    with pytest.raises(ImportFailed, match="not a YGOPRODeck"):
        list(ygoprodeck.parse({"data": [{"konami_id": 1}]}))


def test_bad_json(tmp_path: Path) -> None:
    bad = tmp_path / "cardinfo.json"
    bad.write_text('{"data": [', encoding="utf-8")
    with pytest.raises(ImportFailed, match="not valid JSON"):
        read_source(bad)


def test_missing_and_null_fields() -> None:
    rec = ygoprodeck.card_record({"id": 1, "name": "X", "type": "Effect Monster",
                                  "frameType": None, "desc": None, "atk": None,
                                  "misc_info": []})
    assert rec is not None and rec["frame"] == "effect" and rec["atk"] is None
    assert ygoprodeck.card_record({"id": None, "name": "X"}) is None
    assert json.dumps(rec)


GOOD = {"id": 55144522, "name": "Pot of Greed", "type": "Spell Card", "frameType": "spell",
        "desc": "Draw 2 cards.", "race": "Normal", "card_images": [{"id": 55144522}]}


@pytest.mark.parametrize(("field", "value", "said"), [
    ("frameType", 7, 'card #2 (id 55144523, "Pot of Greed"): "frameType" is 7, not text'),
    ("id", 12345678901234567890, "card #2 (id 12345678901234567890, \"Pot of Greed\"): \"id\" "
     "12345678901234567890 is not a passcode (a whole number of at most 10 digits)"),
    ("name", 7, 'card #2 (id 55144523): "name" is 7, not text'),
])
def test_malformed_record_is_one_sentence_naming_it(tmp_path: Path, field: str, value: object,
                                                    said: str) -> None:
    bad = {**GOOD, "id": 55144523, field: value}
    path = tmp_path / "cardinfo.json"
    path.write_text(json.dumps({"data": [GOOD, bad]}), encoding="utf-8")
    with pytest.raises(ImportFailed) as exc:
        read_source(path)
    assert str(exc.value).startswith(f"YGOPRODeck {said}; nothing was changed")


def test_infinite_or_absurd_stats_are_unknown_stats(tmp_path: Path) -> None:
    monster = {"id": 46986414, "name": "Dark Magician", "type": "Normal Monster",
               "frameType": "normal", "desc": "A wizard.", "level": 7, "race": "Spellcaster",
               "attribute": "DARK"}
    path = tmp_path / "cardinfo.json"
    # json.dumps writes Infinity and NaN as Python's json module (and JavaScript) do
    path.write_text(json.dumps({"data": [{**monster, "atk": float("inf"), "def": float("nan"),
                                          "misc_info": [{"tcg_date": "soon"}]}]}),
                    encoding="utf-8")
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(path)])
    card = StorePool(db).get(46986414)
    assert card is not None and card.atk is None and card.defense is None
    assert card.released == {}


def test_master_duel_from_misc_formats() -> None:
    rec = ygoprodeck.card_record({**GOOD, "misc_info": [{"formats": ["TCG", "Master Duel"]}]})
    assert rec is not None and rec["master_duel"] is True


def test_master_duel_absent_from_misc_formats() -> None:
    """The formats YGOPRODeck lists are evidence both ways, as of its dump."""
    rec = ygoprodeck.card_record({**GOOD, "misc_info": [{"formats": ["TCG", "OCG"]}]})
    assert rec is not None and rec["master_duel"] is False
    rec = ygoprodeck.card_record(GOOD)
    assert rec is not None and "master_duel" not in rec  # no misc_info: it says nothing


def test_html_escapes_in_names_are_decoded() -> None:
    rec = ygoprodeck.card_record({**GOOD, "name": "The Fallen &amp; The Virtuous"})
    assert rec is not None and rec["name"] == "The Fallen & The Virtuous"
    assert rec["names"] == {"en": "The Fallen & The Virtuous"}


_LONG = 123456789012345678901234567890  # beyond 64 bits: orjson alone reads it as a float


def _answer_with_long_numbers(where: str) -> bytes:
    """A cardinfo answer with an integer beyond 64 bits in every number the parser reads
    (and one where it reads text, when `where` names that field)."""
    card = {"id": 46986414, "name": "Dark Magician", "type": "Normal Monster",
            "frameType": "normal", "desc": "x", "race": "Spellcaster", "atk": _LONG,
            "def": -_LONG, "level": _LONG, "scale": _LONG, "linkval": _LONG,
            "card_images": [{"id": _LONG}, {"id": 46986415}], "card_sets": [{"n": _LONG}],
            "misc_info": [{"konami_id": _LONG, "formats": [_LONG, "TCG"],
                           "md_rarity": _LONG}], "typeline": [_LONG, "Normal"]}
    if where:
        card[where] = _LONG
    return json.dumps({"data": [card, {"id": 2, "name": "B", "type": "Spell Card",
                                       "frameType": "spell", "desc": "y"}]}).encode()


def test_long_integers_read_fast_give_the_exact_records(tmp_path: Path) -> None:
    """`read_records` reads the answer fast (long integers may come as floats): the records
    are those of the standard library's values."""
    f = tmp_path / "cardinfo.json"
    f.write_bytes(_answer_with_long_numbers(""))
    fast = ygoprodeck.load_file(f, exact=False)
    assert type(fast["data"][0]["atk"]) is float  # what the fast read gives
    exact = ygoprodeck.records(json.loads(f.read_bytes()), f)
    assert ygoprodeck.records(fast, f) == exact
    assert ygoprodeck.read_records(lambda e: ygoprodeck.load_file(f, e), f) == exact
    assert exact[0]["alt_passcodes"] == [46986415] and exact[0]["atk"] is None


@pytest.mark.parametrize("where", ["id", "name", "desc", "race"])
def test_a_card_refused_for_a_long_integer_is_named_as_the_file_writes_it(
        tmp_path: Path, where: str) -> None:
    from deckcheck.imports.update import update_ygoprodeck

    f = tmp_path / "cardinfo.json"
    f.write_bytes(_answer_with_long_numbers(where))
    with pytest.raises(ImportFailed) as exact:
        ygoprodeck.records(json.loads(f.read_bytes()), f)
    assert "123456789012345678901" in str(exact.value)
    with pytest.raises(ImportFailed) as imported:
        update_ygoprodeck(tmp_path / "cards.sqlite", from_file=f)
    assert str(imported.value) == str(exact.value)
    assert not (tmp_path / "cards.sqlite").exists()


_ODD = [1.5, 1e16, 2.0, -0.0, float("nan"), float("inf"), True, None, "", "7", [1.5, "a"],
        {"a": 1.5}, [{"id": 3.0}], [{"konami_id": 4.0, "tcg_date": 1.5, "formats": [1.5, "TCG"],
                                     "md_rarity": 1.5, "treated_as": [2.5, "X"]}]]
_FIELDS = ["id", "name", "type", "frameType", "desc", "race", "attribute", "archetype", "atk",
           "def", "level", "scale", "linkval", "linkmarkers", "typeline", "card_images",
           "card_sets", "misc_info"]


@pytest.mark.parametrize("field", _FIELDS)
def test_records_hold_no_float_whatever_the_answer_holds(field: str) -> None:
    """`SourceData.plain`: a record holds only dicts, lists, text, whole numbers, booleans
    and None, however odd the answer's values (the store writes them without looking)."""
    from deckcheck.imports.writer import _plain

    base = {"id": 46986414, "name": "Dark Magician", "type": "XYZ Pendulum Effect Monster",
            "frameType": "xyz_pendulum", "desc": "x", "race": "Spellcaster",
            "attribute": "DARK", "atk": 2500, "def": 2100, "level": 7, "scale": 8,
            "typeline": ["Spellcaster", "Xyz"], "card_sets": [{}],
            "misc_info": [{"konami_id": 4041, "formats": ["TCG", "Master Duel"],
                           "tcg_date": "2002-03-08", "treated_as": "Dark Magician Girl"}]}
    kept = 0
    for v in _ODD:
        for kind in ({}, {"type": "Link Monster", "frameType": "link"},
                     {"type": "Skill Card", "frameType": "skill"}):
            try:
                recs = ygoprodeck.records({"data": [{**base, **kind, field: v}]}, "f")
            except ImportFailed:
                continue
            kept += len(recs)
            assert all(_plain(r) for r in recs), (field, v, recs)
    assert kept
    assert read_source(FIXTURE).plain and all(_plain(r) for r in read_source(FIXTURE).records)


@pytest.mark.parametrize("field", _FIELDS)
def test_records_make_valid_cards_whatever_the_answer_holds(field: str) -> None:
    """`SourceData.checked`: every record the parser keeps, however odd the answer's values,
    merges into a card the strict schema accepts, with ids SQLite holds (the import checks
    neither again)."""
    from deckcheck.cards.schema import validate_cards
    from deckcheck.imports.guard import check_ids
    from deckcheck.imports.merge import merge

    base = {"id": 46986414, "name": "Dark Magician", "type": "Effect Monster",
            "frameType": "effect", "desc": "Cannot be Normal Summoned/Set.",
            "race": "Spellcaster", "attribute": "DARK", "archetype": "Dark Magician",
            "atk": 2500, "def": 2100, "level": 7, "card_images": [{"id": 46986415}],
            "card_sets": [{}], "misc_info": [{"konami_id": 4041, "formats": ["OCG"],
                                              "ocg_date": "2002-03-08",
                                              "treated_as": "Dark Magician Girl"}]}
    kept = []
    for v in [*_ODD, "Dark Magician", "DARK", 100000001, "2002-03-08", ["Top", "Bottom"]]:
        for kind in ({}, {"type": "Link Monster", "frameType": "link"},
                     {"type": "XYZ Pendulum Effect Monster", "frameType": "xyz_pendulum"},
                     {"type": "Skill Card", "frameType": "skill"},
                     {"type": "Spell Card", "frameType": "spell", "race": "Field"},
                     {"type": "Token", "frameType": "token"}, {"frameType": "unknown"}):
            try:
                kept += ygoprodeck.records({"data": [{**base, **kind, field: v}]}, "f")
            except ImportFailed:
                continue
    assert kept
    source = ygoprodeck.source(kept, None, None)
    assert source.checked and source.plain
    check_ids(source)  # every id a whole number SQLite holds
    for rec in kept:  # each alone: the merge keeps one card of records with one passcode
        validate_cards(merge({"ygoprodeck": [rec]}).cards.values())

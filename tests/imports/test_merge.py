"""Merging source records: alternate artworks, prerelease ids, priorities, the same-name
rule's evidence, votes and chains."""

from __future__ import annotations

from typing import Any

from deckcheck.imports.merge import merge


def rec(pc: int, name: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"passcode": pc, "name": name, "names": {"en": name},
                            "kind": "spell", "frame": "spell"}
    base.update(kw)
    return base


def hint(key: str, value: Any, lang: str = "en", kind: str = "name") -> list[Any]:
    return [key, kind, value, lang]


def test_chain_resolves_to_the_end() -> None:
    out = merge({"ygoprodeck": [
        rec(1, "A", hints=[hint("ygoprodeck-text", "B")]),
        rec(2, "B", hints=[hint("ygoprodeck-text", "C")]),
        rec(3, "C"),
        rec(4, "Loop1", hints=[hint("ygoprodeck-text", "Loop2")]),
        rec(5, "Loop2", hints=[hint("ygoprodeck-text", "Loop1")]),
    ]})
    assert [out.cards[i]["rule_name"] for i in (1, 2, 3)] == ["C", "C", "C"]
    assert out.cards[1]["rule_name_evidence"] == {"ygoprodeck-text": "B"}
    assert {out.cards[4]["rule_name"], out.cards[5]["rule_name"]} <= {"Loop1", "Loop2"}


def test_foreign_names_map_to_the_english_name() -> None:
    out = merge({
        "ygoprodeck": [rec(10, "Umi"), rec(11, "Ocean")],
        "yaml-yugi": [rec(10, "Umi", names={"en": "Umi", "ja": "海"}),
                      rec(11, "Ocean", hints=[hint("yaml-yugi-text-ja", "海", "ja")],
                          spoke=["yaml-yugi-text-en", "yaml-yugi-text-ja"])],
    })
    assert out.cards[11]["rule_name"] == "Umi"
    assert out.cards[11]["rule_name_evidence"] == {"yaml-yugi-text-ja": "Umi",
                                                   "yaml-yugi-text-en": "Ocean"}


def test_a_lone_claim_loses_to_more_silent_sources() -> None:
    claim = rec(21, "Knight", hints=[hint("ygocdb-text", "Gaia", "zh-CN")], spoke=["ygocdb-text"])
    out = merge({
        "ygoprodeck": [rec(20, "Gaia"), rec(21, "Knight", spoke=["ygoprodeck-text"])],
        "yaml-yugi": [rec(21, "Knight", spoke=["yaml-yugi-text-en"])],
        "ygocdb": [rec(20, "Gaia", names={"en": "Gaia", "cn_name": "Gaia"}), claim],
    })
    card = out.cards[21]
    assert card["rule_name"] == "Knight"
    assert card["rule_name_evidence"] == {"ygocdb-text": "Gaia", "ygoprodeck-text": "Knight",
                                          "yaml-yugi-text-en": "Knight"}
    # with one silent source against it, the claim wins
    out = merge({"ygoprodeck": [rec(20, "Gaia"), rec(21, "Knight", spoke=["ygoprodeck-text"])],
                 "ygocdb": [claim]})
    assert out.cards[21]["rule_name"] == "Gaia"


def test_cdb_alias() -> None:
    out = merge({
        "ygoprodeck": [rec(30, "Talker", alt_passcodes=[31]), rec(40, "Umi")],
        "edopro:cards.cdb": [rec(32, "Talker", alias=30), rec(33, "Talker", alias=31),
                             rec(41, "Ocean", alias=40), rec(50, "Orphan", alias=999)],
    })
    assert out.cards[30]["alt_passcodes"] == [31, 32, 33]
    assert out.ids[33] == (30, "alt") and 32 not in out.cards
    assert out.cards[41]["rule_name"] == "Umi" and out.cards[41]["alt_passcodes"] == []
    assert out.cards[50]["rule_name"] == "Orphan"


def test_priorities_and_enrichment() -> None:
    out = merge({
        "ygocdb": [rec(60, "Card", atk=1, names={"en": "Card", "cn_name": "卡"}),
                   {"passcode": 61, "name": "名", "names": {"cn_name": "名"}}],
        "ygoprodeck": [rec(60, "Card", atk=None, race="Field", scopes=[])],
        "edopro:x.cdb": [rec(60, "Card (old)", race="Normal", scopes=["ocg_only"],
                         konami_id=7)],
        "edopro-mappings": [{"passcode": 60, "extra_ids": [100], "enrich_only": True},
                            {"passcode": 62, "extra_ids": [101], "enrich_only": True}],
    })
    card = out.cards[60]
    assert card["name"] == "Card" and card["race"] == "Field" and card["scopes"] == []
    assert card["atk"] == 1 and card["konami_id"] == 7
    assert card["names"] == {"en": "Card", "cn_name": "卡"}
    assert out.ids[100] == (60, "prerelease")
    assert set(out.cards) == {60}  # no card without a type, none from mappings alone
    assert out.names["卡"] == [60] and out.names["cardold"] == [60]


def test_prerelease_record_folds_into_the_official_card() -> None:
    out = merge({
        "ygoprodeck": [rec(70, "Official")],
        "edopro:delta.cdb": [rec(100300001, "Provisional", scopes=["prerelease"])],
        "edopro-mappings": [{"passcode": 70, "extra_ids": [100300001], "enrich_only": True}],
    })
    assert set(out.cards) == {70} and out.ids[100300001] == (70, "prerelease")
    assert out.names["provisional"] == [70]


def test_a_tcg_printing_overrules_another_sources_ocg_only() -> None:
    # YAML Yugi (ranked first for scopes here) says "not yet released in the TCG", but
    # YGOPRODeck lists TCG printings of the card: it exists in the TCG.
    out = merge({
        "yaml-yugi": [rec(80, "Sanctuary", scopes=["ocg_only"])],
        "ygoprodeck": [rec(80, "Sanctuary", tcg_printed=True)],
    })
    assert out.cards[80]["scopes"] == []
    out = merge({"yaml-yugi": [rec(81, "Only OCG", scopes=["ocg_only"])],
                 "ygoprodeck": [rec(81, "Only OCG")]})
    assert out.cards[81]["scopes"] == ["ocg_only"]


def test_ygoprodeck_card_sets_mark_a_tcg_printing() -> None:
    from deckcheck.sources.ygoprodeck import card_record

    base = {"id": 95658967, "name": "Ritual Sanctuary", "type": "Spell Card",
            "frameType": "spell", "race": "Continuous", "desc": ""}
    assert card_record({**base, "card_sets": [{"set_code": "DPDG-EN019"}]})["tcg_printed"]
    assert "tcg_printed" not in card_record(base)


def test_first_release_is_the_earliest_any_source_gives() -> None:
    out = merge({
        "ygoprodeck": [rec(90, "Dated", released={"tcg": "2024-01-05", "ocg": "2023-07-22"})],
        "ygojson": [{"passcode": 90, "enrich_only": True, "master_duel": False,
                     "released": {"tcg": "2023-10-19", "kr": "2023-10-17"}}],
    })
    assert out.cards[90]["released"] == {"tcg": "2023-10-19", "ocg": "2023-07-22",
                                         "kr": "2023-10-17"}
    assert out.cards[90]["master_duel"] is False


def test_master_duel_yes_wins_and_silence_is_unknown() -> None:
    out = merge({"ygoprodeck": [rec(91, "In MD", master_duel=True), rec(92, "Nobody says")],
                 "ygojson": [{"passcode": 91, "enrich_only": True, "master_duel": False}]})
    assert out.cards[91]["master_duel"] is True
    assert out.cards[92]["master_duel"] is None


def test_unprinted_big_ids_are_unofficial_and_say_what_they_are() -> None:
    out = merge({
        "ygoprodeck": [rec(100000101, "Ojamandala"), rec(100200293, "Assault Lion"),
                       rec(501000006, "Chimaera", tcg_printed=True)],
        "edopro:cards-unofficial.cdb": [rec(100000101, "Ojamandala", scopes=["anime"]),
                                        rec(511000001, "Fan Card", scopes=["custom",
                                                                           "unofficial"]),
                                        rec(160001001, "Rush Card", scopes=["rush"])],
    })
    assert out.cards[100000101]["scopes"] == ["anime", "unofficial"]
    assert out.cards[100200293]["scopes"] == ["unofficial"]
    assert out.cards[511000001]["scopes"] == ["custom", "unofficial"]
    assert out.cards[501000006]["scopes"] == []  # printed (a video-game promo)
    assert out.cards[160001001]["scopes"] == ["rush"]  # Rush Duel cards keep their own


def test_prerelease_id_joins_the_card_another_source_has_by_passcode() -> None:
    out = merge({
        "ygoprodeck": [rec(101402024, "Adamancipator Conductor")],
        "yaml-yugi": [rec(24925387, "Adamancipator Conductor", scopes=["ocg_only"])],
        "edopro:cards-unofficial.cdb": [rec(511002264, "Nurikabe", scopes=["anime"])],
        "ygocdb": [rec(60681372, "Nurikabe")],
    })
    assert out.ids[101402024] == (24925387, "prerelease")
    assert 101402024 not in out.cards
    assert out.names["adamancipatorconductor"] == [24925387]
    assert 511002264 in out.cards  # the anime card of the same name stays apart


def test_a_main_artwork_listed_as_an_alternate_makes_no_cycle() -> None:
    out = merge({
        "ygoprodeck": [rec(46986414, "Dark Magician", alt_passcodes=[46986415])],
        "ygojson": [{"passcode": 46986415, "alt_passcodes": [46986414], "enrich_only": True,
                     "konami_id": 4041}],
    })
    assert set(out.cards) == {46986414}
    assert out.ids[46986415] == (46986414, "alt")
    assert out.cards[46986414]["konami_id"] == 4041

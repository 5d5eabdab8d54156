"""The import's fast paths give exactly what the general code gives: the store's JSON
(orjson where it writes the same bytes, the standard library otherwise), a card made from
one record, and the "cannot be Normal Summoned" test on ASCII text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from deckcheck.imports import writer
from deckcheck.imports.merge import _combine_many, _combine_one
from deckcheck.sources import ygoprodeck


def _stdlib(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("obj", [
    {"text": "a\x00\x1f\x7f\n\t\r\b\f\"\\/é\u2028\u2029😀", "n": None, "i": -5, "b": [True, False]},
    {"names": {"ja": "ブラック・マジシャン", "zh-CN": "黑魔术师"}, "empty": {}, "l": []},
    {"big": 2**64 - 1, "neg": -(2**63), "nested": [[[{"k": [1, 2, {"x": "y"}]}]]]},
    # what orjson writes otherwise or refuses: the standard library's bytes
    {"f": 1e16, "g": 1e-7, "h": 0.1, "i": 1.0},
    {"nan": float("nan"), "inf": float("inf")},
    {"huge": 2**70, "tiny": -(2**64)},
    {"lone": "\ud800"},
    {1: "int key", "t": (1, 2)},
    {"deep": json.loads("[" * 300 + "]" * 300)},
])
def test_dumps_writes_the_standard_librarys_bytes(obj: dict[Any, Any]) -> None:
    assert writer._dumps(obj) == _stdlib(obj)


def test_plain_refuses_floats_and_other_types_at_any_depth() -> None:
    assert writer._plain({"a": [1, "x", None, True, {"b": []}]})
    assert not writer._plain({"a": [1, {"b": [0.5]}]})
    assert not writer._plain({"a": (1,)})
    assert not writer._plain([{"a": 1.0}])

    class Text(str):
        pass

    assert not writer._plain({"a": Text("x")})


RECORDS: list[dict[str, Any]] = [
    {"passcode": 1, "name": "A", "names": {"en": "A", "ja": "", "de": "Ä"}, "kind": "monster",
     "frame": "effect", "text": "t", "atk": 0, "defense": None, "level": 4, "race": "Dragon",
     "archetypes": ["X"], "released": {"tcg": "2020-01-02", "ocg": "2019-01-01"},
     "master_duel": 0, "cannot_normal_summon": 1, "scopes": ["tcg_only"]},
    {"passcode": 2, "name": "B", "kind": "spell", "frame": "spell", "master_duel": None,
     "archetypes": [], "tcg_printed": True, "scopes": ["ocg_only", "prerelease"]},
    {"passcode": 100_000_001, "name": "C", "names": {"en": ""}, "kind": "trap",
     "frame": "trap", "scopes": ["anime"]},
    {"passcode": 3, "name": "D", "kind": "spell", "frame": "spell", "enrich_only": True,
     "names": {"ja": "D"}},
    {"passcode": 100_000_002, "name": "F", "kind": "monster", "frame": "effect",
     "scopes": ["prerelease", "ocg_only"], "tcg_printed": True},
    {"passcode": 100_000_003, "name": "G", "kind": "monster", "frame": "effect",
     "scopes": ["custom"], "released": {"ocg": "2024-01-01"}},
    {"passcode": 100_000_004, "name": "H", "kind": "monster", "frame": "effect",
     "scopes": ["rush"]},
    {"passcode": 100_000_005, "name": "I", "kind": "spell", "frame": "spell", "printed": True},
    {"passcode": 100_000_006, "name": "J", "kind": "spell", "frame": "spell", "scopes": None},
    {"passcode": 6, "name": "K", "kind": "spell", "frame": "spell", "scopes": ["prerelease"]},
    {"passcode": 7, "name": "L", "kind": "spell", "frame": "spell", "tcg_printed": True},
    {"passcode": 8, "name": "M", "kind": "spell", "frame": "spell", "scopes": [],
     "released": {}, "names": {}},
    {"passcode": 9, "name": "N", "kind": "spell", "frame": "spell", "scopes": ["skill"],
     "names": {"en": "N2"}},
    {"passcode": 4, "name": "E", "kind": "spell"},  # no frame: no card
    {"passcode": 5, "name": "", "kind": "spell", "frame": "spell"},  # no name: no card
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: str(r["passcode"]))
def test_a_card_from_one_record_is_the_general_merges(rec: dict[str, Any]) -> None:
    # the general code, made to run on the record beside one that says nothing
    g = rec["passcode"]
    one, many = _combine_one(g, rec), _combine_many(g, [rec, {"passcode": g}])
    assert one == many
    if one is not None and many is not None:
        assert list(one) == list(many)  # the same keys in the same order: the same JSON
        assert _stdlib(one) == _stdlib(many)


@pytest.mark.parametrize("text", [
    "This card cannot be Normal Summoned/Set.", "CANNOT BE NORMAL SUMMONED OR SET.",
    "Must first be Special Summoned (from your hand) by ...", "must be special summoned",
    "Can be Normal Summoned.", "cannot be normal summoned", "",
    # not ASCII: the case-insensitive pattern as before (long s and Kelvin sign fold to s, k)
    "Cannot be Normal Summoned/Set. «é»", "Cannot be Normal ſummoned/Set.",
    "Muſt be Special Summoned", "ÉCANNOT BE NORMAL SUMMONED OR SET",
])
def test_cannot_normal_summon_matches_the_pattern(text: str) -> None:
    assert ygoprodeck._cannot_normal_summon(text) == (ygoprodeck._NO_NS.search(text) is not None)


def _int_general(v: Any, limit: int = ygoprodeck.MAX_STAT) -> int | None:
    """`ygoprodeck._int` without its fast path for an int (the code it saves)."""
    if v is None or v == "" or isinstance(v, bool):
        return None
    if isinstance(v, float):
        if not v.is_integer():
            return None
    elif isinstance(v, str):
        if len(v) > 24:
            return None
    elif not isinstance(v, int):
        return None
    try:
        out = int(v)
    except (TypeError, ValueError, OverflowError):
        return None
    return out if -limit <= out <= limit else None


@pytest.mark.parametrize("v", [0, 1, -1, 10**6, 10**6 + 1, -(10**6) - 1, 10**10, 2**70, True,
                               False, None, "", "12", "-3", " 7 ", "x", 1.0, 1.5,
                               float("inf"), float("nan"), [], {}])
@pytest.mark.parametrize("limit", [ygoprodeck.MAX_STAT, ygoprodeck.MAX_PASSCODE])
def test_int_is_the_general_conversion(v: Any, limit: int) -> None:
    assert ygoprodeck._int(v, limit) == _int_general(v, limit)


@pytest.mark.parametrize("images", [
    None, [], [{"id": 5}], [{"id": 6}], [{"id": "5"}], [{"id": 5.0}], [{"id": True}],
    [{"id": 5}, {"id": 7}], [{"id": 7}, {"id": 5}, {"id": 7}], [5], [{"x": 1}], [{"id": -3}],
])
def test_artworks_of_one_image_are_the_general_codes(images: Any) -> None:
    raw = {"card_images": images}
    general = sorted({i for img in images or () if isinstance(img, dict)
                      for i in [ygoprodeck._int(img.get("id"), ygoprodeck.MAX_PASSCODE)]
                      if i is not None and i > 0 and i != 5})
    assert ygoprodeck._artworks(raw, 5) == general


def _index_general(out: Any, groups: Any) -> dict[str, list[int]]:
    """`merge._index_names` without its fast path for cards of one name (the code it saves)."""
    index: dict[str, list[int]] = {}
    for pc, card in out.cards.items():
        written = [card["name"], *card["names"].values()]
        for _, rec in groups[pc]:
            if names := rec.get("names"):
                written += names.values()
        for key in dict.fromkeys(map(out.keys.__getitem__, filter(None,
                                                                   dict.fromkeys(written)))):
            if key:
                index.setdefault(key, []).append(pc)
    return index


def test_the_name_index_is_the_general_codes() -> None:
    from deckcheck.imports import merge as m

    sources = {
        "ygoprodeck": [
            {"passcode": 1, "name": "A", "names": {"en": "A"}, "kind": "spell", "frame": "spell"},
            {"passcode": 2, "name": "B", "names": {"en": "B", "ja": "B"}, "kind": "spell",
             "frame": "spell"},
            {"passcode": 3, "name": "C-1", "names": {"en": "C-1"}, "kind": "spell",
             "frame": "spell"},
            {"passcode": 4, "name": "C 1", "kind": "spell", "frame": "spell"},
            {"passcode": 5, "name": "!!", "kind": "spell", "frame": "spell"},  # empty key
        ],
        "yaml-yugi": [
            {"passcode": 2, "name": "B", "names": {"en": "B", "ja": "ビー", "de": ""}},
            {"passcode": 3, "name": "C-1", "names": {"en": "C-1"}},
        ],
    }
    merged = m.merge(sources)  # type: ignore[arg-type]
    pairs = [(s, r) for s in ("ygoprodeck", "yaml-yugi") for r in sources[s]]
    groups, _, _ = m._group(pairs, m._listed_artworks(pairs), merged.keys)  # type: ignore[arg-type]
    assert merged.names == _index_general(merged, groups)
    assert merged.names["c1"] == [3, 4] and "" not in merged.names


def test_cards_of_records_holding_a_float_are_the_standard_librarys_json(
        tmp_path: Path) -> None:
    """The cards are encoded by orjson only when every record is plain (`writer._record_rows`):
    a float a card takes from its record is written as the standard library writes it."""
    import sqlite3

    from deckcheck.imports.run import import_sources
    from deckcheck.sources.records import SourceData

    recs: list[Any] = [
        {"passcode": 1, "name": "A", "kind": "monster", "frame": "effect", "atk": 1e16},
        {"passcode": 2, "name": "B", "kind": "spell", "frame": "spell"},
    ]
    db = tmp_path / "cards.sqlite"
    import_sources(db, [SourceData("ygoprodeck", recs)])
    con = sqlite3.connect(db)
    cards = dict(con.execute("SELECT passcode, data FROM cards").fetchall())
    records = [d for d, in con.execute("SELECT data FROM source_records ORDER BY rowid")]
    con.close()
    assert '"atk":1e+16' in cards[1] and '"atk":1e+16' in records[0]
    assert records == [_stdlib(r) for r in recs]
    assert all(json.loads(cards[pc])["passcode"] == pc for pc in (1, 2))


@pytest.mark.parametrize("plain", [True, False])
def test_what_orjson_refuses_is_the_standard_librarys_json(tmp_path: Path, plain: bool) -> None:
    """Records and cards orjson refuses (an integer beyond 64 bits) are written by the
    standard library, whether their parser vouches for them (`SourceData.plain`) or not."""
    import sqlite3

    from deckcheck.imports.run import import_sources
    from deckcheck.sources.records import SourceData

    recs: list[Any] = [
        {"passcode": 2, "name": "B", "kind": "spell", "frame": "spell"},
        {"passcode": 1, "name": "A", "kind": "monster", "frame": "effect", "atk": 2**70},
    ]
    db = tmp_path / "cards.sqlite"
    import_sources(db, [SourceData("ygoprodeck", recs, plain=plain)])
    con = sqlite3.connect(db)
    cards = dict(con.execute("SELECT passcode, data FROM cards").fetchall())
    records = [d for d, in con.execute("SELECT data FROM source_records ORDER BY rowid")]
    con.close()
    assert records == [_stdlib(r) for r in recs]
    assert f'"atk":{2**70}' in cards[1] and json.loads(cards[2])["name"] == "B"

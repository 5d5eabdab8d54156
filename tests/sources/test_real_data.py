"""The importers on the real data in ../shared/data (skipped when it is absent)."""

from __future__ import annotations

import html
import json
import re
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import pytest

CARDS = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards"

TREATED_AS = {
    "Harpie Lady 1": "Harpie Lady", "Harpie Lady 2": "Harpie Lady",
    "Harpie Lady 3": "Harpie Lady", "Cyber Harpie Lady": "Harpie Lady",
    "A Legendary Ocean": "Umi", "Magellanica, the Deep Sea City": "Umi",
    "Pacifis, the Phantasm City": "Umi", "Fusion Substitute": "Polymerization",
    "Angry Burger": "Hungry Burger", "Light Water Dragon": "Water Dragon",
    "Odd-Eyes Arcray Dragon": "Supreme King Z-ARC",
}
ARCHETYPE = re.compile(r'treated as an? "[^"]+"', re.I)  # "… card", "… monster" (archetype)


def _dump() -> list[dict[str, Any]]:
    with zipfile.ZipFile(CARDS / "ygoprodeck-cardinfo.zip") as zf:
        return json.loads(zf.read("cardinfo.json"))["data"]  # type: ignore[no-any-return]


def test_full_dump_imports_every_card_and_alt_art(real_store: Any) -> None:
    pool, results = real_store
    data, summary = results["ygoprodeck-cardinfo.zip"]
    assert len(data.records) == 14388 and summary["cards"] == 14388
    dump = _dump()
    alts = {img["id"]: c["id"] for c in dump for img in c["card_images"] if img["id"] != c["id"]}
    assert len(alts) == 164
    for alt, main in alts.items():
        card = pool.get(alt)
        assert card is not None and card.passcode == main and alt in card.alt_passcodes


def test_the_full_dump_makes_valid_cards(real_store: Any) -> None:
    """`SourceData.checked` on the real dump: its records merge into cards the strict schema
    accepts (an import of only YGOPRODeck's records does not validate them again)."""
    from deckcheck.cards.schema import validate_cards
    from deckcheck.imports.merge import merge

    data, _ = real_store[1]["ygoprodeck-cardinfo.zip"]
    assert data.checked
    validate_cards(merge({"ygoprodeck": data.records}).cards.values())


def test_names_in_three_languages(real_store: Any) -> None:
    pool, _ = real_store
    for name in ("灰流丽", "灰流うらら", "ash blossom & joyous spring", "灰流麗"):
        assert [c.passcode for c in pool.find_name(name)] == [14558127], name


@pytest.mark.parametrize(("name", "counts_as"), sorted(TREATED_AS.items()))
def test_treated_as(real_store: Any, name: str, counts_as: str) -> None:
    pool, _ = real_store
    [card] = pool.find_name(name)
    assert card.rule_name == counts_as
    assert card in pool.with_rule_name(counts_as)


def test_archetype_members_keep_their_own_name(real_store: Any) -> None:
    pool, _ = real_store
    members = [c for c in _dump() if ARCHETYPE.search(c["desc"] or "")
               and not re.search(r"name is (?:also )?always treated as", c["desc"])]
    assert 140 <= len(members) <= 200  # ~150 in the 2026 dump
    wrong = [(c["name"], pool.get(c["id"]).rule_name) for c in members  # names unescaped
             if pool.get(c["id"]).rule_name != html.unescape(c["name"])]
    assert wrong == []
    gaia = pool.find_name("Gaia the Magical Knight")[0]
    assert gaia.rule_name == "Gaia the Magical Knight"


def test_edopro_delta_cdb(real_store: Any) -> None:
    pool, results = real_store
    data, _ = results["edopro/cards.delta.cdb"]
    con = sqlite3.connect(CARDS / "edopro" / "cards.delta.cdb")
    ids = [r[0] for r in con.execute("SELECT id FROM datas")]
    con.close()
    assert len(data.records) == len(ids) == 3202
    assert all(pool.get(i) is not None for i in ids)
    # an alias to a same-named card is an alternate artwork
    assert pool.get(1861631).passcode == 1861629


def test_prerelease_mappings(real_store: Any) -> None:
    pool, _ = real_store
    pairs = json.loads((CARDS / "edopro" / "mappings.json").read_text())["mappings"]
    known = [(pre, off) for pre, off in pairs if pool.get(off) is not None]
    assert len(known) > 1500
    wrong = [(pre, off) for pre, off in known if pool.get(pre).passcode != pool.get(off).passcode]
    assert wrong == []


def test_lazy_lookup_does_not_load_everything(real_store: Any) -> None:
    from deckcheck.cards.store import StorePool

    pool = StorePool(real_store[0].path)
    try:
        assert pool.get(14558127) is not None and pool.find_name("Dark Magician")
        assert len(pool._cards) <= 3  # only what was asked for was validated
        assert len(pool) >= 14388
        assert sum(1 for _ in pool) == len(pool)
    finally:
        pool.close()

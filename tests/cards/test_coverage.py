"""Where card data ends: per source, per store, per pool (issue 19, point 2)."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path

from deckcheck.cards.coverage import combine, families, file_day, past
from deckcheck.cards.store import StorePool
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


def test_families_a_source_speaks_for() -> None:
    full = {"passcode": 1, "kind": "spell", "released": {"tcg": "2020-01-01"},
            "master_duel": False}
    assert families("ygoprodeck", [full]) == ("cards", "tcg", "md")  # type: ignore[list-item]
    enrich = {"passcode": 1, "enrich_only": True, "released": {"ocg": "2020-01-01"}}
    assert families("ygojson", [enrich]) == ("ocg",)  # type: ignore[list-item]
    assert families("edopro-mappings", [{"passcode": 1, "kind": "spell"}]) == ()  # type: ignore[list-item]


def test_the_day_a_file_says(tmp_path: Path) -> None:
    meta = tmp_path / "ygojson.zip"
    with zipfile.ZipFile(meta, "w") as zf:
        zf.writestr("meta.json", json.dumps({"lastYugipediaRead": "2025-11-15T01:49:27",
                                             "lastYamlyugiRead": "2025-05-13T01:53:50"}))
    assert file_day(meta) == "2025-11-15"
    plain = tmp_path / "cards.zip"
    with zipfile.ZipFile(plain, "w") as zf:
        zf.writestr(zipfile.ZipInfo("cards.json", (2026, 6, 14, 22, 16, 0)), "{}")
    assert file_day(plain) == "2026-06-14"
    assert file_day(tmp_path / "missing.json") is None


def test_a_pool_covers_up_to_its_latest_source() -> None:
    covers = combine([{"cards": "2026-06-14"}, {"cards": "2026-08-22", "md": "2026-08-22"},
                      {"md": "not a day"}])
    assert covers == {"cards": dt.date(2026, 8, 22), "md": dt.date(2026, 8, 22)}
    assert past(covers, "md", dt.date(2026, 9, 1)) == dt.date(2026, 8, 22)
    assert past(covers, "md", dt.date(2026, 8, 22)) is None
    assert past(covers, "tcg", dt.date(2030, 1, 1)) is None  # nothing recorded: complete


def test_a_store_keeps_each_sources_end_across_imports(tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    first = read_source(FIX / "ygoprodeck_small.json")
    first.covers = {"cards": "2026-06-14"}
    import_sources(db, [first])
    assert StorePool(db).info.covers == {"cards": dt.date(2026, 6, 14)}
    second = read_source(FIX / "yamlyugi_small.json")
    second.covers = {"cards": "2026-08-22", "md": "2026-08-22"}
    import_sources(db, [second])  # the first source's end is read back and kept
    assert StorePool(db).info.covers == {"cards": dt.date(2026, 8, 22),
                                         "md": dt.date(2026, 8, 22)}
    first.covers = {"cards": "2026-07-01"}
    import_sources(db, [first])
    from deckcheck.imports.writer import read_sources

    assert read_sources(db)["ygoprodeck"].covers == {"cards": "2026-07-01"}


def test_an_imported_file_records_its_day(tmp_path: Path) -> None:
    data = read_source(FIX / "yamlyugi_small.json")
    assert set(data.covers) == {"cards", "md"}
    assert len(set(data.covers.values())) == 1

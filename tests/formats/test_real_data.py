"""The importers on the real published lists in ../shared/data (skipped without it)."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path

import pytest

from deckcheck.cards.model import Card, Frame, Kind
from deckcheck.cards.pool import MemoryPool
from deckcheck.formats import konami, lflist, load_format, native
from deckcheck.formats.update import import_lists

YGO = {"Banned": 0, "Forbidden": 0, "Limited": 1, "Semi-Limited": 2}


@pytest.fixture(scope="module")
def yaml_yugi_pool() -> MemoryPool:
    """Konami id <-> passcode and English names, from YAML Yugi's cards.json."""
    path = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards" / \
        "yaml-yugi-cards.zip"
    if not path.is_file():
        pytest.skip("../shared/data is not present (real-data test)")
    with zipfile.ZipFile(path) as z:
        raw = json.loads(z.read("cards.json"))
    cards, seen = [], set()
    for c in raw:
        pw, name = c.get("password"), (c.get("name") or {}).get("en")
        if pw and name and pw not in seen:
            seen.add(pw)
            cards.append(Card(passcode=pw, konami_id=c.get("konami_id"), name=name,
                              kind=Kind.MONSTER, frame=Frame.EFFECT, rule_name=name))
    return MemoryPool(cards)


def test_import_every_real_list(shared_data: Path, yaml_yugi_pool: MemoryPool,
                                tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.formats.loader import clear_cache

    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path))
    src = shared_data / "banlists"
    report = import_lists(src, pool=yaml_yugi_pool)
    assert report.written == {
        "tcg": 72, "ocg": 87, "master-duel": 64, "worlds": 38, "traditional": 72,
        "genesys": 3, "goat": 1, "edison": 1, "speed": 1}
    assert report.total == 339
    # this pool has no Rush cards: EDOPro's Rush list read with it has no Legend groups, so
    # the shipped one is kept (banlists/README.md, "Imports keep the shipped lists")
    assert [k.split(",")[0] for k in report.kept] == [
        "rush 2026-07-01: kept the shipped list '2026.07.01 Rush Duel'"]
    # lists that repeat a format and day (one list under two names, EDOPro and Konami)
    assert report.replaced == 82
    # lists of formats deckcheck has no format file for are left out, and say so
    assert "format ocg-cn: 18 list(s): no format file for 'ocg-cn' (add ocg-cn/format.toml " \
           "to import them)" in report.skipped
    # Master Duel's lists are Konami's only: EDOPro's frozen card-pool whitelists are not
    assert [s for s in report.skipped if "Master_Duel" in s] == [
        "2025.04.10_Master_Duel.lflist.conf: '2025.04.10 Master Duel': Master Duel's lists "
        "come from Konami's dated lists only (its format file says edopro = false)",
        "2025.05.09_Master_Duel.lflist.conf: '2025.05.09 Master Duel': Master Duel's lists "
        "come from Konami's dated lists only (its format file says edopro = false)"]
    blocks = [b for p in sorted(src.rglob("*.lflist.conf"))
              for b in lflist.parse(p.read_text(encoding="utf-8-sig"))]
    assert len(blocks) == 143  # 135 earlier EDOPro lists + 8 current ones
    # every list has a date, and its file says it
    files = sorted(tmp_path.glob("*/*.toml"))
    assert len(files) == 339
    for path in files:
        head = native.read_header(path)
        assert isinstance(head["effective"], dt.date)
        assert path.stem == head["effective"].isoformat()
    assert any(s.startswith("konami-id/rush: 15 lists skipped") for s in report.skipped)
    assert [s.split(":")[0] for s in report.skipped if "not a date to trust" in s] == [
        "2021.04_TCG.lflist.conf", "2021.04_Traditional.lflist.conf",
        "2023.05_TCG.lflist.conf"]
    clear_cache()
    tcg = load_format("tcg")
    # TCG's history is Konami's: one list per official day, from 1999-08-01; without YGOJSON
    # among the sources, the days Konami dates to the 1st are the shipped lists' (YGOJSON's)
    clear_cache()
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path / "none"))
    shipped = load_format("tcg").list_dates()
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path))
    clear_cache()
    tcg = load_format("tcg")
    assert tcg.list_dates() == shipped
    assert [p.stem for p in sorted((tmp_path / "tcg").glob("*.toml"))] == \
        [d.isoformat() for d in shipped]
    assert tcg.banlist_at(dt.date(2021, 3, 14)).name == "2020.12 TCG"
    assert tcg.banlist_at(dt.date(2021, 3, 15)).name == "2021.03 TCG"
    assert tcg.banlist_at(dt.date(2026, 5, 18)).name == "2026.05 TCG"
    assert tcg.banlist_at(dt.date(2026, 5, 17)).name == "2026.02 TCG"
    assert tcg.banlist_at(dt.date(2004, 1, 1)).name == "2003.09 TCG"
    assert tcg.banlist_at(dt.date(2024, 12, 7)).name == "2024.09 TCG"  # 12-06: Konami's copy
    # Traditional: the same lists, Forbidden counted as Limited
    trad = load_format("traditional").banlist_at(dt.date(2021, 7, 1))
    assert trad.limits() == {c: max(v, 1) for c, v in
                             tcg.banlist_at(dt.date(2021, 7, 1)).limits().items()}
    assert load_format("master-duel").banlist_at(dt.date(2026, 8, 5)).effective == \
        dt.date(2026, 8, 5)
    clear_cache()


def test_edopro_history_can_hold_the_next_lists_content(shared_data: Path,
                                                        yaml_yugi_pool: MemoryPool) -> None:
    """Why Konami's lists win: EDOPro renamed a list's header after its content changed,
    so some history files hold the next list under the old name."""
    hist = shared_data / "banlists" / "lflists" / "history"

    def edopro(name: str) -> dict[int, int]:
        (raw,) = lflist.parse((hist / f"{name}.lflist.conf").read_text())
        return lflist.to_banlist(raw, format="tcg", effective=dt.date(2000, 1, 1),
                                 pool=yaml_yugi_pool).limits()

    def official(day: str) -> dict[int, int]:
        data = json.loads((shared_data / "banlists" / "konami-id" / "tcg" /
                           f"{day}.vector.json").read_text())
        _, reg = konami.parse_vector(data)
        return konami.from_vector(reg, yaml_yugi_pool, name="k", format="tcg",
                                  effective=dt.date(2000, 1, 1)).limits()

    def distance(a: dict[int, int], b: dict[int, int]) -> int:
        return sum(1 for c in set(a) | set(b) if a.get(c) != b.get(c))

    for name, own, holds in [("2021.03_TCG", "2021-03-01", "2021-07-01"),
                             ("2021.04_TCG", "2021-04-01", "2021-03-01"),
                             ("2022.02_TCG", "2022-02-07", "2022-05-23")]:
        lists = edopro(name)
        assert distance(lists, official(holds)) <= 2, name   # alternate artworks at most
        if own != "2021-04-01":
            assert distance(lists, official(own)) > 10, name


def _edopro_tcg(shared_data: Path) -> dict[int, int]:
    text = (shared_data / "banlists" / "lflists" / "0TCG.lflist.conf").read_text()
    (raw,) = lflist.parse(text)
    assert raw.name == "2026.05 TCG"
    return lflist.to_banlist(raw, format="tcg", effective=dt.date(2026, 5, 18)).limits()


def test_2026_05_tcg_agrees_with_ygoprodeck(shared_data: Path) -> None:
    with zipfile.ZipFile(shared_data / "cards" / "ygoprodeck-cardinfo.zip") as z:
        cards = json.loads(z.read("cardinfo.json"))["data"]
    main_id = {img["id"]: c["id"] for c in cards for img in c.get("card_images", [])}
    main_id |= {c["id"]: c["id"] for c in cards}
    ygo = {c["id"]: YGO[c["banlist_info"]["ban_tcg"]] for c in cards
           if "ban_tcg" in (c.get("banlist_info") or {})}
    ours: dict[int, int] = {}
    for code, limit in _edopro_tcg(shared_data).items():
        assert code in main_id, f"{code} is not a YGOPRODeck card or artwork"
        ours[main_id[code]] = min(limit, ours.get(main_id[code], 3))
    differ = {c for c in set(ours) | set(ygo) if ours.get(c) != ygo.get(c)}
    # YGOPRODeck's snapshot has no ban_tcg at all for these five cards; Konami's official
    # list of 2026-05-18 has them as EDOPro does (see the next test).
    assert differ == {95454996, 95474755, 34022970, 32061192, 69272449}
    for code in differ:
        assert code not in ygo
    assert {c: ours[c] for c in differ} == {95454996: 0, 95474755: 0, 34022970: 1,
                                            32061192: 1, 69272449: 1}
    assert {c: v for c, v in ours.items() if c not in differ} == ygo


def test_2026_05_tcg_agrees_with_konami(shared_data: Path, yaml_yugi_pool: MemoryPool) -> None:
    vector = json.loads((shared_data / "banlists" / "konami-id" / "tcg" /
                         "2026-05-18.vector.json").read_text())
    day, reg = konami.parse_vector(vector)
    official = konami.from_vector(reg, yaml_yugi_pool, name="k", format="tcg",
                                  effective=day).limits()
    ours = _edopro_tcg(shared_data)
    # EDOPro also lists three alternate artworks (Konami lists each card once)
    assert {c: v for c, v in ours.items() if c not in (4280259, 80604092, 83764719)} == official

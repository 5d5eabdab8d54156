"""Imports never make a list in force worse (`deckcheck.formats.keep`), and EDOPro's own ids
map to official passcodes as the shipped lists' did (`banlists/EDOPRO-IDS.toml`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deckcheck.formats import keep, load_format
from deckcheck.formats import update as upd
from deckcheck.formats.loader import clear_cache
from deckcheck.formats.model import Banlist, BanlistEntry, LimitGroup
from tests.formats.test_shipped_history import CARD_FILES

DAY = dt.date(2005, 4, 1)


def bl(codes: dict[int, int], *, day: dt.date = DAY, whitelist: bool = False,
       groups: tuple[LimitGroup, ...] = ()) -> Banlist:
    return Banlist(name="L", format="goat", effective=day, whitelist=whitelist,
                   entries=[BanlistEntry(passcode=p, limit=n) for p, n in codes.items()],
                   groups=list(groups))


def test_what_makes_a_list_worse() -> None:
    official = {26202165: 1, 82301904: 0, 55144522: 0}
    old = bl(official, whitelist=True, groups=(LimitGroup(name="Legends", max=1,
                                                          passcodes={26202165}),))
    same = bl(official, whitelist=True, groups=old.groups)
    assert keep.worse(same, old) is None
    assert keep.worse(bl(official, whitelist=True), old) == \
        "has no 'Legends' group"
    assert keep.worse(bl(official, groups=old.groups), old) == \
        "is no whitelist, and the list in force is one"
    # EDOPro's own id where the list in force names the official passcode
    by_own_id = bl({504700178: 1, 82301904: 0, 55144522: 0}, whitelist=True,
                   groups=(LimitGroup(name="Legends", max=1, passcodes={504700178}),))
    assert keep.worse(by_own_id, old) == (
        "names 2 cards by official passcode where the list in force names 3 (1 by EDOPro's "
        "own ids)")
    fewer = bl({82301904: 0, 55144522: 0}, whitelist=True, groups=old.groups)
    assert keep.worse(fewer, old) == \
        "allows 0 cards where the list in force (a whitelist) allows 1"
    # a much smaller list is no worse list but a cut-off one: the import refuses it
    # (tests/formats/test_verify.py)
    big = bl({p: 0 for p in range(1, 31)})
    small = bl({p: 0 for p in range(1, 11)})
    assert keep.worse(small, big) is None
    # a list of another day is judged on what it is, not on its size
    assert keep.worse(bl({1: 0}, day=DAY + dt.timedelta(days=1)), big) is None


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_goat_list_by_edopro_ids_keeps_the_shipped_one(tmp_path: Path,
                                                         banlists_home: Path) -> None:
    shipped = load_format("goat").banlist_at()
    src = write(tmp_path / "src", "GOAT.lflist.conf",
                "!2005.4 GOAT\n$whitelist\n599999998 1 --Sangan\n599999999 0 --Witch\n")
    report = upd.import_lists(src)
    assert report.written == {} and not (banlists_home / "goat").exists()
    assert report.kept == [
        "goat 2005-04-01: kept the shipped list '2005.4 GOAT', because the imported "
        "'2005.4 GOAT' (EDOPro LFLists, GOAT.lflist.conf) allows 1 cards where the list in "
        f"force (a whitelist) allows {sum(1 for e in shipped.entries if e.limit):,}; pass "
        "--force to take it."]
    assert load_format("goat").banlist_at().limits() == shipped.limits()
    forced = upd.import_lists(src, force=True)
    assert forced.written == {"goat": 1} and forced.kept == []
    assert load_format("goat").banlist_at().limits() == {599999998: 1, 599999999: 0}


def test_a_rush_list_without_legend_groups_keeps_the_shipped_one(
        tmp_path: Path, banlists_home: Path) -> None:
    shipped = load_format("rush").banlist_at()
    assert shipped is not None and shipped.groups
    text = "!2026.07.01 Rush Duel\n" + "".join(
        f"{e.passcode} {e.limit}\n" for e in shipped.entries if e.limit is not None)
    report = upd.import_lists(write(tmp_path / "src", "Rush.lflist.conf", text))
    assert report.written == {}
    assert report.kept[0].startswith("rush 2026-07-01: kept the shipped list '2026.07.01 Rush "
                                     "Duel', because the imported '2026.07.01 Rush Duel' "
                                     "(EDOPro LFLists, Rush.lflist.conf) has no 'Legend ")
    assert load_format("rush").banlist_at().groups == shipped.groups


def test_edopro_ids_map_as_the_shipped_lists_did_without_a_card_database(
        tmp_path: Path, banlists_home: Path) -> None:
    src = write(tmp_path / "src", "GOAT.lflist.conf",
                "!2005.4 GOAT\n$whitelist\n504700178 1 --Sangan\n511000819 0 --CED\n")
    upd.import_lists(src, force=True)
    # Sangan (GOAT) and the pre-errata Chaos Emperor Dragon, by their official passcodes
    assert load_format("goat").banlist_at().limits() == {26202165: 1, 82301904: 0}


# -- real data: `banlist update --from ../shared/data/banlists/lflists` ------------------------

@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A card store imported from the real card data (banlists/README.md's)."""
    from tests.conftest import SHARED_DATA

    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present (real-data test)")
    from deckcheck.imports.run import import_sources
    from deckcheck.sources import read_source

    db = tmp_path_factory.mktemp("cards") / "cards.sqlite"
    import_sources(db, [read_source(SHARED_DATA / f) for f in CARD_FILES])
    return db


@pytest.fixture
def user_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "user-banlists"
    home.mkdir()
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(home))
    clear_cache()
    yield home
    clear_cache()


def _decks(shared: Path) -> dict[str, list[Path]]:
    """Real decks of the frozen formats: GOAT and Edison by name, Rush Duel by its ids."""
    out: dict[str, list[Path]] = {"goat": [], "edison": [], "rush": []}
    for path in sorted((shared / "decks").rglob("*.ydk")):
        if re.search("edison", path.name, re.I):
            out["edison"].append(path)
        elif re.search("goat", path.name, re.I):
            out["goat"].append(path)
        else:
            ids = re.findall(r"^\s*(\d+)\s*$", path.read_text(errors="replace"), re.M)
            if ids and sum(160_000_000 <= int(i) < 170_000_000 for i in ids) * 2 > len(ids):
                out["rush"].append(path)
    return out


def _verdicts(db: Path, decks: dict[str, list[Path]]) -> dict[str, list[tuple[str, Any]]]:
    from deckcheck.cards.store import StorePool
    from deckcheck.checker import Checker
    from deckcheck.decks.files import read_decks

    clear_cache()
    pool = StorePool(db)
    try:
        out: dict[str, list[tuple[str, Any]]] = {}
        for fid, paths in decks.items():
            checker = Checker(fid, pool=pool)
            out[fid] = []
            for path in paths:
                (deck,) = read_decks(str(path), pool)
                report = checker.check(deck)
                out[fid].append((str(path), report.verdict, sorted(
                    (v.code, v.passcode) for v in report.violations if v.severity == "error")))
        return out
    finally:
        pool.close()


def _update(shared: Path, *args: str) -> str:
    from deckcheck.cli.main import cli

    result = CliRunner().invoke(cli, [*args, "banlist", "update", "--from",
                                      str(shared / "banlists" / "lflists")])
    assert result.exit_code == 0, result.output
    clear_cache()
    return result.stdout


def test_update_from_edopro_keeps_the_frozen_formats_verdicts(
        real_db: Path, shared_data: Path, user_lists: Path) -> None:
    decks = _decks(shared_data)
    assert [len(decks[f]) for f in ("goat", "edison")] == [9, 9] and decks["rush"]
    before = _verdicts(real_db, decks)
    legal = {f: sum(v == "legal" for _, v, _ in rows) for f, rows in before.items()}
    assert legal["goat"] == 7 and legal["edison"] == 8 and legal["rush"] == len(decks["rush"])
    shipped = {f: load_format(f).banlist_at() for f in ("goat", "edison", "rush", "speed")}
    _update(shared_data, "--db", str(real_db))
    assert _verdicts(real_db, decks) == before
    for fid, old in shipped.items():  # Speed Duel: no real decks here; its list is the same
        new = load_format(fid).banlist_at()
        assert (new.limits(), new.groups, new.whitelist) == \
            (old.limits(), old.groups, old.whitelist), fid


def test_update_with_the_builtin_pool_keeps_the_rush_legend_groups(
        shared_data: Path, user_lists: Path, tmp_path: Path) -> None:
    groups = load_format("rush").banlist_at().groups
    # no card store: the built-in pool, which holds the Rush cards, so EDOPro's "# Legends"
    # section maps to the same groups (a pool without them keeps the list: test_keep_* above)
    _update(shared_data, "--db", str(tmp_path / "no-cards.sqlite"))
    now = load_format("rush").banlist_at().groups
    assert [g.name for g in now] == ["Legend Monster", "Legend Spell", "Legend Trap"]
    assert now == groups

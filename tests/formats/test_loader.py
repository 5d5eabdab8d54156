from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from deckcheck.errors import FormatError, UnknownBanlist, UnknownFormat
from deckcheck.formats import (
    find_banlist,
    list_formats,
    list_infos,
    load_banlist_file,
    load_format,
    native,
)
from deckcheck.formats.model import Banlist, BanlistEntry

SHIPPED = ["edison", "genesys", "goat", "master-duel", "ocg", "rush", "speed", "tcg",
           "traditional", "worlds"]


def write(home: Path, fid: str, name: str, day: dt.date, entries: dict[int, int]) -> Path:
    bl = Banlist(name=name, format=fid, effective=day,
                 entries=[BanlistEntry(passcode=p, name=f"Card {p}", limit=lim)
                          for p, lim in entries.items()])
    path = home / fid / f"{day.isoformat()}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(native.dump_list(bl), encoding="utf-8")
    return path


def test_every_shipped_format_loads_with_a_current_list() -> None:
    assert list_formats() == SHIPPED
    for fid in SHIPPED:
        fmt = load_format(fid)
        assert fmt.id == fid and fmt.list_dates(), fid
        current = fmt.banlist_at(dt.date(2026, 11, 1))
        assert current is not None and current.format == fid and current.entries


def test_shipped_format_facts() -> None:
    speed = load_format("speed")
    assert (speed.main.min, speed.main.max, speed.extra.max, speed.side.max) == (20, 30, 5, 5)
    assert speed.skills == "required-one"
    assert {g.name: g.max for g in speed.banlist_at().groups} == {
        "Limited 1": 1, "Limited 2": 2, "Limited 3": 3}
    genesys = load_format("genesys")
    assert genesys.points_cap == 100 and "link" in genesys.banned_frames
    assert all(e.points for e in genesys.banlist_at().entries)
    assert load_format("traditional").forbidden_as_limited
    assert not any(e.limit == 0 for e in load_format("traditional").banlist_at().entries)
    assert load_format("goat").banlist_at().whitelist
    assert load_format("ocg").region == "ocg"


def test_unknown_format_lists_the_known_ones() -> None:
    with pytest.raises(UnknownFormat) as info:
        load_format("nope")
    assert str(info.value) == f"No format 'nope'; known formats: {', '.join(SHIPPED)}."


def test_format_by_its_name() -> None:
    assert load_format("Master Duel").id == "master-duel"
    assert load_format("TCG").id == "tcg"


@pytest.mark.parametrize(("short", "fid"), [("md", "master-duel"), ("MD", "master-duel"),
                                            ("sd", "speed"), ("rd", "rush")])
def test_format_by_its_common_short_name(short: str, fid: str) -> None:
    """Issue 23: `-f md` for Master Duel (the initials of one format's name)."""
    assert load_format(short).id == fid


def test_a_short_name_that_is_no_formats_initials_is_unknown() -> None:
    with pytest.raises(UnknownFormat):
        load_format("mdx")
    with pytest.raises(UnknownFormat):
        load_format("m")


def test_imported_history_merges_and_date_picks_the_list(banlists_home: Path) -> None:
    write(banlists_home, "tcg", "Mine A", dt.date(2021, 3, 2), {1: 0})
    write(banlists_home, "tcg", "Mine B", dt.date(2021, 7, 2), {1: 1})
    fmt = load_format("tcg")
    days = fmt.list_dates()
    assert days == sorted(days) and dt.date(2021, 3, 2) in days and dt.date(2021, 7, 2) in days
    assert fmt.banlist_at(dt.date(2021, 3, 1)).name == "2020.12 TCG"  # shipped
    assert fmt.banlist_at(dt.date(2021, 3, 2)).name == "Mine A"
    assert fmt.banlist_at(dt.date(2021, 3, 14)).name == "Mine A"
    assert fmt.banlist_at(dt.date(2021, 3, 15)).name == "2021.03 TCG"  # shipped
    assert fmt.banlist_at(dt.date(2021, 6, 30)).name == "2021.03 TCG"
    assert fmt.banlist_at(dt.date(2021, 7, 1)).name == "2021.07 TCG"  # shipped
    assert fmt.banlist_at(dt.date(2021, 7, 2)).name == "Mine B"
    assert fmt.banlist_at(dt.date(2026, 11, 1)).name == "2026.05 TCG"  # the shipped one
    assert find_banlist("tcg", dt.date(2021, 3, 5)).name == "Mine A"
    assert find_banlist("mine b").limits() == {1: 1}
    assert [i.origin for i in list_infos() if i.name.startswith("Mine")] == ["imported"] * 2


def test_imported_list_replaces_shipped_one_of_the_same_day(banlists_home: Path) -> None:
    write(banlists_home, "tcg", "Mine", dt.date(2026, 5, 18), {1: 2})
    assert load_format("tcg").banlist_at().name == "Mine"


def test_list_in_wrong_folder(banlists_home: Path) -> None:
    path = write(banlists_home, "tcg", "X", dt.date(2021, 3, 1), {1: 0})
    path.write_text(path.read_text().replace('format = "tcg"', 'format = "ocg"'))
    fmt = load_format("tcg")  # lists are parsed when asked for, not when the format loads
    with pytest.raises(FormatError, match="lies in the 'tcg' folder"):
        fmt.banlist_at(dt.date(2021, 3, 2))


def test_list_whose_name_is_not_its_day(banlists_home: Path) -> None:
    path = write(banlists_home, "tcg", "X", dt.date(2021, 3, 3), {1: 0})
    path.rename(path.with_name("2021-03-04.toml"))
    with pytest.raises(FormatError, match="its name says 2021-03-04"):
        load_format("tcg").banlist_at(dt.date(2021, 3, 4))


def test_only_the_list_asked_for_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.formats import loader

    parsed: list[str] = []
    real = native.parse_list

    def spy(text: str, path: object = None) -> object:
        parsed.append(Path(str(path)).name)
        return real(text, path)

    monkeypatch.setattr(loader.native, "parse_list", spy)
    loader.clear_cache()
    fmt = load_format("tcg")
    assert len(fmt.list_dates()) > 50 and parsed == []
    assert fmt.banlist_at(dt.date(2026, 5, 10)).effective == dt.date(2026, 2, 2)
    assert parsed == ["2026-02-02.toml"]
    loader.clear_cache()


def test_load_banlist_file_by_content(tmp_path: Path) -> None:
    conf = tmp_path / "mine.conf"
    conf.write_text("!2026.05 TCG\n#Forbidden\n55144522 0 --Pot of Greed\n"
                    "!2026.07 OCG\n55144522 1\n", encoding="utf-8")
    lists = load_banlist_file(conf)
    assert [(b.name, b.format, b.effective) for b in lists] == [
        ("2026.05 TCG", "tcg", dt.date(2026, 5, 1)), ("2026.07 OCG", "ocg", dt.date(2026, 7, 1))]
    toml = tmp_path / "mine.toml"
    toml.write_text(native.dump_list(lists[0]), encoding="utf-8")
    (again,) = load_banlist_file(toml)
    assert again.limits() == {55144522: 0}
    assert find_banlist(str(conf), dt.date(2026, 6, 1)).name == "2026.05 TCG"
    assert find_banlist(str(conf)).name == "2026.07 OCG"
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    with pytest.raises(FormatError, match="not a list file"):
        load_banlist_file(junk)


def test_unknown_banlist() -> None:
    with pytest.raises(UnknownBanlist, match="No list or format called 'nothing'"):
        find_banlist("nothing")
    with pytest.raises(UnknownBanlist, match="no list in force on 1990-01-01"):
        find_banlist("tcg", dt.date(1990, 1, 1))


def test_alternate_artwork_lookup_helpers() -> None:
    bl = load_format("tcg").banlist_at()
    # Apollousa: Konami's list names the card once; all its passcodes find its status
    assert bl.limit_of((4280258, 4280259)) == 0
    assert bl.limit_of((4280259, 4280258)) == 0
    assert bl.limit_of((4280259,)) is None
    assert bl.limit_of((1,)) is None


def test_package_copy_is_preferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from deckcheck.formats import loader

    fake = tmp_path / "deckcheck"
    (fake / "_banlists").mkdir(parents=True)
    monkeypatch.setattr(loader, "files", lambda _pkg: fake)
    assert loader.shipped_dir() == fake / "_banlists"
    (fake / "_banlists").rmdir()
    (tmp_path / "banlists").mkdir()
    assert loader.shipped_dir() == tmp_path / "banlists"


def test_format_and_list_files_are_found_as_path_glob_finds_them(tmp_path: Path) -> None:
    """The loader lists folders with `os.scandir` on strings (no pathlib on the check path):
    the same formats and list files, in the same order, as `Path.glob` finds, hidden names,
    folders named like files and formats without a format file included."""
    from deckcheck.formats import loader

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "format.toml").write_text("", encoding="utf-8")
    for name in ("2026-01-01.toml", ".hidden.toml", "notes.txt", "2025-12-31.toml", ".toml",
                 "x.TOML"):
        (tmp_path / "a" / name).write_text("", encoding="utf-8")
    (tmp_path / "a" / "dir.toml").mkdir()
    (tmp_path / ".b").mkdir()
    (tmp_path / ".b" / "format.toml").mkdir()  # a folder of that name counts, as for glob
    (tmp_path / "c").mkdir()  # no format file
    (tmp_path / "format.toml").write_text("", encoding="utf-8")
    dirs = [tmp_path, *(d for d in loader.search_dirs())]
    for d in dirs:
        globbed = sorted({p.parent.name for p in d.glob(f"*/{loader.FORMAT_FILE}")})
        assert loader._format_ids((str(d),)) == globbed
        for fid in [*globbed, "c", "missing"]:
            expected = [str(p) for p in sorted((d / fid).glob("*.toml"))
                        if p.name != loader.FORMAT_FILE]
            assert loader._list_files(str(d / fid)) == expected
    assert loader._format_ids((str(tmp_path),)) == [".b", "a"]


def test_list_infos_names_the_lists_load_format_reads(banlists_home: Path) -> None:
    """`list_infos` (what `banlist list` shows, what `verify` compares with) walks the folders
    as `load_format` does: the list files of every format, shipped and imported, and nothing
    in a folder that holds no format (no `format.toml` in any directory)."""
    write(banlists_home, "tcg", "Mine", dt.date(2021, 3, 2), {1: 0})  # the format is shipped
    write(banlists_home, "notes", "Stray", dt.date(2021, 3, 2), {1: 0})  # no such format
    stray = write(banlists_home, "old-tcg", "Old", dt.date(2021, 3, 3), {1: 0})
    stray.write_text(stray.read_text().replace('format = "old-tcg"', 'format = "tcg"'))
    infos = list_infos()
    assert not {"Stray", "Old"} & {i.name for i in infos}
    assert [(i.origin, i.path) for i in infos if i.name == "Mine"] == [
        ("imported", banlists_home / "tcg" / "2021-03-02.toml")]
    for fid in list_formats():
        listed = sorted(i.effective for i in infos if i.format == fid)
        assert listed == load_format(fid).list_dates(), fid


def test_a_list_info_is_a_value() -> None:
    """A list's header is declared once (`plain.Value`): equal and hashing alike by its
    fields, and never changed once read (the cached `list_infos` hands out the same ones)."""
    from deckcheck.formats.loader import ListInfo

    info = list_infos()[0]
    again = ListInfo(info.name, info.format, info.effective, info.path, info.origin)
    assert again == info and hash(again) == hash(info) and len({again, info}) == 1
    assert list(ListInfo.model_fields) == ["name", "format", "effective", "path", "origin"]
    with pytest.raises(AttributeError):
        info.name = "changed"  # type: ignore[misc]

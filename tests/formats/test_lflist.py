from __future__ import annotations

import datetime as dt

import pytest

from deckcheck.errors import FormatError
from deckcheck.formats import lflist

TWO_LISTS = """\ufeff#[2026.05 Test]
!2026.05 Test
# a comment line
#Forbidden
55144522 0 --Pot of Greed
4280258 0 --Apollousa, Bow of the Goddess
4280259 0 --Apollousa, Bow of the Goddess
#Limited
83764718 1 --Monster Reborn\t\t\t\tSPELLS
21044178 2
not an entry line
!2026.07 Other
$whitelist
--StartDate 1970-01-01
#Unlimited
14558127 3 --Ash Blossom & Joyous Spring
14558128 1 --Ash Blossom & Joyous Spring
511006006 -1
"""


def test_several_lists_comments_whitelist_and_notes() -> None:
    first, second = lflist.parse(TWO_LISTS)
    assert (first.name, first.whitelist, first.genesys) == ("2026.05 Test", False, False)
    assert [(e.passcode, e.count, e.name, e.section) for e in first.entries.values()] == [
        (55144522, 0, "Pot of Greed", "Forbidden"),
        (4280258, 0, "Apollousa, Bow of the Goddess", "Forbidden"),
        (4280259, 0, "Apollousa, Bow of the Goddess", "Forbidden"),
        (83764718, 1, "Monster Reborn", "Limited"),
        (21044178, 2, None, "Limited")]
    assert (second.name, second.whitelist, second.notes) == ("2026.07 Other", True,
                                                             ["StartDate 1970-01-01"])
    assert {c: e.count for c, e in second.entries.items()} == {
        14558127: 3, 14558128: 1, 511006006: 0}  # -1 reads as "not allowed"


def test_alternate_artworks_stay_without_a_pool_and_fold_with_one(pool) -> None:
    raw = lflist.parse(TWO_LISTS)
    day = dt.date(2026, 5, 1)
    plain = lflist.to_banlist(raw[0], format="x", effective=day)
    assert plain.limits() == {55144522: 0, 4280258: 0, 4280259: 0, 83764718: 1, 21044178: 2}
    folded = lflist.to_banlist(raw[0], format="x", effective=day, pool=pool)
    assert folded.limits() == {55144522: 0, 4280258: 0, 83764718: 1, 21044178: 2}
    assert folded.entries[-1].name == "Abyss Dweller"  # the pool names unnamed lines
    # an alternate artwork listed stricter than its card: the strictest status wins
    other = lflist.to_banlist(raw[1], format="x", effective=day, pool=pool)
    assert other.limits() == {14558127: 1, 511006006: 0}
    assert other.whitelist


def test_strictest_artwork_wins_whatever_the_line_order(pool) -> None:
    day = dt.date(2026, 5, 1)
    (raw,) = lflist.parse("!L\n#Limited\n14558128 1\n#Unlimited\n14558127 3\n")
    assert lflist.to_banlist(raw, format="x", effective=day, pool=pool).limits() == {
        14558127: 1}
    (pts,) = lflist.parse("!G\n$genesys\n14558128 20\n14558127 5\n")
    assert lflist.to_banlist(pts, format="x", effective=day, pool=pool).points() == {
        14558127: 20}


def test_a_repeated_line_wins_and_moves_to_its_section() -> None:
    (raw,) = lflist.parse("!L\n#Forbidden\n55144522 0\n21044178 0\n#Limited\n55144522 1\n")
    assert [(e.passcode, e.count, e.section) for e in raw.entries.values()] == [
        (21044178, 0, "Forbidden"), (55144522, 1, "Limited")]


def test_genesys_numbers_are_points() -> None:
    text = "!2026.06.08 Genesys\n$genesys\n# 100 Points\n21044178 100 -- Abyss Dweller\n" \
           "# 1 Point\n55144522 1  -- Pot of Greed\n"
    (raw,) = lflist.parse(text)
    bl = lflist.to_banlist(raw, format="genesys", effective=dt.date(2026, 6, 8))
    assert bl.points() == {21044178: 100, 55144522: 1}
    assert bl.limits() == {}
    assert {e.name for e in bl.entries} == {"Abyss Dweller", "Pot of Greed"}


def test_group_headers_make_limit_groups() -> None:
    text = ("!2025.07 Speed Duel\n$whitelist\n#Unlimited\n423705 3 --Gearfried\n"
            "55144522 3 --Pot of Greed\n#Limited 1\n87102774 1 --Golden Ladybug\n"
            "5318639 1 --Mystical Space Typhoon\n#Limited 3\n423705 3 --Gearfried\n")
    (raw,) = lflist.parse(text)
    bl = lflist.to_banlist(raw, format="speed", effective=dt.date(2025, 7, 1),
                           group_headers={"Limited 1": 1, "Limited 2": 2, "Limited 3": 3})
    assert [(g.name, g.max, sorted(g.passcodes)) for g in bl.groups] == [
        ("Limited 1", 1, [5318639, 87102774]), ("Limited 3", 3, [423705])]
    assert bl.limits() == {423705: 3, 55144522: 3, 87102774: 1, 5318639: 1}
    # and back: the groups survive an export
    (again,) = lflist.parse(lflist.dump([bl]))
    back = lflist.to_banlist(again, format="speed", effective=bl.effective,
                             group_headers={"Limited 1": 1, "Limited 3": 3})
    assert back.groups == bl.groups and back.limits() == bl.limits() and back.whitelist


def test_dump_round_trip() -> None:
    raw = lflist.parse(TWO_LISTS)
    lists = [lflist.to_banlist(r, format="x", effective=dt.date(2026, 5, 1)) for r in raw]
    text = lflist.dump(lists)
    assert text.startswith("#[2026.05 Test]\n!2026.05 Test\n#Forbidden\n"
                           "4280258 0 --Apollousa, Bow of the Goddess\n")
    again = [lflist.to_banlist(r, format="x", effective=dt.date(2026, 5, 1))
             for r in lflist.parse(text)]
    assert [(b.name, b.whitelist, b.limits()) for b in again] == \
           [(b.name, b.whitelist, b.limits()) for b in lists]


def test_read_needs_a_date_and_entries_need_a_list() -> None:
    with pytest.raises(FormatError, match="has no date"):
        lflist.read("!My list\n1 0\n", source="f.conf",
                    classify=lambda name: ("x", None, {}))
    with pytest.raises(FormatError, match="f.conf:1: an entry comes before"):
        lflist.parse("12345 0 --x\n", source="f.conf")


def test_an_open_file_reads_as_its_text(tmp_path) -> None:
    path = tmp_path / "two.lflist.conf"
    path.write_text(TWO_LISTS, encoding="utf-8")
    with path.open(encoding="utf-8-sig") as lines:
        streamed = lflist.parse(lines, "two")
    assert streamed == lflist.parse(TWO_LISTS, "two")


def test_more_entries_than_any_card_pool_is_no_banlist() -> None:
    lines = ["!2026.05 Huge", "#Forbidden"]
    lines += [f"{100000000 + i} 0" for i in range(lflist.MAX_ENTRIES + 1)]
    with pytest.raises(FormatError) as err:
        lflist.parse(iter(lines), "huge.lflist.conf")
    assert str(err.value) == (
        f"huge.lflist.conf:{lflist.MAX_ENTRIES + 3}: more than 50,000 list entries, more than "
        "any card pool has cards, so this is no banlist; nothing was changed.")
    # the largest real list (a whitelist of 13,035 cards) is well inside the bound
    assert len(lflist.parse("\n".join(lines[:13037]))[0].entries) == 13035

"""Misusing `deckcheck.check` the way Python users are likely to: a clear error (a
DeckcheckError for bad values, a TypeError naming the fix for wrong types), never an
AttributeError from deep inside, and the natural spellings of arguments accepted."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulekit import DAY, POT, codes, deck, make_pool, tcg

from deckcheck.checker import check
from deckcheck.errors import BadDate, BadOption, UnknownBanlist

ROOT = Path(__file__).resolve().parents[2]


def test_a_path_instead_of_a_deck() -> None:
    with pytest.raises(TypeError, match=r"^check\(\) takes a Deck, not str; read a file first "
                                        r"with deckcheck\.read_deck\(path, pool\), or use "
                                        r"deckcheck\.check_many\.$"):
        check(str(ROOT / "examples" / "tcg-legal.ydk"), tcg(), DAY, pool=make_pool())


def test_format_none_is_the_default_and_other_types_are_named() -> None:
    report = check(deck(), None, DAY, pool=make_pool())
    assert report.format == "tcg"
    with pytest.raises(TypeError, match="format must be a format id such as 'tcg' or a Format, "
                                        "not int"):
        check(deck(), 5, DAY, pool=make_pool())  # type: ignore[arg-type]


def test_date_of_a_wrong_type_is_a_bad_date() -> None:
    with pytest.raises(BadDate, match='"20261122" is not a date; write it as YYYY-MM-DD'):
        check(deck(), tcg(), 20261122, pool=make_pool())  # type: ignore[arg-type]


def test_negative_points_cap() -> None:
    with pytest.raises(BadOption, match="--points-cap must be 0 or more, not -1"):
        check(deck(), tcg(), DAY, pool=make_pool(), points_cap=-1)


def test_select_as_one_string_of_codes() -> None:
    d = deck([(POT, 1)], fill=39)
    assert codes(check(d, tcg(), DAY, pool=make_pool(), select="DC2")) == \
        codes(check(d, tcg(), DAY, pool=make_pool(), select=["DC2"])) == ["DC202"]
    assert codes(check(d, tcg(), DAY, pool=make_pool(), ignore="DC1,DC2")) == []


def test_banlist_given_by_name_or_file() -> None:
    report = check(deck(), "tcg", "2026-06-01", pool=make_pool(), banlist="tcg")
    assert report.banlist is not None
    shipped = ROOT / "banlists" / "tcg" / "2026-05-18.toml"
    by_file = check(deck(), "tcg", "2026-06-01", pool=make_pool(), banlist=shipped)
    assert by_file.banlist == report.banlist == "2026.05 TCG"
    with pytest.raises(UnknownBanlist, match="^nothing.toml: no such list file"):
        check(deck(), "tcg", DAY, pool=make_pool(), banlist="nothing.toml")

"""The .ydk reader and writer on hand-written files covering every dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.decks.ydk import read_ydk, write_ydk
from deckcheck.errors import DeckReadError


def read(fixtures: Path, name: str):  # noqa: ANN201
    path = fixtures / "ydk" / name
    return read_ydk(path.read_bytes(), str(path), name=path.stem)


def flat(deck, section):  # noqa: ANN001, ANN201
    return deck.passcodes(section)


def test_basic_sections_counts_and_locations(fixtures: Path) -> None:
    deck = read(fixtures, "basic.ydk")
    assert flat(deck, "main") == [14558127] * 3 + [23434538, 35261759, 10045474]
    assert flat(deck, "extra") == [86066372, 44508094]
    assert flat(deck, "side") == [27204311, 27204311]
    first = deck.main[0]
    assert (first.count, first.written, first.location.line) == (3, "14558127", 3)
    assert str(deck.side[0].location).endswith("basic.ydk:13")
    assert deck.meta == {"created_by": "Hand"}
    assert deck.problems == []
    assert deck.name == "basic"


def test_crlf_bom_and_blank_lines(fixtures: Path) -> None:
    deck = read(fixtures, "crlf_bom.ydk")
    assert flat(deck, "main") == [14558127, 23434538]
    assert [e.location.line for e in deck.main] == [3, 5]
    assert flat(deck, "extra") == [86066372]
    assert flat(deck, "side") == [27204311]
    assert deck.problems == []


@pytest.mark.parametrize("name,main,extra", [
    ("only_main.ydk", [14558127, 35261759], []),
    ("no_side.ydk", [14558127], [86066372]),
    ("no_headers.ydk", [14558127, 23434538], []),
])
def test_missing_headers(fixtures: Path, name: str, main: list[int], extra: list[int]) -> None:
    deck = read(fixtures, name)
    assert (flat(deck, "main"), flat(deck, "extra"), flat(deck, "side")) == (main, extra, [])
    assert deck.problems == []


def test_mdpro3_sections_after_side_are_not_cards(fixtures: Path) -> None:
    deck = read(fixtures, "mdpro3.ydk")
    assert flat(deck, "main") == [14558127, 14558127]
    assert flat(deck, "extra") == [86066372]
    assert flat(deck, "side") == [27204311]
    assert deck.problems == []
    assert deck.meta["created_by"] == "MDPro3"


def test_text_after_passcode_and_comments(fixtures: Path) -> None:
    deck = read(fixtures, "trailing_text.ydk")
    assert flat(deck, "main") == [14558127, 23434538, 35261759]
    assert [e.written for e in deck.main] == ["14558127", "23434538", "35261759"]
    assert flat(deck, "extra") == [86066372]
    assert deck.problems == []


def test_alternate_art_anime_and_unknown_ids_stay_as_written(fixtures: Path) -> None:
    deck = read(fixtures, "alt_anime_unknown.ydk")
    assert flat(deck, "main") == [14558128, 89631140, 100000001, 511000818]


def test_sections_are_kept_as_written(fixtures: Path) -> None:
    deck = read(fixtures, "wrong_sections.ydk")
    assert flat(deck, "main") == [86066372, 14558127]   # a Link monster under #main stays
    assert flat(deck, "extra") == [35261759]            # a Spell under #extra stays


def test_bad_lines_are_problems_with_locations(fixtures: Path) -> None:
    deck = read(fixtures, "bad_lines.ydk")
    assert flat(deck, "main") == [14558127]
    assert [(p.kind, p.location.line) for p in deck.problems] == [
        ("bad-line", 3), ("bad-line", 4), ("bad-line", 5)]
    assert deck.problems[0].message == (
        "The line 'hello there' is neither a passcode nor a section header; it was skipped.")
    assert "99999999999" in deck.problems[1].message


def test_many_bad_lines_are_summarised() -> None:
    data = "#main\n" + "junk line\n" * 50
    deck = read_ydk(data, "j.ydk")
    assert len(deck.problems) == 21
    assert deck.problems[-1].message.startswith("30 more lines")


def test_not_a_ydk_file(fixtures: Path) -> None:
    with pytest.raises(DeckReadError, match="is not a YDK deck file"):
        read(fixtures, "not_a_deck.ydk")


def test_empty_deck_with_headers_is_a_deck() -> None:
    deck = read_ydk(b"#main\n#extra\n!side\n", "e.ydk")
    assert (deck.size("main"), deck.size("extra"), deck.size("side")) == (0, 0, 0)


def test_writer_round_trip(fixtures: Path) -> None:
    deck = read(fixtures, "basic.ydk")
    text = write_ydk(deck)
    assert text.splitlines()[:5] == ["#created by deckcheck", "#main", "14558127", "14558127",
                                     "14558127"]
    again = read_ydk(text, "x.ydk")
    for s in ("main", "extra", "side"):
        assert again.passcodes(s) == deck.passcodes(s)


def test_mdpro3_marker_before_pickup_is_not_a_side_card(fixtures: Path) -> None:
    # MDPro3 ends the Side Deck with a bare `301322` (no card) directly before #pickup
    deck = read(fixtures, "mdpro3_pickup_marker.ydk")
    assert flat(deck, "side") == [27204311]
    assert flat(deck, "main") == [14558127, 14558127] and flat(deck, "extra") == [86066372]
    assert deck.problems == []
    assert deck.meta["ignored"].startswith("line 9: 301322,")


@pytest.mark.parametrize(("text", "side"), [
    # not MDPro3's file: the line is the player's, kept for the validator to judge
    ("#created by Hand\n#main\n!side\n27204311\n301322\n#pickup\n", [27204311, 301322]),
    # a passcode-sized id, or one not directly before #pickup, is a card
    ("#created by MDPro3\n#main\n!side\n27204311\n#pickup\n", [27204311]),
    ("#created by MDPro3\n#main\n!side\n301322\n27204311\n#pickup\n", [301322, 27204311]),
    ("#created by MDPro3\n#main\n!side\n301322\n301322\n#pickup\n", [301322, 301322]),
])
def test_only_that_one_mdpro3_line_is_dropped(text: str, side: list[int]) -> None:
    deck = read_ydk(text, "d.ydk")
    assert deck.passcodes("side") == side and "ignored" not in deck.meta


@pytest.mark.parametrize("line,digits", [
    ("14558127", "14558127"), ("  14558127\t", "14558127"), ("14558127 --Ash", "14558127"),
    ("14558127;x", "14558127"), ("14558127abc", ""), ("12\u00b3", ""), ("", None), ("  ", None),
    ("#main", None), ("abc", None), ("\u0661\u0662", None)])
def test_one_function_says_which_passcode_a_line_starts_with(line: str, digits: str | None
                                                               ) -> None:
    from deckcheck.decks.ydk import _digits

    assert _digits(line) == digits


@pytest.mark.parametrize("line,kind", [
    ("#main", "main"), (" #EXTRA ", "extra"), ("!side", "side"), ("!Side", "side"),
    ("#pickup", "pickup"), ("##pickup", "off"), ("#case", "off"), ("!foo", "off"),
    ("#created by X", "created"), ("# a comment", None), ("$123$", None), ("", None),
    ("abc", "bad")])
def test_one_function_says_what_a_header_line_does(line: str, kind: str | None) -> None:
    from deckcheck.decks.ydk import _directive

    assert _directive(line) == kind


@pytest.mark.parametrize("shape", ["{}", " {} ", "\t{}", "{} --Ash", "{}#x", "{};x", "{},x"])
def test_every_way_to_write_a_passcode_line_reads_the_same(shape: str) -> None:
    """Bare and padded or annotated passcode lines take one path: same entries, same counts,
    same locations, copies merged across the shapes."""
    line = shape.format("14558127")
    deck = read_ydk(f"#main\n{line}\n{line}\n14558127\n#extra\n!side\n{line}\n", "a.ydk")
    assert [(e.passcode, e.written, e.count, e.location.line) for e in deck.main] == \
        [(14558127, "14558127", 3, 2)]
    assert [(e.passcode, e.count, e.location.line) for e in deck.side] == [(14558127, 1, 7)]
    written = shape.format("99999999999").strip()
    bad = read_ydk(f"#main\n{shape.format('99999999999')}\n", "a.ydk")
    assert [(p.kind, p.written, p.location.line) for p in bad.problems] == \
        [("bad-line", written, 2)]

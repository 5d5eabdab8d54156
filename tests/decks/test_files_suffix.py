"""A deck file's suffix is worked out in one place (`decks.files.stem_suffix`): the readers
pick a format by it, `check` over several inputs and `event check` over folders skip files
by it, and all three agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckcheck.checker import _not_a_deck_file
from deckcheck.decks.files import DECK_SUFFIXES, detect_format, stem_suffix
from deckcheck.event.inputs import _why_not_read


@pytest.mark.parametrize(("path", "expected"), [
    ("deck.ydk", ("deck", ".ydk")),
    ("Deck.YDK", ("Deck", ".ydk")),  # the stem keeps its case: it names the deck
    ("folder/deck.ydk.txt", ("deck.ydk", ".txt")),  # only the last suffix counts
    ("folder.d/deck", ("deck", "")),  # a dot in a folder is no suffix
    ("deck.", ("deck.", "")),
    (".hidden", (".hidden", "")),
    ("..x", (".", ".x")),
    ("folder/deck.csv/", ("deck", ".csv")),
    ("folder/.", ("folder", "")),
    ("folder/..", ("..", "")),
    ("", ("", "")),
])
def test_stem_suffix(path: str, expected: tuple[str, str]) -> None:
    assert stem_suffix(path) == expected


@given(st.text(alphabet="aZ./", max_size=10))
def test_stem_suffix_is_pathlibs(path: str) -> None:
    assert stem_suffix(path) == (Path(path).stem, Path(path).suffix.lower())


NAMES = ["a.ydk", "B.YDK", "c.ydk.txt", "d.txt.pdf", "e.md", "f", "g.", "h.XLSX", "i.Csv",
         "j.tsv.bak", "k.omega", "l.ydke", "m.json"]


@pytest.mark.parametrize("name", NAMES)
def test_check_and_event_check_skip_the_same_files(tmp_path: Path, name: str) -> None:
    """A file among many inputs is a deck file by the same suffix for `check` and for
    `event check`. One difference is kept: a file with no suffix is read by `check` (named
    by the user: the reader says what it is) but skipped in an event's folder."""
    path = tmp_path / name
    path.write_text("#main\n")
    suffix = stem_suffix(name)[1]
    is_deck = suffix in DECK_SUFFIXES
    checker_skips = _not_a_deck_file(str(path)) is not None
    event_skips = _why_not_read(str(path), name) is not None
    assert event_skips == (not is_deck)
    assert checker_skips == (not is_deck and suffix != "")
    if checker_skips:
        assert f"({suffix})" in (_not_a_deck_file(str(path)) or "")


def test_the_readers_pick_a_format_by_the_same_suffix(tmp_path: Path) -> None:
    path = tmp_path / "My Deck.YDK.Csv"
    path.write_text("1 Pot of Greed\n")
    assert stem_suffix(str(path)) == ("My Deck.YDK", ".csv")
    assert detect_format(str(path)) == "csv"

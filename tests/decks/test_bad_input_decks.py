"""Reading and writing decks through the library with odd paths: a DeckReadError or
DeckWriteError with one sentence, never a ValueError or an OSError from deep inside."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.decks.files import read_deck, write_deck
from deckcheck.errors import DeckReadError, DeckWriteError


def test_path_with_a_nul_character() -> None:
    with pytest.raises(DeckReadError, match=r"^'a\\x00b' is not a file name; give a deck file"):
        read_deck("a\0b", None)


def test_write_to_a_folder_or_an_empty_path(tmp_path: Path) -> None:
    deck = read_deck("ydke://ryPeAA==!!!", None)
    with pytest.raises(DeckWriteError, match=f"^{tmp_path} is a folder; give a file name inside "
                                             "it"):
        write_deck(deck, tmp_path, None, fmt="ydk")
    with pytest.raises(DeckWriteError, match=r"^No output file was named \(the path is empty\)"):
        write_deck(deck, "", None, fmt="ydk")

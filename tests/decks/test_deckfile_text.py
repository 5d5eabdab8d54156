"""Plain-text decklists: counts written every way, headers in three languages, names in
any language, typos with suggestions, impossible counts, legacy encodings."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.model import Deck, Entry
from deckcheck.decks.text import read_text, write_text
from deckcheck.errors import DeckReadError


def read(fixtures: Path, name: str, pool: MemoryPool) -> Deck:
    path = fixtures / "text" / name
    return read_text(path.read_bytes(), pool, str(path))


def pairs(deck: Deck, section: str) -> list[tuple[int | None, int]]:
    return [(e.passcode, e.count) for e in deck.section(section)]  # type: ignore[arg-type]


def test_every_count_style(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "counts.txt", pool)
    assert pairs(deck, "main") == [
        (14558127, 3), (23434538, 2), (35261759, 2), (24224830, 3), (10045474, 2),
        (4206964, 1), (83764719, 1), (90508760, 3), (23771716, 1), (23771716, 1),
        (91932350, 1), (35261759, 2), (24224830, 1)]
    # no header at all: Extra Deck monsters are placed by their frame
    assert pairs(deck, "extra") == [(86066372, 1), (44508094, 1)]
    assert deck.problems == []
    assert [e.location.line for e in deck.main[:3]] == [1, 2, 3]


def test_headers_meta_totals_and_bullets(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "headers.txt", pool)
    assert deck.meta == {"deck_name": "Hand test", "player": "Jane Doe"}
    assert pairs(deck, "main") == [(14558127, 3), (23434538, 2), (75372290, 1),
                                   (35261759, 2), (10045474, 1)]
    assert pairs(deck, "extra") == [(86066372, 1), (84013237, 1)]
    assert pairs(deck, "side") == [(27204311, 3)]
    assert deck.problems == []


def test_chinese_and_japanese_headers_and_names(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "cjk.txt", pool)
    assert pairs(deck, "main") == [(14558127, 3), (23434538, 2), (89631139, 1),
                                   (83764719, 2), (4206964, 1)]
    assert pairs(deck, "extra") == [(86066372, 1), (44508094, 1)]
    assert pairs(deck, "side") == [(24224830, 1), (10045474, 2)]
    assert deck.main[0].written == "灰流丽"


def test_passcodes_instead_of_names(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "passcodes.txt", pool)
    assert pairs(deck, "main") == [(14558127, 3), (23434538, 2), (14558128, 1)]
    assert pairs(deck, "extra") == [(86066372, 1)]
    assert pairs(deck, "side") == [(99999999, 2)]   # unknown passcodes stay entries


def test_problems_are_sentences_with_locations(fixtures: Path, pool: MemoryPool) -> None:
    deck = read(fixtures, "problems.txt", pool)
    assert deck.main == deck.extra == []
    got = [(p.kind, p.location.line, p.section) for p in deck.problems]
    assert got == [("unknown-name", 2, "main"), ("bad-count", 3, "main"),
                   ("bad-count", 4, "main"), ("bad-count", 5, "main"),
                   ("unknown-name", 6, "main"), ("unknown-name", 8, "extra")]
    typo = deck.problems[0]
    assert typo.suggestions == ("Ash Blossom & Joyous Spring",)
    assert typo.count == 3
    assert typo.message == ("No card is named 'Ash Blossom & Joyus Spring'; did you mean "
                            "Ash Blossom & Joyous Spring?")
    assert [p.message for p in deck.problems[1:4]] == [
        "The count '0' for 'Maxx \"C\"' is zero; write 1 to 99 copies.",
        "The count '-1' for 'Pot of Desires' is negative; write 1 to 99 copies.",
        "The count '100' for 'Called by the Grave' is more than 99; write 1 to 99 copies."]
    assert "Accesscode Talker" in deck.problems[-1].suggestions
    assert str(deck.problems[-1].location).endswith("problems.txt:8")


def test_ambiguous_name_is_reported(pool: MemoryPool) -> None:
    from deckcheck.cards.model import Card, Frame, Kind

    twins = MemoryPool([*pool, Card(passcode=1, name="Twin A", names={"ja": "双子"},
                                    kind=Kind.SPELL, frame=Frame.SPELL, rule_name="Twin A"),
                        Card(passcode=2, name="Twin B", names={"ja": "双子"},
                             kind=Kind.SPELL, frame=Frame.SPELL, rule_name="Twin B")])
    deck = read_text("2 双子\n", twins, "t.txt")
    assert deck.problems[0].kind == "ambiguous-name"
    assert deck.problems[0].suggestions == ("Twin A", "Twin B")
    assert "fits several cards (Twin A, Twin B)" in deck.problems[0].message


@pytest.mark.parametrize("name,main", [
    ("cp1252.txt", [(14558127, 3)]),
    ("shift_jis.txt", [(14558127, 3), (10045474, 1)]),
    ("gbk.txt", [(14558127, 3), (23434538, 2)]),
    ("utf16.txt", [(14558127, 3)]),
])
def test_legacy_encodings(fixtures: Path, pool: MemoryPool, name: str,
                          main: list[tuple[int, int]]) -> None:
    deck = read(fixtures, name, pool)
    assert pairs(deck, "main") == main
    if name == "cp1252.txt":
        assert deck.problems[0].written == "Café Unknown"


def test_no_card_lines(pool: MemoryPool) -> None:
    with pytest.raises(DeckReadError, match="holds no card lines"):
        read_text("// just a comment\n\n", pool, "c.txt")


def test_writer_groups_and_reads_back(pool: MemoryPool) -> None:
    deck = Deck(name="Test", main=[Entry(passcode=14558127, count=2),
                                   Entry(passcode=35261759, count=2),
                                   Entry(passcode=14558128),   # alt art: same card
                                   Entry(passcode=10045474), Entry(passcode=424242)],
                extra=[Entry(passcode=86066372)], side=[])
    text = write_text(deck, pool)
    assert text == ("# Test\n\nMonster (3)\n3 Ash Blossom & Joyous Spring\n\n"
                    "Spell (2)\n2 Pot of Desires\n\nTrap (1)\n1 Infinite Impermanence\n\n"
                    "Main Deck (1)\n1 424242\n\nExtra Deck (1)\n1 Accesscode Talker\n\n"
                    "Side Deck (0)\n")
    again = read_text(text, pool, "t.txt")
    assert again.counts("main") == {14558127: 3, 35261759: 2, 10045474: 1, 424242: 1}
    assert again.counts("extra") == {86066372: 1}
    assert again.problems == []


def test_prose_is_bounded(pool: MemoryPool, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = pool.suggest
    monkeypatch.setattr(pool, "suggest", lambda name, limit=3: calls.append(name) or
                        real(name, limit))
    text = "".join(f"this is line {i} of a letter\n" for i in range(150)) + "x" * 5000 + "\n"
    deck = read_text(text, pool, "letter.txt")
    assert len(calls) == 25                      # "did you mean" searches are capped
    assert len(deck.problems) == 101
    assert deck.problems[-1].message == ("51 more lines could not be read as cards; is this a "
                                         "decklist?")


@pytest.mark.parametrize("line,meta", [
    ("# a comment", {}), ("=====", {}), ("Total: 40", {}), ("Player: Ann", {"player": "Ann"}),
    ("Deck name: Blue-Eyes", {"deck_name": "Blue-Eyes"})])
def test_one_function_says_which_lines_are_no_card(line: str, meta: dict[str, str]) -> None:
    from deckcheck.decks.resolve import Resolver
    from deckcheck.decks.text import _no_card

    found: dict[str, str] = {}
    assert _no_card(line, Resolver(None), found) and found == meta
    assert not _no_card("3 Ash Blossom & Joyous Spring", Resolver(None), found)

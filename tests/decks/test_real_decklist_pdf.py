"""A 200-player event printed as one PDF: 200 real decks of ../shared/data/decks, read as an
event folder (`event.registrations.discover`) and written by `event.sheets.write_decklists`, read
back with pypdf: one page per player, in order, each holding the player and every card line."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from deckcheck.cards.pool import MemoryPool
from deckcheck.decks.files import read_decks
from deckcheck.decks.pdf import line_label
from deckcheck.decks.xlsx import sheet_lines
from deckcheck.errors import DeckReadError
from deckcheck.event.registrations import discover
from deckcheck.event.sheets import write_decklists

PLAYERS = 200


def test_two_hundred_real_decks_print_as_one_pdf_of_200_pages(
        shared_data: Path, real_pool: MemoryPool, tmp_path: Path) -> None:
    folder = tmp_path / "registrations"
    folder.mkdir()
    n = 0
    for path in sorted((shared_data / "decks").rglob("*.ydk")):
        try:
            (deck,) = read_decks(path, None)
        except DeckReadError:
            continue  # a file of the corpus that is no deck
        if deck.size("main") == 0:
            continue
        n += 1
        (folder / f"Player {n:03d} {3_000_000_000 + n}.ydk").symlink_to(path)
        if n == PLAYERS:
            break
    assert n == PLAYERS

    regs = discover([folder], real_pool)
    printed = write_decklists(regs, tmp_path / "sheets.pdf", real_pool, event="Regional",
                              date="2026-12-05")

    assert len(printed) == PLAYERS
    reader = PdfReader(tmp_path / "sheets.pdf")
    assert len(reader.pages) == PLAYERS
    for i, (page, reg) in enumerate(zip(reader.pages, printed, strict=True), 1):
        text = page.extract_text()
        assert f"Player {i:03d} / {3_000_000_000 + i} Page {i} of {PLAYERS}" in text
        assert reg.deck is not None
        for group, lines in sheet_lines(reg.deck, real_pool).items():
            for count, label, passcode in lines:
                assert f"{count} {line_label(label, passcode)}" in text, (i, group, label)
        main = reg.deck.size("main")
        assert f"Main Deck total: {main}" in text

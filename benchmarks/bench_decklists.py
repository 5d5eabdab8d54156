"""How fast an event prints: N real decks (default 200) as one PDF of decklists.

Reads the first N readable .ydk decks of ../shared/data/decks with the full YGOPRODeck card
store, then times, in the same run: `event.sheets.decklist_pdf` (one PDF, a page per player)
and, as the baseline, the per-player .xlsx registration sheets of the same registrations
(`decks.xlsx.write_xlsx`, what `event sheet -o FOLDER` writes). Reported: CPU seconds (best
of the rounds: the machine may be shared), milliseconds a page, the PDF's size and pages
(read back with pypdf when installed), and the ratio of the PDF's time to the baseline's.
Run: `python benchmarks/bench_decklists.py [--players N] [--rounds N]`.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _realdata import need_data, store_path, ydk_files  # noqa: E402


def cpu_best(fn: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    need_data()
    from deckcheck.cards.load import open_pool
    from deckcheck.decks.files import read_decks
    from deckcheck.decks.xlsx import write_xlsx
    from deckcheck.errors import DeckReadError
    from deckcheck.event.models import Registration
    from deckcheck.event.sheets import decklist_pdf

    pool = open_pool(store_path())
    regs: list[Registration] = []
    for path in ydk_files():
        try:
            (deck,) = read_decks(path, None)
        except DeckReadError:
            continue
        if deck.size("main"):
            regs.append(Registration(source=str(path), player=path.stem, deck=deck))
        if len(regs) == args.players:
            break
    out: list[bytes] = []

    def pdf() -> None:
        out.append(decklist_pdf(regs, pool, event="Regional", date="2026-12-05"))

    def sheets() -> None:
        for reg in regs:
            assert reg.deck is not None
            write_xlsx(reg.deck, pool, player=reg.player, event="Regional", date="2026-12-05")

    pdf()  # warm: the cards looked up, reportlab imported
    sheets()
    t_pdf = cpu_best(pdf, args.rounds)
    t_xlsx = cpu_best(sheets, args.rounds)
    data = out[-1]
    try:
        from pypdf import PdfReader

        pages: int | str = len(PdfReader(io.BytesIO(data)).pages)
    except ImportError:
        pages = "? (pypdf not installed)"
    n = len(regs)
    print(f"{n} players: one PDF of {pages} pages, {len(data) / 1e6:.2f} MB")
    print(f"  decklist PDF      {t_pdf:6.2f} s CPU  ({1000 * t_pdf / n:.1f} ms a page)")
    print(f"  .xlsx sheets      {t_xlsx:6.2f} s CPU  ({1000 * t_xlsx / n:.1f} ms a sheet; "
          "baseline)")
    print(f"  ratio PDF / xlsx  {t_pdf / t_xlsx:6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

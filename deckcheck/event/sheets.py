"""Printable registration sheets for an event: one .xlsx per player, named after the player,
or one PDF of decklists, one page per player in registration order.

    regs = discover(["registrations.xlsx"], pool)
    plan = plan_sheets(regs, "sheets/")          # who gets which file; who cannot be printed
    write_sheets(plan, pool, event="Regional", date="2026-12-05", force=False)
    write_decklists(regs, "sheets.pdf", pool, event="Regional", date="2026-12-05")

Nothing is written until every destination is known: an existing sheet (which someone may
have filled in or signed) is never replaced unless `force`, and then the check is made for
all of them before the first is written. The CLI (`deckcheck event sheet`) and the
registration desk both use this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from deckcheck.cards.pool import CardPool
from deckcheck.errors import OutputError
from deckcheck.event.models import Registration


def safe_name(text: str) -> str:
    """A file name from a player's name: bounded length, no path parts (`file_name_for`)."""
    from deckcheck.decks.files import file_name_for

    return file_name_for(text, "")


@dataclass
class SheetPlan:
    """Which registration is printed to which file, and which cannot be printed (and why)."""

    folder: Path
    sheets: list[tuple[Registration, Path]] = field(default_factory=list)
    #: Registrations with no deck to print: each has its one-sentence `error`.
    failed: list[Registration] = field(default_factory=list)


def plan_sheets(regs: Sequence[Registration], folder: str | Path) -> SheetPlan:
    """One file per registration in `folder`, named after the player (else the source file);
    a name used twice gets "_2", "_3"… (compared without case, as Windows and macOS do)."""
    plan = SheetPlan(Path(folder))
    used: set[str] = set()
    for reg in regs:
        if reg.deck is None:
            plan.failed.append(reg)
            continue
        base = safe_name(reg.player or Path(reg.source).stem)
        name, n = base, 1
        while name.casefold() in used:
            n += 1
            name = f"{base}_{n}"
        used.add(name.casefold())
        plan.sheets.append((reg, plan.folder / f"{name}.xlsx"))
    return plan


def refuse_existing(paths: Sequence[Path], force: bool) -> None:
    """Never replace a sheet someone may have filled in or signed, unless `force`."""
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise OutputError(f"{existing[0]}{more} already exists; pass --force to replace it, or "
                          "choose another name.")


def write_sheets(plan: SheetPlan, pool: CardPool, *, event: str | None = None,
                 date: str | None = None, country: str | None = None,
                 force: bool = False) -> list[Path]:
    """Write every planned sheet (the folder is made when needed); return the files written.
    Raises `OutputError` before writing anything when a sheet exists (without `force`) or the
    folder cannot be made."""
    from deckcheck.decks.files import write_deck

    refuse_existing([dest for _, dest in plan.sheets], force)
    try:
        plan.folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{plan.folder}: the folder cannot be made ({exc.strerror}); give -o "
                          "a folder you may write.") from None
    written = []
    for reg, dest in plan.sheets:
        assert reg.deck is not None  # planned sheets have a deck
        write_deck(reg.deck, dest, pool, fmt="xlsx", player=reg.player,
                   player_id=reg.player_id, event=event, date=date, country=country)
        written.append(dest)
    return written


def decklist_pdf(regs: Sequence[Registration], pool: CardPool, *, event: str | None = None,
                 date: str | None = None, country: str | None = None) -> bytes:
    """One PDF holding a decklist page (`decks/pdf.py`) for each registration with a deck, in
    the order given. DeckWriteError when reportlab is not installed."""
    from deckcheck.decks.pdf import write_pdf_pages

    pages = [(reg.deck, {"player": reg.player, "player_id": reg.player_id, "event": event,
                         "date": date, "country": country})
             for reg in regs if reg.deck is not None]
    return write_pdf_pages(pages, pool, title=f"{event} decklists" if event else None)


def write_decklists(regs: Sequence[Registration], dest: str | Path, pool: CardPool, *,
                    event: str | None = None, date: str | None = None,
                    country: str | None = None, force: bool = False) -> list[Registration]:
    """Write `decklist_pdf` to `dest` (atomically); return the registrations printed, in page
    order (those without a deck have an `error` and no page). Raises `OutputError` before
    writing when `dest` exists (without `force`)."""
    from deckcheck.decks.files import save_bytes

    refuse_existing([Path(dest)], force)
    printed = [reg for reg in regs if reg.deck is not None]
    save_bytes(dest, decklist_pdf(printed, pool, event=event, date=date, country=country))
    return printed

"""`deckcheck convert IN OUT`: read a deck in any format, write it in another."""

from __future__ import annotations

import datetime as dt
import sys
from typing import TYPE_CHECKING, Any

import click

from deckcheck.cli.common import Ctx, UserError, handle_errors, overwritten_input, problem_place
from deckcheck.cli.params import DATE
from deckcheck.decks.files import (
    FORMATS,
    OUTPUT_FORMATS,
    dump_deck,
    format_for,
    read_decks,
    save_bytes,
)

if TYPE_CHECKING:  # (the rest is imported by the command itself, not by `deckcheck --help`)
    from deckcheck.decks.model import Deck, ReadProblem


class LazyPool:
    """The card pool, opened (with its notice) only when a reader or writer asks for a card:
    converting .ydk to ydke:// needs no card database at all."""

    def __init__(self, ctx: Ctx) -> None:
        self._ctx = ctx
        self.opened: Any = None

    def __getattr__(self, name: str) -> Any:
        if self.opened is None:
            self.opened = self._ctx.pool()
        return getattr(self.opened, name)


def problem_line(p: ReadProblem, deck: Deck) -> str:
    from deckcheck.reports import printable

    return printable(f"{problem_place(p, deck)}: {p.message}")


def pick_deck(decks: list[Deck], sheet: str | None, source: str) -> Deck:
    if sheet is not None:
        for d in decks:
            if d.name == sheet:
                return d
        names = ", ".join(repr(d.name) for d in decks)
        raise UserError(f"{source} has no deck named {sheet!r}; its decks are {names}.")
    if len(decks) > 1:
        names = ", ".join(repr(d.name) for d in decks)
        raise UserError(f"{source} holds {len(decks)} decks ({names}); pick one with --sheet.")
    return decks[0]


@click.command("convert")
@click.argument("source", metavar="IN")
@click.argument("dest", metavar="OUT", required=False)
@click.option("-o", "--output", "output", metavar="OUT",
              help="The file to write (instead of giving OUT after IN).")
@click.option("--to", "to_fmt", type=click.Choice(OUTPUT_FORMATS),
              help="Output format (default: from OUT's extension; ydk for -).")
@click.option("--from", "from_fmt", type=click.Choice(FORMATS),
              help="Input format (default: detected from content and extension).")
@click.option("--sheet", help="The sheet (deck) to convert from a workbook holding several.")
@click.option("--player", help="Registration sheet: player name.")
@click.option("--player-id", help="Registration sheet: CARD GAME ID.")
@click.option("--event", help="Registration sheet: event name.")
@click.option("--date", "event_date", type=DATE, help="Registration sheet: event date.")
@click.option("--country", help="Registration sheet: country of residence.")
@click.option("--deck-name", help="Registration sheet: deck name.")
@click.pass_obj
@handle_errors
def convert(obj: Ctx, source: str, dest: str | None, output: str | None, to_fmt: str | None,
            from_fmt: str | None, sheet: str | None, player: str | None,
            player_id: str | None, event: str | None, event_date: dt.date | None,
            country: str | None, deck_name: str | None) -> None:
    """Convert a deck between .ydk, ydke:// URL, Omega code, plain text, CSV and an xlsx
    registration sheet, or print it as a PDF decklist.

    IN is a deck file, - (standard input), or a ydke:// URL or Omega code given directly.
    OUT is a file or - (standard output); its format comes from its extension or --to. The
    player fields fill in the xlsx registration sheet and the PDF decklist (one A4 page in
    the layout of Konami's decklist form; needs the pdf extra). Problems found while reading
    (unknown names, bad counts, unknown passcodes) are printed to stderr, one line each with
    its location. Exit status: 0 when the deck was written, 2 when not.
    """
    if (dest is None) == (output is None):
        raise UserError("Name the file to write once: as OUT after IN, or with -o.")
    dest = dest if dest is not None else output
    assert dest is not None
    if overwritten_input([dest], [source]):  # it would drop every line not read
        raise UserError(f"{dest} is the file being converted; write to a new file so that "
                        "the original stays as it is.")
    pool = LazyPool(obj)
    decks = read_decks(source, pool, fmt=from_fmt)
    deck = pick_deck(decks, sheet, source)
    fmt = to_fmt or ("ydk" if dest == "-" else format_for(dest))
    fields = {"player": player, "player_id": player_id, "event": event,
              "date": event_date.isoformat() if event_date else None,
              "country": country, "deck_name": deck_name}
    given = {k: v for k, v in fields.items() if v is not None}
    if given and fmt not in ("xlsx", "pdf"):
        click.echo("note: player fields (--player, --event…) are written only to xlsx "
                   "registration sheets and PDF decklists.", err=True)
        given = {}
    data = dump_deck(deck, fmt, pool, **given)
    problems = list(deck.problems)
    if pool.opened is not None:
        from deckcheck.decks.resolve import unknown_passcodes

        problems.extend(unknown_passcodes(deck, pool.opened))
    for p in problems:
        click.echo(problem_line(p, deck), err=True)
    if dest == "-":
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            sys.stdout.write(data.decode("utf-8", "replace"))
        else:
            buffer.write(data)
            buffer.flush()
    else:
        save_bytes(dest, data)
    sizes = ", ".join(f"{s} {deck.size(s)}" for s in ("main", "extra", "side"))
    noun = "problem" if len(problems) == 1 else "problems"
    tail = f"; {len(problems)} {noun} reported above" if problems else ""
    click.echo(f"wrote {dest if dest != '-' else 'standard output'} as {fmt} ({sizes}){tail}.",
               err=True)

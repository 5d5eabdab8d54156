"""`deckcheck event check|sheet` (tournament registration) and `deckcheck diff A B`."""

from __future__ import annotations

import datetime as dt
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from deckcheck.cli.common import (
    EXIT_ERROR,
    Ctx,
    ProgressBar,
    UserError,
    check_output_folder,
    echo_json,
    handle_errors,
    refuse_overwriting_inputs,
)
from deckcheck.cli.params import DATE

if TYPE_CHECKING:
    from collections.abc import Callable

    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Deck
    from deckcheck.event.inputs import Entries

REPORT_SUFFIXES = (".xlsx", ".csv", ".json")


@click.group("event")
def event() -> None:
    """Tournament registration: check every player's decklist at once, print registration
    sheets."""


class _Progress:
    """Drives a progress bar on stderr from the library's (stage, done, total) callback: one
    bar per stage."""

    LABELS: ClassVar[dict[str, str]] = {"read": "Reading decklists",
                                        "check": "Checking decklists"}

    def __init__(self) -> None:
        self.stage: str | None = None
        self.bar: ProgressBar | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage or self.bar is None:
            self.close()
            self.stage = stage
            self.bar = ProgressBar(self.LABELS.get(stage, stage))
        self.bar.update(done, total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _stderr_is_tty() -> bool:
    return sys.stderr.isatty()


def _write_report(report: Any, output: str, jobs: int | None,
                  complete: Callable[[Any], object]) -> list[Path]:
    """Write the report file, `complete` finishing the report first (a workbook's writer
    finishes it while its helpers render: see `write_xlsx`)."""
    suffix = Path(output).suffix.lower()
    if suffix == ".xlsx":
        from deckcheck.event.report_xlsx import write_xlsx

        return write_xlsx(report, output, jobs=jobs, complete=complete)
    complete(report)
    if suffix == ".csv":
        from deckcheck.event.report_csv import write_csv

        return write_csv(report, output)
    from deckcheck.event.report_json import write_json

    return write_json(report, output)


@dataclass
class EventCheckOptions:
    """What `deckcheck event check` was asked to do."""

    sources: list[str]
    format: str = "tcg"
    date: dt.date | str | None = None
    banlist: str | None = None
    points_cap: int | None = None
    strict: bool = False
    output: str | None = None
    as_json: bool = False
    progress: bool | None = None  # None: when stderr is a terminal
    event_name: str | None = None
    jobs: int | None = None  # None: one process per core


@event.command("check", short_help="Check every player's decklist; one report row per player.")
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("-f", "--format", "format_", default="tcg", show_default=True,
              help="Format id every deck is checked under (tcg, ocg, genesys…).")
@click.option("--date", type=DATE, default=None,
              help="Check as of this day, YYYY-MM-DD (default: today): picks the list in force.")
@click.option("--banlist", default=None, metavar="NAME|FILE",
              help="Use this list instead of the format's list at the date: a list name, a "
                   "format id, or a .toml / .lflist.conf file.")
@click.option("--points-cap", type=int, default=None, metavar="N",
              help="Points cap for points formats (Genesys; default: the format's).")
@click.option("--strict", is_flag=True, help="Warnings make a deck illegal too.")
@click.option("--event", "event_name", default=None, help="Event name, shown in the report.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the report: .xlsx (workbook), .csv (players + .problems.csv) or "
                   ".json.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the JSON report on stdout instead of the summary.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: when stderr is a terminal).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Read and check in N processes (default: one per core); the report is "
                   "the same.")
@click.pass_obj
@handle_errors
def check(obj: Ctx, sources: tuple[str, ...], format_: str, date: dt.date | None,
          banlist: str | None, points_cap: int | None, strict: bool, event_name: str | None,
          output: str | None, as_json: bool, progress: bool | None, jobs: int | None) -> None:
    """Check every decklist in SOURCES (folders, deck files, workbooks, CSV exports of a
    registration form) under one format, list and date, and report one row per player, the
    problems with their locations, and duplicate registrations.

    Exit code: 0 all legal, 1 any illegal, 2 any list could not be read."""
    opts = EventCheckOptions(sources=list(sources), format=format_, date=date, banlist=banlist,
                             points_cap=points_cap, strict=strict, output=output,
                             as_json=as_json, progress=progress, event_name=event_name,
                             jobs=jobs)
    sys.exit(execute_check(opts, obj))


def execute_check(opts: EventCheckOptions, obj: Ctx) -> int:
    """Check the event, write the report and print the summary; return the exit code.

    The cyclic garbage collector stays paused to the end, as for `deckcheck check`: the
    registrations' rows and the report's strings hold no reference cycles, and turning it on
    between the checking and the report started a collection of everything the checking
    built (~15 ms for 4,000 registrations)."""
    from deckcheck.gc_pause import gc_paused

    with gc_paused(until_exit=True):
        return _execute_check(opts, obj)


def _execute_check(opts: EventCheckOptions, obj: Ctx) -> int:
    from deckcheck.event.inputs import expand_items
    from deckcheck.event.run import check_event, finish
    from deckcheck.event.summary import format_summary

    if opts.output is not None and Path(opts.output).suffix.lower() not in REPORT_SUFFIXES:
        raise UserError(f"{opts.output}: the report must end in .xlsx, .csv or .json.")
    if opts.output is not None:
        check_output_folder(opts.output, "report")
    entries = expand_items(opts.sources)  # one walk of the folders, for both
    if opts.output is not None:
        _refuse_overwriting_sources(opts.output, entries)
    show = opts.progress if opts.progress is not None else _stderr_is_tty()
    bar = _Progress() if show else None
    try:
        if opts.jobs is None:
            from deckcheck.event.jobs import default_jobs

            opts.jobs = default_jobs()
        # finished by the report's writer (a workbook's while its helpers render), or here
        report = check_event(entries, obj.pool(quiet=True), format=opts.format,
                             date=opts.date, banlist=opts.banlist, points_cap=opts.points_cap,
                             strict=opts.strict, progress=bar, jobs=opts.jobs,
                             event_name=opts.event_name, finished=False)
    finally:
        if bar is not None:
            bar.close()
    written: list[Path] = []
    if opts.output is None:
        finish(report)
    else:
        written = _write_report(report, opts.output, opts.jobs, finish)
    for notice in report.notices:
        click.echo(f"note: {notice}", err=True)
    if written:
        click.echo("wrote " + " and ".join(str(p) for p in written), err=True)
    if opts.as_json:
        from deckcheck.event.report_json import write_to

        write_to(report, sys.stdout)  # as echo_json writes it, a row at a time
    else:
        click.echo(format_summary(report))
    return report.exit_code


def _refuse_overwriting_sources(output: str, entries: Entries) -> None:
    """The report (and a CSV report's problems file) must never replace a registration it
    reads (`entries`: the event's inputs, as `expand_items` found them)."""
    targets = [output]
    if os.path.splitext(output)[1].lower() == ".csv":  # as `Path.suffix`
        from deckcheck.event.report_csv import problems_path

        targets.append(str(problems_path(output)))
    refuse_overwriting_inputs(targets, map(str, entries.paths()), "registrations")


@event.command("sheet", short_help="Write printable registration sheets (.xlsx) or decklists "
               "(.pdf).")
@click.argument("deck", type=click.Path())
@click.option("--player", default=None, help="Player name (one deck only).")
@click.option("--id", "player_id", default=None, help="Player id, e.g. the CARD GAME ID "
              "(one deck only).")
@click.option("--event", "event_name", default=None, help="Event name.")
@click.option("--date", type=DATE, default=None, help="Event date.")
@click.option("--country", default=None, help="Country of residence (every sheet).")
@click.option("--deck-name", default=None, help="Deck name (one deck only).")
@click.option("-o", "--output", required=True, type=click.Path(),
              help="The sheet (.xlsx) for one deck, a folder for one sheet per player, or a "
                   ".pdf for one decklist page per player in one file.")
@click.option("--force", is_flag=True, help="Replace sheets that already exist.")
@click.pass_obj
@handle_errors
def sheet(obj: Ctx, deck: str, player: str | None, player_id: str | None,
          event_name: str | None, date: dt.date | None, country: str | None,
          deck_name: str | None, output: str, force: bool) -> None:
    """Write the printable registration sheet for DECK, or, when DECK is a folder, workbook
    or CSV of many registrations, one sheet per player into the folder OUTPUT. An OUTPUT
    ending in .pdf is one file of decklists in the layout of Konami's form, one page per
    player in the order read (needs the pdf extra)."""
    from deckcheck.event.models import Registration
    from deckcheck.event.registrations import discover_items, no_registrations
    from deckcheck.reports import printable

    day = date.isoformat() if date else None
    pool = obj.pool()
    items = discover_items([deck], pool)
    regs = [i for i in items if isinstance(i, Registration)]
    for item in items:
        if not isinstance(item, Registration):  # every input accounted for
            click.echo(f"note: skipped {printable(item.reason)}", err=True)
    if not regs:
        raise no_registrations([Path(deck)])
    many = Path(deck).is_dir() or len(regs) > 1
    if Path(output).suffix.lower() == ".pdf":
        _sheet_pdf(regs, many, deck, output, pool, player=player, player_id=player_id,
                   event_name=event_name, day=day, country=country, deck_name=deck_name,
                   force=force)
    elif not many:
        _sheet_one(regs[0], deck, output, pool, player=player, player_id=player_id,
                   event_name=event_name, day=day, country=country, deck_name=deck_name,
                   force=force)
    else:
        if player or player_id or deck_name:
            raise UserError(f"{deck} holds {len(regs)} registrations: --player, --id and "
                            "--deck-name apply to one deck; the names and ids are taken from "
                            "each registration.")
        _sheets_many(regs, deck, output, pool, event_name=event_name, day=day,
                     country=country, force=force)


def _sheet_one(reg: Any, deck: str, output: str, pool: CardPool, *, player: str | None,
               player_id: str | None, event_name: str | None, day: str | None,
               country: str | None, deck_name: str | None, force: bool) -> None:
    """`event sheet deck.ydk -o sheet.xlsx`: one registration sheet."""
    from deckcheck.decks.files import write_deck
    from deckcheck.event.sheets import refuse_existing, safe_name

    if reg.deck is None:
        raise UserError(reg.error or f"{deck} could not be read.")
    dest = Path(output)
    if dest.is_dir():
        dest = dest / f"{safe_name(player or reg.player or Path(deck).stem)}.xlsx"
    elif dest.suffix.lower() not in (".xlsx", ".xlsm"):
        raise UserError(f"{output}: a registration sheet is an .xlsx file; give -o a name "
                        "ending in .xlsx, or an existing folder.")
    refuse_existing([dest], force)
    write_deck(reg.deck, dest, pool, fmt="xlsx", player=player or reg.player,
               player_id=player_id or reg.player_id, event=event_name, date=day,
               country=country, deck_name=deck_name)
    _warn_sheet_problems(reg.deck, pool)
    click.echo(f"wrote {dest}", err=True)


def _sheets_many(regs: list[Any], deck: str, output: str, pool: CardPool, *,
                 event_name: str | None, day: str | None, country: str | None,
                 force: bool) -> None:
    """`event sheet folder -o sheets/`: one registration sheet per player."""
    from deckcheck.event.sheets import plan_sheets, write_sheets

    out = Path(output)
    if out.suffix.lower() == ".xlsx" or (out.exists() and not out.is_dir()):
        raise UserError(f"{deck} holds {len(regs)} registrations: give -o a folder for one "
                        "sheet per player.")
    plan = plan_sheets(regs, out)
    for reg in plan.failed:
        click.echo(f"deckcheck: skipped {reg.source}: {reg.error}", err=True)
    written = write_sheets(plan, pool, event=event_name, date=day, country=country,
                           force=force)
    for reg, _dest in plan.sheets:
        assert reg.deck is not None  # planned sheets have a deck
        _warn_sheet_problems(reg.deck, pool)
    click.echo(f"wrote {len(written)} sheet{'' if len(written) == 1 else 's'} to {out}",
               err=True)
    if plan.failed:
        sys.exit(EXIT_ERROR)


def _sheet_pdf(regs: list[Any], many: bool, deck: str, output: str, pool: CardPool, *,
               player: str | None, player_id: str | None, event_name: str | None,
               day: str | None, country: str | None, deck_name: str | None,
               force: bool) -> None:
    """`event sheet … -o sheets.pdf`: every registration's decklist in one PDF."""
    from deckcheck.decks.files import save_bytes
    from deckcheck.decks.pdf import write_pdf
    from deckcheck.event.sheets import refuse_existing, write_decklists

    check_output_folder(output, "decklist PDF")
    if not many:
        reg = regs[0]
        if reg.deck is None:
            raise UserError(reg.error or f"{deck} could not be read.")
        refuse_existing([Path(output)], force)
        save_bytes(output, write_pdf(reg.deck, pool, player=player or reg.player,
                                     player_id=player_id or reg.player_id, event=event_name,
                                     date=day, country=country, deck_name=deck_name))
        _warn_sheet_problems(reg.deck, pool)
        click.echo(f"wrote {output} (1 page)", err=True)
        return
    if player or player_id or deck_name:
        raise UserError(f"{deck} holds {len(regs)} registrations: --player, --id and "
                        "--deck-name apply to one deck; the names and ids are taken from each "
                        "registration.")
    failed = [reg for reg in regs if reg.deck is None]
    for reg in failed:
        click.echo(f"deckcheck: skipped {reg.source}: {reg.error}", err=True)
    printed = write_decklists(regs, output, pool, event=event_name, date=day, country=country,
                              force=force)
    for reg in printed:
        assert reg.deck is not None  # printed registrations have a deck
        _warn_sheet_problems(reg.deck, pool)
    click.echo(f"wrote {output} ({len(printed)} page{'' if len(printed) == 1 else 's'}, one "
               "per player)", err=True)
    if failed:
        sys.exit(EXIT_ERROR)


def _warn_sheet_problems(deck: Deck, pool: CardPool) -> None:
    """What the printed sheet shows as written but could not check (an unknown name), as
    `convert` reports it: never printed silently."""
    from deckcheck.cli.common import problem_place
    from deckcheck.decks.xlsx import sheet_problems
    from deckcheck.reports import printable

    for p in sheet_problems(deck, pool):
        click.echo(printable(f"warning: {problem_place(p, deck)}: {p.message}"), err=True)


@click.command("diff")
@click.argument("a")
@click.argument("b")
@click.option("--json", "as_json", is_flag=True, help="Print the difference as JSON.")
@click.pass_obj
@handle_errors
def diff(obj: Ctx, a: str, b: str, as_json: bool) -> None:
    """Show what differs between decks A and B (files in any format, ydke:// URLs or Omega
    codes), card by card and by section; alternate artworks count as the same card.

    Exit code: 0 identical, 1 different, 2 could not read (a file, or entries that could
    be the difference)."""
    from deckcheck.decks.diff import diff_decks, format_diff
    from deckcheck.decks.files import read_deck

    if a == b == "-":
        raise UserError("Standard input (-) can be read only once; save one of the decks to a "
                        "file.")
    pool = obj.pool()
    deck_a, deck_b = read_deck(a, pool), read_deck(b, pool)
    for label, deck in ((a, deck_a), (b, deck_b)):
        n = len(deck.problems)
        if n and not any(True for _ in deck.entries()):
            first = str(deck.problems[0].location) or label
            what = "its only entry could not" if n == 1 else f"none of its {n} entries could"
            raise UserError(f"{label}: {what} be read as a card (first at {first}); check that "
                            "it is a deck file.")
    result = diff_decks(deck_a, deck_b, pool, a_label=a, b_label=b)
    if as_json:
        echo_json(result)
    else:
        click.echo(format_diff(result))
    # 2 whenever an entry could not be read: it may be (part of) the difference, so "they
    # differ" is no more certain than "they are the same"
    unread = bool(deck_a.problems or deck_b.problems)
    sys.exit(0 if result.identical else EXIT_ERROR if unread else 1)

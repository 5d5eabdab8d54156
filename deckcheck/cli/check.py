"""`deckcheck check DECK…`: the verdict on each deck under a format, list and date.

The command only parses flags into `CheckOptions`; `execute()` builds the checker, reads the
decks, renders the reports and returns the exit code (0 legal, 1 illegal, 2 could not check).
"""

from __future__ import annotations

import datetime as dt
import os
from typing import TYPE_CHECKING, Any

import click

from deckcheck.cli.common import (
    EXIT_OK,
    Ctx,
    UserError,
    check_output_folder,
    handle_errors,
    refuse_overwriting_inputs,
)
from deckcheck.cli.params import DATE

if TYPE_CHECKING:
    from deckcheck.reports.model import CheckResult

#: The kinds of report `--output-format` picks.
OUTPUTS = ("text", "json", "parsable")

_ROLES: dict[str, dict[str, Any]] = {
    "legal": {"fg": "green", "bold": True},
    "illegal": {"fg": "red", "bold": True},
    "error": {"fg": "red"},
    "warning": {"fg": "yellow"},
    "info": {"fg": "cyan"},
    "location": {"dim": True},
}


class CheckOptions:
    """The flags of one `deckcheck check`, parsed. (A plain class: creating a dataclass at
    import costs start-up.)"""

    def __init__(self, decks: list[str], format: str = "tcg",  # noqa: A002
                 date: dt.date | str | None = None, banlist: str | None = None,
                 points_cap: int | None = None, output_format: str = "text",
                 output: str | None = None,
                 select: list[str] | None = None, ignore: list[str] | None = None,
                 strict: bool = False, hands: int = 0, seed: int | None = None,
                 color: bool | None = None) -> None:
        self.decks = decks
        self.format = format
        self.date = date
        self.banlist = banlist
        self.points_cap = points_cap
        self.output_format = output_format
        self.output = output  # the file to write the report to; None or "-": stdout
        self.select = select
        self.ignore: list[str] = [] if ignore is None else ignore
        self.strict = strict
        self.hands = hands
        self.seed = seed
        self.color = color  # None: only on a terminal


def _codes(values: tuple[str, ...]) -> list[str]:
    return [c.strip() for v in values for c in v.split(",") if c.strip()]


def _style(text: str, role: str) -> str:
    return click.style(text, **_ROLES.get(role, {}))


def _output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`-o/--output FILE`, as in every other command; a bare kind name (`-o json`, the
    output format's option in older versions) is refused rather than written to a file of
    that name."""
    if value is not None and value.lower() in OUTPUTS:
        raise UserError(
            f"-o/--output is the file to write the report to, so `-o {value}` would write a "
            f"file named {value}: choose the kind of report with --output-format "
            f"{value.lower()} (or write -o ./{value} for a file of that name).")
    return value


def _list_rules(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from deckcheck.rules.registry import RULES

    for code, mod in RULES.items():
        first = " ".join((mod.__doc__ or "").strip().split("\n\n")[0].split())
        summary = first.split(":", 1)[1].strip() if ":" in first else first
        click.echo(f"{code}  {mod.NAME:<22} {mod.SEVERITY:<8} {summary[:1].upper()}{summary[1:]}")
    ctx.exit(EXIT_OK)


@click.command("check")
@click.argument("decks", nargs=-1, required=True)
@click.option("-f", "--format", "format_", default="tcg", show_default=True,
              help="Format id (tcg, ocg, traditional, genesys, speed, goat…).")
@click.option("--date", type=DATE, default=None,
              help="Check as of this day, YYYY-MM-DD (default: today): picks the list in force "
                   "and the cards released by then.")
@click.option("--banlist", default=None, metavar="NAME|FILE",
              help="Use this list instead of the format's list at the date: a list name, a "
                   "format id, or a .toml / .lflist.conf file.")
@click.option("--points-cap", type=int, default=None, metavar="N",
              help="Points cap for points formats (Genesys; default: the format's).")
@click.option("--output-format", type=click.Choice(OUTPUTS), default="text",
              show_default=True,
              help="text for people, json (schema deckcheck.check/1), or parsable "
                   "(path:line:col: CODE message).")
@click.option("-o", "--output", type=click.Path(allow_dash=True), default=None, metavar="FILE",
              callback=_output_file,
              help="Write the report to this file (replaced in one step) instead of standard "
                   "output.")
@click.option("--select", multiple=True, metavar="CODES",
              help="Run only these rules: codes, prefixes (DC2) or names, comma-separated.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Skip these rules: codes, prefixes or names, comma-separated.")
@click.option("--strict", is_flag=True, help="Warnings make a deck illegal too.")
@click.option("--hands", type=click.IntRange(min=0), default=0, metavar="N",
              help="Show N sample opening hands under each deck's report.")
@click.option("--seed", type=int, default=None, help="Random seed for --hands.")
@click.option("--list-rules", is_flag=True, expose_value=False, is_eager=True,
              callback=_list_rules, help="List every rule (code, name, severity) and exit.")
@click.pass_obj
@handle_errors
def check(obj: Ctx, decks: tuple[str, ...], format_: str, date: dt.date | None,
          banlist: str | None, points_cap: int | None, output_format: str,
          output: str | None, select: tuple[str, ...], ignore: tuple[str, ...], strict: bool,
          hands: int, seed: int | None) -> None:
    """Check DECK files (.ydk, ydke:// URLs, Omega codes, text lists, CSV, xlsx; "-" for
    stdin) against a format's list and report every problem.

    Rules: DC1xx deck structure, DC2xx copies and list limits, DC3xx Genesys points and card
    types, DC4xx unknown or unreleased cards (see --list-rules).

    Exit code: 0 every deck legal, 1 any deck illegal, 2 a deck or option could not be used
    or a deck could not be fully checked (the card data ends before the date)."""
    opts = CheckOptions(
        decks=list(decks), format=format_, date=date, banlist=banlist, points_cap=points_cap,
        output_format=output_format, output=output, select=_codes(select) or None,
        ignore=_codes(ignore), strict=strict, hands=hands, seed=seed, color=_want_color())
    click.get_current_context().exit(execute(opts, obj))


def _want_color() -> bool | None:
    """False when NO_COLOR is set; else None: click colours a terminal and strips the rest."""
    if os.environ.get("NO_COLOR"):
        return False
    ctx = click.get_current_context(silent=True)
    return ctx.color if ctx is not None else None


def execute(opts: CheckOptions, obj: Ctx) -> int:
    """Check every deck of `opts` (one library call), print the result; return the exit code.

    Decks go to stdout, or to the file `opts.output` (written in one step, no colours), in the
    chosen output format; each input that could not be read is one sentence on stderr (and an
    "unreadable" entry in JSON), and makes the exit code 2.

    The cyclic garbage collector stays paused, as for an event's registrations: checking
    builds many small values and no reference cycles, so it would find nothing to collect
    (in the program, to its end: the check is its last work)."""
    from deckcheck.gc_pause import gc_paused

    with gc_paused(until_exit=True):
        return _execute(opts, obj)


def _execute(opts: CheckOptions, obj: Ctx) -> int:
    from deckcheck.checker import check_many
    from deckcheck.reports import get_reporter

    path = opts.output if opts.output != "-" else None
    if path is not None:
        check_output_folder(path, "report")
        refuse_overwriting_inputs([path], opts.decks, "decks")
    kind = opts.output_format
    if opts.hands and kind == "parsable":
        click.echo("note: --hands is shown only with --output-format text or json; no hands "
                   "shown.", err=True)
    result = check_many(
        opts.decks, opts.format, opts.date, pool=obj.pool(quiet=True), banlist=opts.banlist,
        points_cap=opts.points_cap, select=opts.select, ignore=opts.ignore,
        strict=opts.strict, hands=opts.hands if kind != "parsable" else 0,
        seed=opts.seed)
    options: dict[str, Any] = {"style": _style} if kind == "text" and path is None else {}
    text = get_reporter(kind, **options).render(result)
    if path is not None:
        _write(path, text)
    else:
        click.echo(text, nl=False, color=opts.color)
    _echo_stderr(result)
    return result.exit_code


def _write(path: str, text: str) -> None:
    """The report into file `path`, replaced in one step (`deckcheck.atomic.replacing`): a
    reader sees the old report or the new one, never half of one."""
    from pathlib import Path

    from deckcheck.atomic import replacing

    with replacing(Path(path)) as tmp:
        tmp.write_bytes(text.encode("utf-8"))


def _echo_stderr(result: CheckResult) -> None:
    """Notes (skipped inputs, decks without hands), then one sentence per unreadable input."""
    from deckcheck.reports import printable

    for outcome in result.outcomes:
        if outcome.skipped is not None:
            click.echo(f"note: {printable(outcome.skipped)}", err=True)
        for checked in outcome.decks:
            if checked.hands_note is not None:
                click.echo(f"note: no hands for {printable(checked.report.deck)}: "
                           f"{printable(checked.hands_note)}", err=True)
    for outcome in result.unreadable:
        click.echo(f"deckcheck: {printable(outcome.error or outcome.source)}", err=True)

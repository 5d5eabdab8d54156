"""The `deckcheck` click group: global options, and each sub-command imported from its module
(`COMMANDS`) only when it is used, so `deckcheck check` does not pay for openpyxl or numpy.
`deckcheck.cli.main.main` runs it."""

from __future__ import annotations

import importlib

import click

from deckcheck.cli.common import Ctx

#: command name -> "module:attribute"; the one registry of sub-commands.
COMMANDS: dict[str, str] = {
    "check": "deckcheck.cli.check:check",
    "cards": "deckcheck.cli.cards:cards",
    "banlist": "deckcheck.cli.banlist:banlist",
    "convert": "deckcheck.cli.convert:convert",
    "draw": "deckcheck.cli.sim:draw",
    "odds": "deckcheck.cli.sim:odds",
    "event": "deckcheck.cli.event:event",
    "diff": "deckcheck.cli.event:diff",
    "desk": "deckcheck.cli.desk:desk",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        cmd = getattr(importlib.import_module(module), attr)
        assert isinstance(cmd, click.Command)
        return cmd


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", "db", type=click.Path(), envvar="DECKCHECK_DB", metavar="FILE",
              help="Card database file (default: the user's data directory; env DECKCHECK_DB).")
@click.version_option(package_name="deckcheck")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """Check Yu-Gi-Oh! decks against a format and banlist, convert deck files, and work
    out how often a deck opens with what it needs."""
    ctx.obj = Ctx(db=db)

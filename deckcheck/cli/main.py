"""`deckcheck` entry point: global options and lazily imported sub-commands.

Sub-commands live one module per command (group) in this package and are imported only
when used, so `deckcheck check` does not pay for openpyxl or numpy.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

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


def escape_unencodable(*streams: object) -> None:
    """Text a stream's encoding cannot hold (a Japanese name on a cp1252 or latin-1 console)
    is written escaped (\\u5b58), never raised as UnicodeEncodeError."""
    for stream in streams:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # pragma: no cover - a stream already in use
                pass


class _EchoBounded:
    """stderr, where an input echoed in a message (a 5,000-character --date, a pasted list as
    a card name) is cut to `deckcheck.errors.ECHO` characters: no word of a sentence is that
    long, so any run of that many non-space characters is input."""

    def __init__(self, stream: Any) -> None:
        from deckcheck.errors import ECHO

        self._stream, self._limit = stream, ECHO
        self._long: Any = None  # the pattern, compiled for the first text that long

    def write(self, text: str) -> int:
        if len(text) > self._limit:
            if self._long is None:
                import re

                self._long = re.compile(rf"\S{{{self._limit + 1},}}")
            text = self._long.sub(self._cut, text)
        return int(self._stream.write(text))

    def _cut(self, m: Any) -> str:
        return f"{m.group()[:self._limit - 40]}… ({len(m.group()):,} characters)"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main() -> None:
    escape_unencodable(sys.stdout, sys.stderr)
    sys.stderr = _EchoBounded(sys.stderr)
    try:
        cli(prog_name="deckcheck")
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(2)

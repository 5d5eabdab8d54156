"""`deckcheck` entry point: `main()`.

The click group and the one registry of sub-commands (`COMMANDS`) are `cli/group.py`'s
(`cli`, `COMMANDS` and `LazyGroup` here too, imported on first use: importing this module
imports no click); sub-commands live one module per command (group) in this package and
are imported only when used, so `deckcheck check` does not pay for openpyxl or numpy.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from deckcheck.cli.group import COMMANDS, LazyGroup, cli

__all__ = ["COMMANDS", "LazyGroup", "cli", "main", "run"]


def __getattr__(name: str) -> Any:
    if name in ("cli", "COMMANDS", "LazyGroup"):  # imported on first use (see `main`)
        from deckcheck.cli import group

        return getattr(group, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """The `deckcheck` program. The cyclic garbage collector is paused while it starts, from
    before click is imported until the command's body begins (`gc_pause.pause_startup`)."""
    from deckcheck.gc_pause import pause_startup

    pause_startup()
    import click

    from deckcheck.cli.group import cli

    escape_unencodable(sys.stdout, sys.stderr)
    sys.stderr = _EchoBounded(sys.stderr)
    try:
        cli(prog_name="deckcheck")
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(2)


def run() -> NoReturn:
    """The installed `deckcheck` command and `python -m deckcheck`: `main()`, then the process
    ends at once (`leave`). `main()` itself returns by raising SystemExit, as click does."""
    try:
        main()
    except SystemExit as exc:
        leave(exc.code)
    leave(0)


def leave(code: str | int | None) -> NoReturn:
    """End the program with `code` (as `sys.exit` takes it) once its output is flushed and its
    exit functions have run, without Python's teardown of every module and object (10 ms
    after a 4,000-player `event check`, a tenth of a cold `check`): nothing of it is needed
    when the process ends. With another thread running, a profiler or tracer attached
    (`python -m cProfile -m deckcheck …` writes its results after the program returns), or
    output that cannot be flushed (a closed pipe), the program exits the usual way."""
    import os

    threading = sys.modules.get("threading")
    if (threading is not None and threading.active_count() > 1) \
            or sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()  # first, as Python runs them: what they print is flushed below
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # as Python prints a non-integer code
        sys.stderr.write(f"{code}\n")
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)
    os._exit(status)

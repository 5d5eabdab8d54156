"""What every command shares: the global options object, opening the card pool once,
turning library errors into one-line messages with exit code 2, and JSON output."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from deckcheck.errors import DeckcheckError, sentence
from deckcheck.gc_pause import resume_startup

if TYPE_CHECKING:
    from deckcheck.cards.pool import CardPool
    from deckcheck.decks.model import Deck, ReadProblem

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK, EXIT_ILLEGAL, EXIT_ERROR = 0, 1, 2


class UserError(click.ClickException):
    """A user-caused problem: printed as one line, exit code 2."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(f"deckcheck: {self.format_message()}", err=True)


class Ctx:
    """The state one command run shares: the card database asked for, the pool once open.
    (A plain class: creating a dataclass at import costs start-up.)"""

    __slots__ = ("db", "_pool")

    def __init__(self, db: str | None = None, _pool: CardPool | None = None) -> None:
        self.db = db
        self._pool = _pool

    def pool(self, quiet: bool = False) -> CardPool:
        """The card pool (imported store, or the built-in set with a notice on stderr)."""
        if self._pool is None:
            from deckcheck.cards.load import open_pool

            self._pool = open_pool(self.db)
            if self._pool.info.builtin and not quiet:
                end = self._pool.info.covers.get("cards")
                click.echo(
                    "note: using deckcheck's built-in card pool"
                    + (f" (card data to {end.isoformat()})" if end else "")
                    + "; run `deckcheck cards update` (or `cards import FILE`) for newer cards.",
                    err=True)
        return self._pool


class ProgressBar:
    """One click progress bar on stderr driven by `update(done, total)` calls: it opens when a
    total is first known, follows a total that grows, and `close()` ends it (once)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.done = 0

    def update(self, done: int, total: int | None) -> None:
        if self.bar is None and total:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        if self.bar is not None:
            if total and total != self.bar.length:  # e.g. a workbook held many players
                self.bar.length = total
            self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def handle_errors(fn: F) -> F:
    """Decorator: library errors become `deckcheck: <sentence>` and exit code 2. The command's
    body runs with the cyclic garbage collector on again (`main` pauses it while the program
    starts), unless the command pauses it for its own bulk work."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        resume_startup()
        try:
            return fn(*args, **kwargs)
        except DeckcheckError as exc:
            raise UserError(sentence(exc)) from None
        except BrokenPipeError:
            # the reader stopped reading (`deckcheck … | head`): stop quietly, like other
            # command-line tools, and keep Python from complaining while it flushes stdout
            _silence_stdout()
            raise SystemExit(EXIT_ERROR) from None
        except OSError as exc:
            raise UserError(sentence(exc)) from None
        except Exception as exc:
            if type(exc).__module__ != "sqlite3":  # sqlite3 stays unimported until needed
                raise
            raise UserError(f"The card database {_db_path()} is damaged ({exc}); delete it and "
                            "run `deckcheck cards update`.") from None

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps fn's signature


def _db_path() -> str:
    """Where the card database of this command is (for messages)."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_object(Ctx) if ctx is not None else None
    try:
        from deckcheck.cards.dbpath import resolve_path

        return str(resolve_path(obj.db if obj is not None else None))
    except Exception:  # noqa: BLE001 (a message helper must not fail)
        return "file"


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests, IDEs)
        pass


def echo_json(data: Any) -> None:
    """Print JSON (deckcheck's values, pydantic models, lists of them, or plain data)."""
    import json

    from deckcheck.plain import Plain

    def default(o: Any) -> Any:
        if isinstance(o, Plain) or hasattr(o, "model_dump"):  # a pydantic model
            return o.model_dump(mode="json")
        if isinstance(o, (set, frozenset, tuple)):
            return list(o)
        return str(o)

    sys.stdout.write(json.dumps(data, default=default, ensure_ascii=False, indent=2) + "\n")


def problem_place(p: ReadProblem, deck: Deck) -> str:
    """Where a problem was met, for people: its location, else the deck's file or name."""
    return str(p.location) if p.location.known else (deck.source or deck.name or "deck")


def echo_read_problems(deck: Deck, consequence: str) -> None:
    """Print each entry that could not be read (`deck.problems`) as a note on stderr, so that
    nothing a deck file holds is dropped silently; `consequence` says what that means."""
    from deckcheck.reports import printable

    for p in deck.problems:
        click.echo(printable(f"note: {problem_place(p, deck)}: {consequence}: {p.message}"),
                   err=True)


def overwritten_input(targets: list[str], inputs: Iterable[str]) -> str | None:
    """The first of `targets` (files to write) that is one of `inputs` (files read), which
    writing it would replace ("the same file" as `os.path.samefile` tells it: device and
    inode, each file looked at once); "-" (standard input or output) is no file."""
    found: dict[tuple[int, int], str] = {}
    for t in targets:
        if t != "-":
            try:
                st = os.stat(t)
            except (OSError, ValueError):  # not there yet (or an odd name): replaces nothing
                continue
            found.setdefault((st.st_dev, st.st_ino), t)
    if not found:
        return None
    for src in inputs:
        if src == "-":
            continue
        try:
            st = os.stat(src)
        except (OSError, ValueError):  # not a file (ydke://), or an odd name
            continue
        target = found.get((st.st_dev, st.st_ino))
        if target is not None:
            return target
    return None


def refuse_overwriting_inputs(targets: list[str], inputs: Iterable[str], what: str) -> None:
    """An output must never replace a file the command reads (`-o deck.ydk` on deck.ydk,
    `-o regs.csv` on regs.csv): raised before any work, naming the file and `what` it is."""
    target = overwritten_input(targets, inputs)
    if target is not None:
        raise UserError(f"{target} is one of the {what} being checked; write the report to "
                        "another file so that it stays as it is.")


def check_output_folder(path: str, what: str) -> None:
    """Refuse, before any work is done, an output file whose folder does not exist."""
    from pathlib import Path

    if path == "-":
        return
    folder = Path(path).parent
    if not folder.is_dir():
        raise UserError(f"{path}: the folder {folder} does not exist; create it or write the "
                        f"{what} somewhere else.")

"""What every command shares: the global options object, opening the card pool once,
turning library errors into one-line messages with exit code 2, and JSON output."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

from deckcheck.errors import DeckcheckError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK, EXIT_ILLEGAL, EXIT_ERROR = 0, 1, 2


class UserError(click.ClickException):
    """A user-caused problem: printed as one line, exit code 2."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(f"deckcheck: {self.format_message()}", err=True)


@dataclass
class Ctx:
    db: str | None = None
    _pool: Any = field(default=None, repr=False)

    def pool(self, quiet: bool = False) -> Any:
        """The card pool (imported store, or the built-in set with a notice on stderr)."""
        if self._pool is None:
            from deckcheck.cards.load import open_pool

            self._pool = open_pool(self.db)
            if self._pool.info.builtin and not quiet:
                click.echo(
                    "note: using deckcheck's small built-in card set; run `deckcheck cards "
                    "update` (or `cards import FILE`) for the full card pool.", err=True)
        return self._pool


def handle_errors(fn: F) -> F:
    """Decorator: library errors become `deckcheck: <sentence>` and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except DeckcheckError as exc:
            raise UserError(exc.message) from None
        except OSError as exc:
            where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
            raise UserError(f"{exc.strerror or exc}{where}.") from None

    return wrapper  # type: ignore[return-value]


def echo_json(data: Any) -> None:
    """Print JSON (pydantic models, lists of them, or plain data) to stdout."""
    from pydantic import BaseModel

    def default(o: Any) -> Any:
        if isinstance(o, BaseModel):
            return o.model_dump(mode="json")
        if isinstance(o, (set, frozenset, tuple)):
            return list(o)
        return str(o)

    sys.stdout.write(json.dumps(data, default=default, ensure_ascii=False, indent=2) + "\n")

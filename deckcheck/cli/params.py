"""Parameter types every command shares, so each option is read the same way everywhere.

`DATE` is every `--date`: a day written YYYY-MM-DD, read by the library's one date parser
(`checker.parse_date`); anything else ("next tuesday") is refused with one sentence naming
the option and exit code 2, whichever command it is given to.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import click

from deckcheck.cli.common import UserError


class DateParam(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A day, YYYY-MM-DD, as a `datetime.date`."""

    name = "date"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "YYYY-MM-DD"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> dt.date:
        if isinstance(value, dt.date):
            return value
        from deckcheck.checker import parse_date
        from deckcheck.errors import BadDate

        try:
            return parse_date(str(value))
        except BadDate as exc:
            option = param.opts[0] if param is not None and param.opts else "the date"
            raise UserError(f"{option} {exc}") from None


DATE = DateParam()

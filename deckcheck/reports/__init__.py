"""Reporters: turn `Report`s into text for people or machines, chosen by name (`-o NAME`).

`REPORTERS` is the one registry (name -> "module:Class"); reporter modules are imported only
when used. A reporter is a class whose `render(reports, hands=None) -> str` returns the whole
output; `hands` (optional, one list per report) holds sample opening hands as card names.
Reporters never print and never import click: colour comes in as a `style(text, role)`
callable from the CLI.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from deckcheck.errors import DeckcheckError
from deckcheck.rules.violation import Report

#: name -> "module:Class"
REPORTERS: dict[str, str] = {
    "text": "deckcheck.reports.text:TextReporter",
    "json": "deckcheck.reports.json:JsonReporter",
    "parsable": "deckcheck.reports.parsable:ParsableReporter",
}

#: style(text, role) -> text; roles: legal, illegal, error, warning, info, location, code, dim.
Style = Callable[[str, str], str]
Hands = Sequence[Sequence[Sequence[str]]]


def plain(text: str, role: str) -> str:
    return text


class Reporter(Protocol):
    name: str

    def render(self, reports: Sequence[Report], hands: Hands | None = None) -> str: ...


class UnknownReporter(DeckcheckError):
    """No reporter has that name."""


def get_reporter(name: str, **options: Any) -> Reporter:
    """The reporter called `name`, built with `options` (e.g. `style=` for text)."""
    target = REPORTERS.get(name)
    if target is None:
        raise UnknownReporter(f"There is no \"{name}\" output; choose one of "
                              f"{', '.join(sorted(REPORTERS))}.")
    module, attr = target.split(":")
    cls = getattr(importlib.import_module(module), attr)
    reporter: Reporter = cls(**options)
    return reporter

"""Reporters: turn a `CheckResult` into text for people or machines, chosen by name (`-o NAME`).

`REPORTERS` is the one registry (name -> "module:Class"); reporter modules are imported only
when used. A reporter is a class whose `render(result) -> str` returns the whole output for
the decks checked (inputs that could not be read are the front end's to show: the CLI says
each in one sentence on stderr; the JSON reporter also lists them, as its schema promises).
Reporters never print and never import click: colour comes in as a `style(text, role)`
callable from the CLI. Text a player wrote goes through `printable` before it reaches a
terminal.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any, Protocol

from deckcheck.errors import DeckcheckError
from deckcheck.reports.model import CheckResult

#: name -> "module:Class"
REPORTERS: dict[str, str] = {
    "text": "deckcheck.reports.text:TextReporter",
    "json": "deckcheck.reports.json_output:JsonReporter",
    "parsable": "deckcheck.reports.parsable:ParsableReporter",
}

#: style(text, role) -> text; roles: legal, illegal, error, warning, info, location, code, dim.
Style = Callable[[str, str], str]

#: C0 controls (ESC, CR, LF, BEL…), DEL and C1 controls (CSI, OSC…): never sent raw to a
#: terminal, where they could recolour, retitle or rewrite what the reader sees.
_CONTROL = r"[\x00-\x1f\x7f-\x9f]"  # compiled on first need (re caches it)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str) -> str:
    """`text` with control characters written as escapes (ESC -> "\\x1b", LF -> "\\n"), so a
    name or message from a file can neither drive the terminal nor start a new output line."""
    if text.isprintable() or not re.search(_CONTROL, text):  # isprintable: no control
        return text
    return re.sub(_CONTROL, lambda m: _NAMED.get(m.group(), f"\\x{ord(m.group()):02x}"), text)


def plain(text: str, role: str) -> str:
    return text


class Reporter(Protocol):
    name: str

    def render(self, result: CheckResult) -> str: ...


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

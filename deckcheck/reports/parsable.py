"""The parsable reporter: one line per problem, `path:line:col: CODE message` (flake8-like).

    deck.ydk:12:1: DC201 The deck has 4 cards named Harpie Lady …
    deck.ydk:1:1: DC101 The Main Deck has 39 cards; TCG Advanced allows 40 to 60.
    book.xlsx:Sheet1!B7: DC401 No card is named "Ash Blosom" (did you mean …?).
    deck.ydk: unreadable: <the one-sentence reason>

A problem without a line (a deck-wide one) points at line 1 of the deck; a spreadsheet cell
is written as is. Legal decks print nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from deckcheck.reports import Hands
from deckcheck.rules.violation import Report

_LINE = re.compile(r":\d+$")


class ParsableReporter:
    name = "parsable"

    def render(self, reports: Sequence[Report], hands: Hands | None = None) -> str:
        lines: list[str] = []
        for r in reports:
            if r.verdict == "unreadable":
                lines.append(f"{r.deck}: unreadable: {r.error or 'could not be read'}")
                continue
            for v in r.violations:
                loc = v.location
                if not loc or loc == r.deck:
                    where = f"{r.deck}:1:1"
                elif _LINE.search(loc):
                    where = f"{loc}:1"
                else:
                    where = loc
                lines.append(f"{where}: {v.code} {v.message}")
        return "\n".join(lines) + "\n" if lines else ""

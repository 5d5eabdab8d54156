"""The parsable reporter: one line per problem, `path:line:col: CODE message` (flake8-like).

    deck.ydk:12:1: DC201 The deck has 4 cards named Harpie Lady …
    deck.ydk:1:1: DC101 The Main Deck has 39 cards; TCG Advanced allows 40 to 60.
    book.xlsx:Sheet1!B7: DC401 No card is named "Ash Blosom" (did you mean …?).

A problem without a line (a deck-wide one) points at line 1 of the deck; a spreadsheet cell
is written as is. Legal decks print nothing; inputs that could not be read are not problems
of a deck (the CLI says them on stderr). Control characters and line breaks in what a file
holds are escaped, so no cell or name can forge a line of its own.
"""

from __future__ import annotations

from deckcheck.reports import printable
from deckcheck.reports.model import CheckResult, Violation


def position(v: Violation, deck: str) -> str:
    """"deck.ydk:12:1", "book.xlsx:Sheet1!B7", "<url>#main[3]", or "deck:1:1" when the
    problem is about the deck as a whole."""
    loc = v.location
    if loc is None or not loc.pointed:
        return f"{loc.source if loc is not None and loc.source else deck}:1:1"
    if loc.sheet is not None or loc.part is not None:
        return str(loc)
    return f"{loc}:1"


class ParsableReporter:
    name = "parsable"

    def render(self, result: CheckResult) -> str:
        lines: list[str] = []
        for r in result.reports:
            for v in r.violations:
                lines.append(printable(f"{position(v, r.deck)}: {v.code} {v.message}"))
            for p in r.open_points:  # not settled by the card data: "could not be fully checked"
                lines.append(printable(f"{r.deck}:1:1: OPEN {p}"))
        return "\n".join(lines) + "\n" if lines else ""

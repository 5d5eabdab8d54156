"""What every writer of a spreadsheet cell needs (deck CSV and xlsx, the event's CSV, JSON and
workbook): the one formula guard, lone surrogates, column letters. Apart from the table
readers (`deckcheck.decks.tabular`), so that writing a report does not import them."""

from __future__ import annotations

import re

#: A lone surrogate: a file name that is not UTF-8, decoded with surrogateescape. UTF-8 cannot
#: encode one, so a worksheet or CSV file shows U+FFFD and a JSON report writes it escaped.
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: The one formula guard: text starting with one of these could be run by a spreadsheet as a
#: formula (a leading line break too: cells are often trimmed), so every writer of a cell (deck
#: CSV and xlsx, the event's CSV and workbook) quotes it with a leading `'` (`escape_cell`),
#: and the readers take that quote off again.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def column_letter(col: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA"."""
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def escape_cell(value: str) -> str:
    """Text safe for a spreadsheet cell: values that a spreadsheet would run as a formula
    (starting with =, +, -, @, tab, CR or LF: `FORMULA_START`) get a leading `'`."""
    return "'" + value if value.startswith(FORMULA_START) else value

"""stderr cuts an input echoed in a message to `errors.ECHO` characters (`cli.main`)."""

from __future__ import annotations

import io

from deckcheck.cli.main import _EchoBounded
from deckcheck.errors import ECHO


def test_a_long_run_of_input_is_cut_and_short_text_kept() -> None:
    out = io.StringIO()
    err = _EchoBounded(out)
    err.write("deckcheck: --date short is not a date.\n")
    long = "x" * (ECHO * 5)
    err.write(f"deckcheck: --date {long} is not a date.\n")
    first, second = out.getvalue().splitlines()
    assert first == "deckcheck: --date short is not a date."
    assert second == (f"deckcheck: --date {'x' * (ECHO - 40)}… ({ECHO * 5:,} characters) is "
                      "not a date.")
    assert err.getvalue() == out.getvalue()  # anything else is the stream's own

"""`python -m deckcheck …` runs the command-line tool, as the `deckcheck` command does."""

from __future__ import annotations

from deckcheck.cli.main import run

if __name__ == "__main__":
    run()

"""The whole real corpus (../shared/data/decks, ~3,750 .ydk and a few other lists) checked as
one event under the 2026.05 TCG list: a report row for every file, nothing stops the run.

The fastest path: files are read and checked one by one, the format is prepared once and
the built-in card set (the test environment has no imported database) is held in memory.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import openpyxl

from deckcheck.cards.load import open_pool
from deckcheck.event.inputs import expand
from deckcheck.event.report_xlsx import write_xlsx
from deckcheck.event.run import check_event
from deckcheck.formats import load_format

DATE = dt.date(2026, 6, 1)


def test_whole_corpus_as_one_event(shared_data: Path, tmp_path: Path) -> None:
    banlist = load_format("tcg").banlist_at(DATE)
    assert banlist is not None and banlist.name == "2026.05 TCG"
    decks = shared_data / "decks"
    files = expand([decks])
    ydk = [p for p in files if p.suffix == ".ydk"]
    assert len(ydk) == len(list(decks.rglob("*.ydk"))) > 3000

    report = check_event([decks], open_pool(None), format="tcg", date=DATE)

    assert report.banlist == "2026.05 TCG" and report.date == DATE.isoformat()
    sources = Counter(r.source for r in report.players)
    for path in ydk:  # exactly one row per .ydk file
        assert sources[str(path)] == 1, path
    covered = {r.source.split(".xlsx:")[0].split(".csv:")[0] for r in report.players}
    assert {str(p).removesuffix(".xlsx").removesuffix(".csv") for p in files} <= {
        c.removesuffix(".xlsx").removesuffix(".csv") for c in covered}
    assert report.total == len(report.players) >= len(files)
    assert report.legal + report.illegal + report.unreadable == report.total
    assert report.exit_code == 2  # the corpus holds a file that is no deck at all
    for row in report.players:
        if row.verdict == "unreadable":
            assert row.error and row.error.endswith(".") and "\n" not in row.error
        else:
            assert row.main is not None and row.extra is not None and row.side is not None
    assert sum(r.problem_count for r in report.players) == len(report.problems)

    out = write_xlsx(report, tmp_path / "corpus.xlsx")[0]
    wb = openpyxl.load_workbook(out, read_only=True)
    try:
        assert sum(1 for _ in wb["Players"].iter_rows(values_only=True)) == report.total + 1
    finally:
        wb.close()

"""`check()`'s prepared checkers are keyed by what decides which files it reads: the
environment variables too (read through `os.environ`, issue 23: not CPython's private dict)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from deckcheck import checker
from deckcheck.cards.builtin import builtin_pool


def test_a_changed_environment_prepares_a_new_checker(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pool = builtin_pool()
    day = dt.date(2026, 6, 1)

    def prepared() -> checker.Checker:
        return checker._cached_checker("tcg", day, pool, None, None, None, None, False)

    first = prepared()
    assert prepared() is first  # the same arguments and environment: reused
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path))
    second = prepared()
    assert second is not first
    monkeypatch.delenv("DECKCHECK_BANLISTS")
    assert prepared() is first


def test_new_list_files_forget_the_prepared_checkers() -> None:
    # the loader calls the checker back (it does not import the checker: issue 23)
    from deckcheck.formats.loader import clear_cache

    pool = builtin_pool()
    day = dt.date(2026, 6, 1)
    first = checker._cached_checker("tcg", day, pool, None, None, None, None, False)
    assert checker._cached_checker("tcg", day, pool, None, None, None, None, False) is first
    clear_cache()
    assert checker._cached_checker("tcg", day, pool, None, None, None, None, False) \
        is not first

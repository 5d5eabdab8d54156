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


def test_the_data_folder_keys_a_checker_only_where_it_decides_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = builtin_pool()
    day = dt.date(2026, 6, 1)

    def prepared(given: object = pool) -> checker.Checker:
        return checker._cached_checker("tcg", day, given, None, None, None, None,  # type: ignore[arg-type]
                                       False)

    monkeypatch.delenv("DECKCHECK_BANLISTS", raising=False)
    first = prepared()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "a"))  # the user's lists live there
    assert prepared() is not first
    monkeypatch.setenv("DECKCHECK_BANLISTS", str(tmp_path / "lists"))
    named = prepared()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "b"))  # decides no file any more
    assert prepared() is named
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "cards.sqlite"))  # a pool is given
    assert prepared() is named
    # without a pool the card database is the data folder's unless $DECKCHECK_DB names it
    monkeypatch.delenv("DECKCHECK_DB")
    default = prepared(None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "c"))
    assert prepared(None) is not default

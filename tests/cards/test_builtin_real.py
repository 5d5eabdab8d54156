"""Out of the box is as good as a full import (issue 19, "Done when"): every real `.ydk` deck
gets the same verdict and the same problems with the built-in pool as with a store imported
from every card source in `../shared/data` (the same data, read by the same importers)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from deckcheck.cards.builtin import builtin_pool
from deckcheck.checker import Checker

#: a date past the day the data ends (as `deckcheck check` without --date is today), and one
#: inside it
DAYS = (dt.date(2026, 11, 22), dt.date(2026, 6, 1))


@pytest.fixture(scope="module")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import SHARED_DATA

    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present (real-data test)")
    from deckcheck.cards.build_builtin import read_all
    from deckcheck.imports.run import import_sources

    path = tmp_path_factory.mktemp("store") / "cards.sqlite"
    import_sources(path, read_all(SHARED_DATA / "cards"))
    return path


def _verdicts(checker: Checker, files: list[Path]) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in files:
        o = checker.check_input(str(f))
        out[f.name + str(hash(str(f)))] = o.error or [
            (r.verdict, sorted(v.code for v in r.violations), len(r.open_points))
            for r in o.reports]
    return out


@pytest.mark.parametrize("day", DAYS, ids=str)
def test_every_real_ydk_gets_the_same_verdict_as_with_a_full_import(
        real_store: Path, shared_data: Path, day: dt.date) -> None:
    from deckcheck.cards.store import StorePool

    files = sorted((shared_data / "decks").rglob("*.ydk"))
    assert len(files) > 3000
    store = StorePool(real_store)
    assert store.info.covers == builtin_pool().info.covers
    built_in = _verdicts(Checker("tcg", day, pool=builtin_pool()), files)
    imported = _verdicts(Checker("tcg", day, pool=store), files)
    differ = {k: (built_in[k], imported[k]) for k in built_in if built_in[k] != imported[k]}
    assert differ == {}

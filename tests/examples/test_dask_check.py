"""examples/dask_check.py: the same `check()` over a folder of decks on a Dask `LocalCluster`
gives the same rows as the local run (issue 24 point 3). Skips without the `cluster` extra."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import ROOT, SHARED_DATA

pytest.importorskip("distributed", reason="needs the cluster extra: pip install "
                    "'deckcheck[cluster]'")

EXAMPLE = ROOT / "examples" / "dask_check.py"
DATE = "2026-06-01"


def _example() -> ModuleType:
    """The example imported under its file's name (what `client.upload_file` gives the
    workers)."""
    spec = importlib.util.spec_from_file_location("dask_check", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_check"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    """The example decks, an unreadable file, and (with the real data) 150 real .ydk."""
    folder = tmp_path / "decks"
    folder.mkdir()
    for name in ("tcg-legal.ydk", "tcg-legal.txt", "tcg-illegal.ydk",
                 "csm-2022-03-dinosaur.ydk"):
        shutil.copy(ROOT / "examples" / name, folder / name)
    (folder / "broken.xlsx").write_bytes(b"not a workbook")
    real = sorted((SHARED_DATA / "decks").rglob("*.ydk"))[::25][:150]
    for i, path in enumerate(real):
        (folder / "real").mkdir(exist_ok=True)
        shutil.copy(path, folder / "real" / f"{i:03}-{path.name}")
    return folder


def test_dask_gives_the_local_verdicts(decks: Path) -> None:
    from distributed import Client, LocalCluster

    example = _example()
    paths = example.deck_files(decks)
    local: list[dict[str, Any]] = example.check_paths(paths, "tcg", DATE)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                      processes=True) as cluster, Client(cluster) as client:
        remote = example.check_on_dask(client, paths, "tcg", DATE, partitions=5)
    assert remote == local
    import deckcheck  # and the local run is the library's own many-deck check

    mine = deckcheck.check_many(paths, "tcg", DATE)
    assert [row["verdict"] for row in local] == [
        o.reports[0].verdict if o.error is None else None for o in mine.outcomes]
    verdicts = {row["path"].rsplit("/", 1)[-1]: row["verdict"] for row in local}
    assert verdicts["tcg-legal.ydk"] == "legal" and verdicts["tcg-illegal.ydk"] == "illegal"
    broken = next(row for row in local if row["path"].endswith("broken.xlsx"))
    assert broken["verdict"] is None and broken["error"]

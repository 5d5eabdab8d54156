"""The import use case (`deckcheck.imports.run.import_sources`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deckcheck.imports import writer
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source

FIX = Path(__file__).resolve().parents[1] / "sources" / "fixtures"


def test_the_old_store_is_opened_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stored records and the count of stored cards (the shrink guard's) come from one
    opening of the old store, not two."""
    db = tmp_path / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    opened: list[Any] = []
    real = writer.connect

    def counting(path: Any) -> Any:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(writer, "connect", counting)
    result = import_sources(db, [read_source(FIX / "yamlyugi_small.json")])
    assert opened == [db]
    assert result["cards"] >= 18

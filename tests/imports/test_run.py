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


def test_cards_of_checked_sources_are_not_validated_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards merged only from records their parsers checked (`SourceData.checked`: the
    YGOPRODeck parser's) are valid by construction and are not validated again (nor their
    ids, `guard.check_ids`: the parser bounds every id it keeps); once a source
    that is not checked takes part (and the records read back from the store are not), every
    merged card is."""
    from deckcheck.imports import run

    calls: list[int] = []
    real, real_ids = run.validate, run.check_ids
    monkeypatch.setattr(run, "validate", lambda cards: (calls.append(1), real(cards)))
    monkeypatch.setattr(run, "check_ids", lambda sd: (calls.append(2), real_ids(sd)))
    db = tmp_path / "cards.sqlite"
    assert read_source(FIX / "ygoprodeck_small.json").checked
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    assert calls == []
    yaml_yugi = read_source(FIX / "yamlyugi_small.json")
    assert not yaml_yugi.checked
    import_sources(db, [yaml_yugi])
    assert calls == [2, 1]
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])  # stored: not checked
    assert calls == [2, 1, 1]


def test_an_invalid_card_of_a_source_not_checked_is_refused(tmp_path: Path) -> None:
    """A source whose parser does not vouch for its values (`SourceData.checked` False) has
    its merged cards validated: a value no card can hold is one sentence, and no store."""
    from deckcheck.errors import ImportFailed
    from deckcheck.sources.records import SourceData, SourceRecord

    rec: SourceRecord = {"passcode": 46986414, "name": "Dark Magician", "kind": "monster",
                         "frame": "not-a-frame"}
    db = tmp_path / "cards.sqlite"
    with pytest.raises(ImportFailed, match=r"^The merged card 46986414 \(Dark Magician\) is "
                       r"not valid \(frame: .*; nothing was changed — please report this\.$"):
        import_sources(db, [SourceData("yaml-yugi", [rec], plain=True)])
    assert not db.exists()

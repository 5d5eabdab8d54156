"""Every importer turns any input into cards or one sentence (exit 2): the 16 crash sites
found in four importers as regression cases, and a bounded type-confusion fuzz per source —
real-looking data (the hand-written fixtures) with values swapped for ones of another type
or size (text where a number belongs, a number where a list does, 2**70, infinity, deep
nesting, binary cells in a cdb)."""

from __future__ import annotations

import json
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from deckcheck.cli.main import cli
from deckcheck.errors import DeckcheckError
from deckcheck.imports.run import import_sources
from deckcheck.sources import read_source
from tests.conftest import HOSTILE_FIXTURES
from tests.sources.conftest import write_cdb

FIX = Path(__file__).parent / "fixtures"

#: The crash sites of the hostile corpus (../shared/hostile/import-*): each printed a
#: traceback and exited 1.
SITES = sorted(p.name for p in (Path(__file__).resolve().parents[3] / "shared" / "hostile")
               .glob("import-*")) or ["import-cdb-text-in-int-column.cdb"]


def _cli_import(db: Path, path: Path) -> Any:
    return CliRunner().invoke(cli, ["--db", str(db), "cards", "import", str(path)])


def test_text_in_an_int_column_is_one_sentence(tmp_path: Path) -> None:
    """The smallest site (kept with the tests): text in an EDOPro ATK/DEF column."""
    res = _cli_import(tmp_path / "c.sqlite", HOSTILE_FIXTURES / "import-cdb-text-in-int-column.cdb")
    assert res.exit_code == 2, res.output
    assert res.stderr.endswith("has 'abc' in its def column, not a whole number; nothing was "
                               "changed — check the file.\n")
    assert res.stderr.count("\n") == 1


@pytest.mark.parametrize("name", SITES)
def test_crash_site(hostile: Path, tmp_path: Path, name: str) -> None:
    """Each gives cards (the odd value is left out) or one sentence, exit 2; a refused file
    leaves the store as it was."""
    db = tmp_path / "c.sqlite"
    assert _cli_import(db, FIX / "ygoprodeck_small.json").exit_code == 0
    before = db.read_bytes()
    res = _cli_import(db, hostile / name)
    assert res.exit_code in (0, 2), res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    if res.exit_code == 2:
        assert res.stderr.startswith("deckcheck: ") and res.stderr.count("\n") == 1
        assert db.read_bytes() == before


def test_deep_nesting_is_not_called_a_zip(hostile: Path, tmp_path: Path) -> None:
    res = _cli_import(tmp_path / "c.sqlite", hostile / "msg-deep-nesting-called-zip.json")
    assert res.exit_code == 2
    assert "nests its JSON deeper" in res.stderr and "zip archive" not in res.stderr


def test_deep_nesting_made_here(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    res = _cli_import(tmp_path / "c.sqlite", path)
    assert res.exit_code == 2 and "nests its JSON deeper" in res.stderr


# --- the type-confusion fuzz --------------------------------------------------------------

CASES = 40  # per source: the six run in a few seconds

SETTINGS = settings(max_examples=CASES, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: Values of every JSON type and of sizes no source publishes.
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.sampled_from([2**63, -(2**63) - 1, 10**30, 0, -1]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.lists(st.one_of(st.integers(), st.text(max_size=4), st.none()), max_size=3),
    st.dictionaries(st.text(max_size=4), st.one_of(st.integers(), st.text(max_size=4)),
                    max_size=3),
    st.integers(1, 40).map(lambda n: json.loads("[" * n + "]" * n)),
)


def _paths(doc: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*at, i))


def _swap(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    doc = json.loads(json.dumps(doc))
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return doc


@pytest.fixture(scope="module")
def base_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of YGOPRODeck's fixture cards, for the sources that only add to cards."""
    db = tmp_path_factory.mktemp("base") / "cards.sqlite"
    import_sources(db, [read_source(FIX / "ygoprodeck_small.json")])
    return db


def _import(base: Path, write: Any) -> None:
    """Write the case with `write(folder) -> path`, import it into a copy of `base`: cards or
    one DeckcheckError sentence, nothing else."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = folder / "cards.sqlite"
        shutil.copy(base, db)
        path = write(folder)
        try:
            import_sources(db, [read_source(path)], allow_smaller=True)
        except DeckcheckError as exc:
            assert str(exc) and "\n" not in str(exc) and "Traceback" not in str(exc)


def _json_fuzz(doc: Any) -> Any:
    paths = list(_paths(doc))[1:]
    return st.lists(st.tuples(st.sampled_from(paths), ODD), min_size=1, max_size=3)


def _apply(doc: Any, swaps: list[tuple[tuple[Any, ...], Any]]) -> Any:
    for path, value in swaps:
        try:
            doc = _swap(doc, path, value)
        except (KeyError, IndexError, TypeError):  # an earlier swap replaced the parent
            pass
    return doc


def _json_writer(doc: Any) -> Any:
    def write(folder: Path) -> Path:
        path = folder / "cards.json"
        path.write_text(json.dumps(doc))
        return path
    return write


YGOPRODECK = json.loads((FIX / "ygoprodeck_small.json").read_text())
YAML_YUGI = json.loads((FIX / "yamlyugi_small.json").read_text())
YGOCDB = json.loads((FIX / "ygocdb_small.json").read_text())
MAPPINGS = {"mappings": [[100200001, 14558127], [100200002, 46986414]]}


@given(_json_fuzz(YGOPRODECK))
@SETTINGS
def test_fuzz_ygoprodeck(base_store: Path, swaps: Any) -> None:
    _import(base_store, _json_writer(_apply(YGOPRODECK, swaps)))


@given(_json_fuzz(YAML_YUGI))
@SETTINGS
def test_fuzz_yaml_yugi(base_store: Path, swaps: Any) -> None:
    _import(base_store, _json_writer(_apply(YAML_YUGI, swaps)))


@given(_json_fuzz(YGOCDB))
@SETTINGS
def test_fuzz_ygocdb(base_store: Path, swaps: Any) -> None:
    _import(base_store, _json_writer(_apply(YGOCDB, swaps)))


@given(_json_fuzz(MAPPINGS))
@SETTINGS
def test_fuzz_edopro_mappings(base_store: Path, swaps: Any) -> None:
    _import(base_store, _json_writer(_apply(MAPPINGS, swaps)))


CDB_ROWS = [
    (14558127, 3, 0, 0x21, 0, 1800, 3, 0x2000, 0x20, "Ash Blossom & Joyous Spring", "text"),
    (46986414, 3, 0, 0x11, 2500, 2100, 7, 0x2, 0x20, "Dark Magician", "normal"),
    (46986415, 3, 46986414, 0x11, 2500, 2100, 7, 0x2, 0x20, "Dark Magician", "alt"),
    (83764718, 3, 0, 0x2, 0, 0, 0, 0, 0, "Monster Reborn", "Target 1 monster"),
]
SQL_ODD = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False),
                    st.text(max_size=12), st.binary(max_size=8))


@given(st.lists(st.tuples(st.integers(0, len(CDB_ROWS) - 1), st.integers(0, 10), SQL_ODD),
                min_size=1, max_size=3))
@example(swaps=[(0, 0, "\n")])  # an id of text: the sentence quotes it on one line
@SETTINGS
def test_fuzz_edopro_cdb(base_store: Path, swaps: Any) -> None:
    rows = [list(r) for r in CDB_ROWS]
    for r, c, v in swaps:
        rows[r][c] = v

    def write(folder: Path) -> Path:
        return write_cdb(folder / "cards.cdb", rows, typed=False)
    _import(base_store, write)


YGOJSON = {
    "cards": [{"id": "u1", "cardType": "monster", "passwords": ["14558127"],
               "externalIDs": {"dbID": 12950}, "images": [{"id": 1, "password": "14558127"}],
               "masterDuel": {"rarity": "ur"}},
              {"id": "u2", "cardType": "monster", "passwords": ["46986414", "46986415"],
               "externalIDs": {"dbID": 4041}, "images": [{"id": 2, "password": "46986416"}]}],
    "sets": [{"id": "s1", "locales": {"en": {"date": "2020-03-20"}, "jp": {"date": "2018-01-01"}},
              "contents": [{"locales": ["en", "jp"], "formats": [],
                            "cards": [{"id": "p1", "card": "u1"}, {"id": "p2", "card": "u2"}]}]},
             {"id": "s2", "date": "2022-01-19",
              "contents": [{"formats": ["masterduel"], "cards": [{"id": "p3", "card": "u1"}]}]}],
}


@given(_json_fuzz(YGOJSON))
@SETTINGS
def test_fuzz_ygojson(base_store: Path, swaps: Any) -> None:
    doc = _apply(YGOJSON, swaps)

    def write(folder: Path) -> Path:
        path = folder / "ygojson.zip"
        cards = doc.get("cards") if isinstance(doc, dict) else None
        sets = doc.get("sets") if isinstance(doc, dict) else None
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("v1/meta.json", json.dumps({"version": 1}))
            for i, c in enumerate(cards if isinstance(cards, list) else [cards]):
                zf.writestr(f"v1/cards/c{i}.json", json.dumps(c))
            for i, s in enumerate(sets if isinstance(sets, list) else [sets]):
                zf.writestr(f"v1/sets/s{i}.json", json.dumps(s))
        return path
    _import(base_store, write)

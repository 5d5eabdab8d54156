"""`cards update --from FILE` (`deckcheck.imports.update`): what it reads and what it stores."""

from __future__ import annotations

import io
import sqlite3
import zipfile
from pathlib import Path
from typing import Any

import pytest

from deckcheck.imports.update import update_ygoprodeck
from deckcheck.sources.reading import file_digest

FIXTURE = Path(__file__).parents[1] / "sources" / "fixtures" / "ygoprodeck_small.json"


class _Counted:
    """A file whose `read`s add up the bytes they return (in `total[0]`)."""

    def __init__(self, f: Any, total: list[int]) -> None:
        self._f, self._total = f, total

    def read(self, n: int = -1) -> bytes:
        data: bytes = self._f.read(n)
        self._total[0] += len(data)
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._f, name)

    def __enter__(self) -> _Counted:
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()


def _bytes_read_of(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """[how many bytes of `path` are read], however it is opened (`open`, pathlib, zipfile)."""
    total = [0]
    real = io.open

    def counting(file: Any, *args: Any, **kwargs: Any) -> Any:
        f = real(file, *args, **kwargs)
        if isinstance(file, (str, Path)) and Path(file) == path:
            return _Counted(f, total)
        return f

    monkeypatch.setattr(io, "open", counting)
    monkeypatch.setattr("builtins.open", counting)
    return total


@pytest.mark.parametrize("zipped", [False, True])
def test_the_answer_file_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      zipped: bool) -> None:
    """The file's bytes give both its version (its digest, as before) and its cards: it is
    read once, not once for the digest and again for the answer (`file_day` still reads a
    zip's directory)."""
    src = tmp_path / ("cardinfo.zip" if zipped else "cardinfo.json")
    # as big as a zip's end is searched for (64 KiB) thrice: that search is no read of it
    answer = FIXTURE.read_bytes() + b" " * 200_000
    if zipped:
        with zipfile.ZipFile(src, "w") as zf:
            zf.writestr("cardinfo.json", answer)
    else:
        src.write_bytes(answer)
    version = f"file {file_digest(src)}"
    read = _bytes_read_of(src, monkeypatch)
    db = tmp_path / "cards.sqlite"
    result = update_ygoprodeck(db, from_file=src)
    assert src.stat().st_size <= read[0] < 1.5 * src.stat().st_size
    assert result["cards"] == 18 and result["sources"] == {"ygoprodeck": version}
    con = sqlite3.connect(db)
    try:
        assert con.execute("SELECT count(*) FROM cards").fetchone() == (18,)
    finally:
        con.close()


def test_an_update_from_a_file_starts_without_the_http_client(tmp_path: Path) -> None:
    """`cards update --from FILE` never goes online: the HTTP client (and what it imports)
    is not loaded, which a cold start would pay for; nor is pydantic, into a store of only
    YGOPRODeck's records (the parser checked every value: `SourceData.checked`); nor
    `filelock` (the import lock is taken with the OS's call: `guard.store_lock`)."""
    import subprocess
    import sys

    code = ("import sys; from deckcheck.imports.update import update_ygoprodeck; "
            f"update_ygoprodeck({str(tmp_path / 'cards.sqlite')!r}, from_file={str(FIXTURE)!r}); "
            "print('deckcheck.sources.http' in sys.modules, 'pydantic' in sys.modules, "
            "'filelock' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False False False"


@pytest.mark.parametrize("zipped", [False, True])
def test_a_json_file_imported_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           zipped: bool) -> None:
    """`cards import cards.json` (`read_source`) read the file for its digest, then again for
    its cards; its bytes now give both, and its version is the same digest (the look for a
    zip's directory at its end still reads up to 128 KiB of it). A zip holding the JSON, as
    the dump is downloaded, too."""
    from deckcheck.sources import read_source

    src = tmp_path / ("cardinfo.zip" if zipped else "cardinfo.json")
    answer = FIXTURE.read_bytes() + b" " * 2_000_000
    if zipped:  # stored, not compressed: as big as the JSON
        with zipfile.ZipFile(src, "w") as zf:
            zf.writestr("cardinfo.json", answer)
    else:
        src.write_bytes(answer)
    version = file_digest(src)
    read = _bytes_read_of(src, monkeypatch)
    sd = read_source(src)
    assert src.stat().st_size <= read[0] < 1.5 * src.stat().st_size
    assert sd.version == version and len(sd.records) == 18

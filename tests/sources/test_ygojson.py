"""YGOJSON v1 importer: a hand-written archive (facts only), bounds, and the real archive."""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from deckcheck.cards.store import StorePool
from deckcheck.errors import ImportFailed
from deckcheck.imports.run import import_sources
from deckcheck.imports.writer import _plain
from deckcheck.sources import read_source

CARDS = Path(__file__).resolve().parents[3] / "shared" / "data" / "cards"

SCHEMA = "https://raw.githubusercontent.com/iconmaster5326/YGOJSON/main/schema/v1/"
SP = "a6930e71-0000-0000-0000-000000000001"  # S:P Little Knight
DM = "a6930e71-0000-0000-0000-000000000002"  # Dark Magician, two passwords


def _card(uuid: str, passwords: list[str], db_id: int, md: bool = False,
          images: list[str] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    card: dict[str, Any] = {"$schema": SCHEMA + "card.json", "id": uuid, "cardType": "monster",
                            "passwords": passwords, "externalIDs": {"dbID": db_id},
                            "images": [{"id": f"img-{p}", "password": p}
                                       for p in [*passwords, *images]]}
    if md:
        card["masterDuel"] = {"rarity": "ur", "craftable": True}
    return card


def _locale(date: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"language": "x", "cardImages": {}, "externalIDs": {}}
    if date:
        out["date"] = date
    return out


def _set(uuid: str, locales: dict[str, str | None], contents: list[tuple[list[str], list[str]]]
         ) -> dict[str, Any]:
    return {"$schema": SCHEMA + "set.json", "id": uuid, "name": {"en": uuid}, "externalIDs": {},
            "locales": {loc: _locale(d) for loc, d in locales.items()},
            "contents": [{"locales": locs, "formats": [], "cards": [
                {"id": f"p-{uuid}-{i}", "card": c} for i, c in enumerate(cards)]}
                for locs, cards in contents]}


def _md_set(uuid: str, date: str | None, cards: list[str]) -> dict[str, Any]:
    s: dict[str, Any] = {"$schema": SCHEMA + "set.json", "id": uuid, "name": {"en": uuid},
                         "externalIDs": {}, "contents": [{"formats": ["masterduel"], "cards": [
                             {"id": f"p-{uuid}-{i}", "card": c} for i, c in enumerate(cards)]}]}
    if date:
        s["date"] = date
    return s


def write_archive(path: Path, cards: list[dict[str, Any]], sets: list[dict[str, Any]],
                  top: str = "") -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(top + "meta.json", json.dumps({"version": 1,
                                                   "lastYugipediaRead": "2025-11-15T01:49:27"}))
        zf.writestr(top + "cards.json", json.dumps([c["id"] for c in cards]))
        for c in cards:
            zf.writestr(f"{top}cards/{c['id']}.json", json.dumps(c))
        for s in sets:
            zf.writestr(f"{top}sets/{s['id']}.json", json.dumps(s))
    return path


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    cards = [_card(SP, ["29301450"], 19188, md=True),
             _card(DM, ["46986414", "46986415"], 4041, images=["46986416", "101402099"])]
    sets = [
        # Age of Overlord: no English date, European dates, Japan earlier
        _set("agov", {"en": None, "fr": "2023-10-19", "de": "2023-10-19", "jp": "2023-07-22",
                      "kr": "2023-10-17", "sc": "2023-09-30"},
             [(["en"], [SP]), (["fr", "de"], [SP]), (["jp"], [SP]), (["kr"], [SP]),
              (["sc"], [SP])]),
        _set("lob", {"en": "2002-03-08", "na": "2002-03-08", "jp": "1999-02-04"},
             [(["en", "na"], [DM]), (["jp"], [DM])]),
        # a later English reprint must not move the first release
        _set("reprint", {"en": "2024-01-01"}, [(["en"], [SP, DM])]),
        # a secret pack keeps its launch date as cards are added
        _md_set("md-secret", "2022-01-19", [SP]),
        _md_set("md-later", "2024-05-09", [SP]),
    ]
    return write_archive(tmp_path / "ygojson.zip", cards, sets, top="v1/")


def test_release_dates_per_region(archive: Path) -> None:
    data = read_source(archive)
    assert data.name == "ygojson" and data.version is not None
    assert data.version.startswith("2025-11-15")
    by_pc = {r["passcode"]: r for r in data.records}
    sp = by_pc[29301450]
    assert sp["released"] == {"kr": "2023-10-17", "md": "2023-07-22", "ocg": "2023-07-22",
                              "sc": "2023-09-30", "tcg": "2023-10-19"}
    assert sp["konami_id"] == 19188 and sp["master_duel"] is True and sp["enrich_only"]
    dm = by_pc[46986414]
    assert dm["released"] == {"ocg": "1999-02-04", "tcg": "2002-03-08"}
    assert dm["alt_passcodes"] == [46986415, 46986416]
    assert dm["extra_ids"] == [101402099]  # an "artwork" id that is a prerelease id
    assert dm["master_duel"] is False
    # the day the data ends, read from the open archive's meta.json (not from a second
    # opening of it), and records the store writes without looking through them
    assert data.covers == {"tcg": "2025-11-15", "ocg": "2025-11-15", "md": "2025-11-15"}
    assert data.plain and all(_plain(r) for r in data.records)


def test_the_archive_is_opened_once(archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The day the data ends comes from the archive already open: YGOJSON's directory is
    19,000 entries, ~50 ms to read again."""
    opened: list[object] = []

    class Counting(zipfile.ZipFile):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            opened.append(args[0])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(zipfile, "ZipFile", Counting)
    assert read_source(archive).covers["tcg"] == "2025-11-15"
    assert opened == [archive]


def test_merged_into_the_pool(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "cards.sqlite"
    fixture = Path(__file__).parent / "fixtures" / "ygoprodeck_small.json"
    import_sources(db, [read_source(fixture)])
    import_sources(db, [read_source(archive)])
    pool = StorePool(db)
    dm = pool.get(46986414)
    assert dm is not None
    # YGOPRODeck says TCG 2002-03-08, OCG 1999-02-04 too: the earliest wins
    assert dm.released == {"tcg": dt.date(2002, 3, 8), "ocg": dt.date(1999, 2, 4)}
    assert dm.master_duel is False
    assert pool.get(101402099) is dm  # the prerelease id counts as the card
    pool.close()


def test_zip_bomb_member_is_refused_quickly(tmp_path: Path, unpacked: list[str]) -> None:
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr("meta.json", "{}")
        zf.writestr("sets/x.json", "[]")
        with zf.open("cards/bomb.json", "w", force_zip64=True) as f:
            chunk = b" " * (1 << 20)
            for _ in range(1100):  # 1.1 GB of spaces, a few MB packed
                f.write(chunk)
    with pytest.raises(ImportFailed, match=r"bomb\.zip: the archive would unpack to 1153 MB"):
        read_source(path)
    assert "cards/bomb.json" not in unpacked  # refused from the directory, nothing unpacked


def test_member_packed_too_tightly_is_refused(tmp_path: Path, unpacked: list[str]) -> None:
    """64 MB of one byte: under the size limits, but no card data packs 1000:1."""
    path = tmp_path / "dense.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("meta.json", "{}")
        zf.writestr("sets/x.json", "[]")
        zf.writestr("cards/dense.json", b" " * (64 << 20))
    with pytest.raises(ImportFailed, match=r"cards/dense\.json would unpack to 67 MB"):
        read_source(path)
    assert "cards/dense.json" not in unpacked  # refused from the directory, nothing unpacked


def test_forged_sizes_are_a_damaged_archive(tmp_path: Path) -> None:
    """A directory entry that understates a member's size: zipfile stops at the stated size,
    and the mismatch is one sentence."""
    path = tmp_path / "forged.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("cardinfo.json", b"0" * (8 << 20))
    raw = bytearray(path.read_bytes())
    central = raw.rindex(b"PK\x01\x02")
    raw[central + 24:central + 28] = (100).to_bytes(4, "little")  # uncompressed size
    path.write_bytes(bytes(raw))
    with pytest.raises(ImportFailed, match=r"forged\.zip is a damaged zip archive"):
        read_source(path)


def test_damaged_member_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "bad.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("meta.json", "{}")
        zf.writestr("sets/x.json", "[]")
        zf.writestr("cards/x.json", "{not json")
    with pytest.raises(ImportFailed, match=r"cards/x\.json is not valid JSON"):
        read_source(path)


# -- the real archive ------------------------------------------------------------------

REAL = CARDS / "ygojson-v1.zip"


@pytest.fixture(scope="module")
def real_records() -> dict[int, dict[str, Any]]:
    if not REAL.is_file():
        pytest.skip("../shared/data is not present (real-data test)")
    return {r["passcode"]: r for r in read_source(REAL).records}


def test_real_archive(real_records: dict[int, dict[str, Any]]) -> None:
    assert len(real_records) >= 13_800
    sp = real_records[29301450]
    assert sp["released"]["tcg"] == "2023-10-19" and sp["released"]["ocg"] == "2023-07-22"
    assert sp["konami_id"] == 19188 and sp["master_duel"] is True
    tcg = sum(1 for r in real_records.values() if "tcg" in r.get("released", {}))
    ocg = sum(1 for r in real_records.values() if "ocg" in r.get("released", {}))
    assert tcg > 13_000 and ocg > 13_000  # README: TCG for 13,434 passcodes, OCG 13,727


_REFUSE = """
import sys, zipfile
from deckcheck.errors import ImportFailed
from deckcheck.sources import read_source
unpacked = 0
real_read = zipfile.ZipExtFile.read
def counted(self, n=-1):
    global unpacked
    data = real_read(self, n)
    unpacked += len(data)
    return data
zipfile.ZipExtFile.read = counted
try:
    read_source(sys.argv[1])
    print("accepted")
except ImportFailed as exc:
    print(exc)
print(unpacked)  # bytes unpacked before the refusal: the work, not the time
# peak memory of this process (ru_maxrss would carry the forking parent's over exec)
with open("/proc/self/status") as f:
    print(next(line.split()[1] for line in f if line.startswith("VmHWM:")))  # KiB
"""


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
@pytest.mark.parametrize("member", ["cardinfo.json", "cards.cdb"])
def test_zip_bombs_are_refused_in_bounded_time_and_memory(tmp_path: Path, member: str) -> None:
    """A small zip whose one member inflates to 320 MB (JSON or a cdb): refused after
    unpacking at most a few MB, the whole process staying under 256 MB."""
    import subprocess
    import sys

    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open(member, "w", force_zip64=True) as f:
            chunk = b"[" * (1 << 20)
            for _ in range(320):
                f.write(chunk)
    assert path.stat().st_size < 4 << 20
    out = subprocess.run([sys.executable, "-c", _REFUSE, str(path)], capture_output=True,
                         text=True, timeout=60, check=True).stdout.splitlines()
    assert out[0].startswith(f"{path}: ") and "zip bomb" in out[0]
    assert int(out[1]) <= 8 << 20, f"unpacked {out[1]} bytes before refusing"
    assert int(out[2]) < 256 * 1024


def test_encrypted_member_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "locked.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("cardinfo.json", b'{"data": []}')
    raw = bytearray(path.read_bytes())
    for sig, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # general purpose flags
        at = raw.index(sig)
        raw[at + offset] |= 0x1  # "encrypted"
    path.write_bytes(bytes(raw))
    with pytest.raises(ImportFailed, match=r"locked\.zip is encrypted \(password-protected\)"):
        read_source(path)


def test_a_master_duel_set_day_is_never_not_before() -> None:
    """Brute Enforcer: printed 2022-05-05, first in a dated Master Duel set of 2023-10-30; in
    the game by then, not "from" then: the lower bound is its paper release."""
    from deckcheck.sources.ygojson import master_duel_day

    days = {"tcg": "2022-05-05", "ocg": "2022-07-16", "md": "2023-10-30"}
    assert master_duel_day(days, True) == "2022-05-05"
    assert master_duel_day({"ocg": "2019-01-01", "md": "2023-10-30"}, True) == "2022-01-19"
    assert master_duel_day(days, False) is None

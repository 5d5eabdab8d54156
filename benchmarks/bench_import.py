"""Importing the full YGOPRODeck dump into a fresh store, against `json.load` of the same
file in the same run (goal: at most 5x); then reading the YGOJSON v1 archive (55 MB zipped,
221 MB of JSON in 19,000 files) member by member, against `json.loads` of every member of the
same zip (goal: at most 2x), and merging it into a store that holds the dump.

    python benchmarks/bench_import.py [path/to/ygoprodeck-cardinfo.zip] [--repeat N]
        [--ygojson path/to/ygojson-v1.zip]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import zipfile
from pathlib import Path

from _timing import best_of

from deckcheck.sources import ygoprodeck

DEFAULT = (Path(__file__).resolve().parents[2] / "shared" / "data" / "cards"
           / "ygoprodeck-cardinfo.zip")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("dump", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ygojson", default=str(DEFAULT.parent / "ygojson-v1.zip"))
    args = ap.parse_args()
    with zipfile.ZipFile(args.dump) as zf:
        raw = zf.read("cardinfo.json")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "cardinfo.json"
        src.write_bytes(raw)

        def baseline() -> None:
            with open(src, "rb") as f:
                json.load(f)

        counter = iter(range(1000))

        def full_import() -> None:
            # what `deckcheck cards update --from cardinfo.json` does
            result = ygoprodeck.update(Path(tmp) / f"cards{next(counter)}.sqlite", from_file=src)
            assert result["cards"] > 10000

        base = best_of(baseline, args.repeat)
        imp = best_of(full_import, args.repeat)
    print(f"json.load of cardinfo.json ({len(raw) / 1e6:.1f} MB): {base:.3f} s")
    print(f"full import into a new store:               {imp:.3f} s")
    print(f"ratio import / json.load: {imp / base:.2f}x (goal <= 5x)")
    if Path(args.ygojson).is_file():
        bench_ygojson(Path(args.ygojson), Path(args.dump), args.repeat)


def bench_ygojson(archive: Path, dump: Path, repeat: int) -> None:
    from deckcheck.cards.store import import_sources
    from deckcheck.sources import read_source

    def baseline() -> None:
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                if info.filename.endswith(".json"):
                    json.loads(zf.read(info))

    def parse() -> None:
        assert len(read_source(archive).records) > 13000

    base = best_of(baseline, repeat)
    imp = best_of(parse, repeat)
    print(f"json.loads of every member of {archive.name}: {base:.3f} s")
    print(f"YGOJSON records (bounded, member by member): {imp:.3f} s")
    print(f"ratio YGOJSON read / json.loads: {imp / base:.2f}x (goal <= 2x)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cards.sqlite"
        import_sources(db, [read_source(dump)])

        def merge() -> None:
            import_sources(db, [read_source(archive)])

        full = best_of(merge, repeat)
    print(f"`cards import` of YGOJSON into a store with the dump: {full:.3f} s "
          f"({full / base:.2f}x the json.loads)")


if __name__ == "__main__":
    main()

"""Importing the full YGOPRODeck dump into a fresh store, against `json.load` of the same
file in the same run (goal: at most 5x).

    python benchmarks/bench_import.py [path/to/ygoprodeck-cardinfo.zip] [--repeat N]
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


if __name__ == "__main__":
    main()

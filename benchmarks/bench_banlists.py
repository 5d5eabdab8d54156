"""How long loading a format takes (the cold-start share of `deckcheck check`), as ratios
against the baseline of only parsing the TOML of the same files with tomllib.

    python benchmarks/bench_banlists.py

Measures the shipped files, then (when ../shared/data is present) the whole imported
history: every real EDOPro list imported into a temporary directory.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import best_of  # noqa: E402

from deckcheck.formats import loader  # noqa: E402

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "banlists"


def measure(label: str) -> None:
    for fid in ("tcg", "master-duel", "speed"):
        files = [p for d in loader.search_dirs() for p in (d / fid).glob("*.toml")]
        base = best_of(lambda files=files: [tomllib.loads(p.read_text(encoding="utf-8"))
                                            for p in files], 5, setup=loader.clear_cache)
        ours = best_of(lambda fid=fid: loader.load_format(fid).banlist_at(), 5,
                       setup=loader.clear_cache)
        print(f"{label:9} {fid:12} {len(files):3} files  load_format {ours * 1000:7.1f} ms  "
              f"= {ours / base:4.2f} x tomllib alone ({base * 1000:.1f} ms)")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DECKCHECK_BANLISTS"] = tmp
        measure("shipped")
        if SHARED.is_dir():
            from deckcheck.formats.update import import_lists

            t = time.perf_counter()
            report = import_lists(SHARED)  # without a card pool: EDOPro lists only
            print(f"imported {report.total} lists in {time.perf_counter() - t:.2f} s")
            measure("history")
        else:
            print(f"(no {SHARED}: imported history not measured)")


if __name__ == "__main__":
    main()

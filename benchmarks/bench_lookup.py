"""Name and passcode lookups per second on a store built from the full YGOPRODeck dump
(plus YAML Yugi names when present), against a plain dict lookup in the same run; also the
cold start of resolving a 75-card list and the first "did you mean".

    python benchmarks/bench_lookup.py
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from deckcheck.cards.names import normalize
from deckcheck.cards.store import StorePool, import_sources
from deckcheck.sources import read_source

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "cards"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cards.sqlite"
        sources = [read_source(DATA / "ygoprodeck-cardinfo.zip")]
        if (DATA / "yaml-yugi-cards.zip").exists():
            sources.append(read_source(DATA / "yaml-yugi-cards.zip"))
        import_sources(db, sources)
        pool = StorePool(db)
        cards = list(pool)
        rng = random.Random(7)
        sample = rng.sample(cards, 2000)
        names = [c.name for c in sample] + [c.names["ja"] for c in sample if c.names.get("ja")]
        pool.close()

        # cold: a fresh pool resolving a 75-card list by name
        t = time.perf_counter()
        cold = StorePool(db)
        for c in sample[:75]:
            assert cold.find_name(c.name)
        cold_s = time.perf_counter() - t

        fresh = StorePool(db)
        t = time.perf_counter()
        for n in names:
            fresh.find_name(n)
        name_s = time.perf_counter() - t
        t = time.perf_counter()
        for c in sample:
            fresh.get(c.passcode)
        get_s = time.perf_counter() - t
        t = time.perf_counter()
        first = fresh.suggest("ash blosom")
        suggest_first = time.perf_counter() - t
        t = time.perf_counter()
        for c in sample[:100]:
            fresh.suggest(c.name[:-2] + "xx")
        suggest_s = (time.perf_counter() - t) / 100

        index = {normalize(c.name): c for c in cards}
        t = time.perf_counter()
        for n in names:
            index.get(normalize(n))
        dict_s = time.perf_counter() - t
    print(f"cards: {len(cards)}; lookups: {len(names)} names, {len(sample)} passcodes")
    print(f"cold start, 75 names from a fresh pool: {cold_s * 1000:.1f} ms")
    print(f"find_name (uncached): {len(names) / name_s:,.0f} /s")
    print(f"get(passcode), cached after find_name: {len(sample) / get_s:,.0f} /s")
    print(f"dict of normalised names (baseline): {len(names) / dict_s:,.0f} /s  "
          f"-> store is {name_s / dict_s:.1f}x slower")
    print(f"first suggest() (builds the index): {suggest_first * 1000:.0f} ms -> {first}")
    print(f"later suggest(): {suggest_s * 1000:.1f} ms each")


if __name__ == "__main__":
    main()

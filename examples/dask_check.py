"""Check a folder of decks on a Dask cluster: the same `deckcheck.check()` as a local run.

    pip install 'deckcheck[cluster]'
    python examples/dask_check.py DECKS/ --format tcg --date 2026-06-01
    python examples/dask_check.py DECKS/ --scheduler tcp://scheduler:8786 --db /data/cards.sqlite

Without `--scheduler` a `LocalCluster` (one worker process per core) runs on this machine;
with it, the job goes to that cluster, whose workers need deckcheck installed and the card
database (`--db`, else each worker's own `DECKCHECK_DB`, else the built-in pool) at the same
path. The deck paths are split into partitions; a worker opens the card pool once and checks
each deck of a partition with `deckcheck.read_deck` + `deckcheck.check`, which keeps the
prepared format, list and rules between calls. Out comes one plain row per deck file, in
the order of the paths: `{"path", "verdict", "codes", "error"}` (`error` is the one sentence
of a deck that could not be read; `verdict` and `codes` are then None and []).
Prints one line per deck (`path: verdict CODES` or `path: error`) and a count of verdicts;
`docs/cluster.md` says how this scales to a million decks.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import deckcheck

if TYPE_CHECKING:
    from distributed import Client

Row = dict[str, Any]


@lru_cache(maxsize=4)
def _pool(db: str | None) -> deckcheck.CardPool:
    """One card pool per worker process (and database): `check()` then reuses its prepared
    checker from deck to deck."""
    return deckcheck.open_pool(db)


def check_paths(paths: Iterable[str], format: str = "tcg", date: str | None = None,
                db: str | None = None) -> list[Row]:
    """The row of each deck file: what a worker runs on its partition, and the local run."""
    pool = _pool(db)
    rows: list[Row] = []
    for path in paths:
        try:
            deck = deckcheck.read_deck(path, pool)
        except deckcheck.DeckReadError as exc:
            rows.append({"path": path, "verdict": None, "codes": [], "error": exc.message})
            continue
        report = deckcheck.check(deck, format=format, date=date, pool=pool)
        rows.append({"path": path, "verdict": report.verdict,
                     "codes": [v.code for v in report.violations], "error": None})
    return rows


def deck_files(folder: str | Path) -> list[str]:
    """The deck files under `folder` (every depth), by the suffixes deckcheck reads."""
    from deckcheck.decks.files import DECK_SUFFIXES

    return sorted(str(p) for p in Path(folder).rglob("*")
                  if p.suffix.lower() in DECK_SUFFIXES and p.is_file())


def check_on_dask(client: Client, paths: list[str], format: str = "tcg",
                  date: str | None = None, db: str | None = None,
                  partitions: int | None = None) -> list[Row]:
    """`check_paths` over `paths` in partitions on the cluster behind `client`; the rows in
    the order of `paths`. The date is fixed here (default today, on this machine) so every
    worker checks against the same list whatever its clock says."""
    import dask.bag

    from deckcheck.clock import today

    if __name__ != "__main__":  # imported: ship this module to the workers, which lack it
        client.upload_file(__file__)
    day = date or today().isoformat()
    workers = max(1, len(client.scheduler_info(n_workers=-1)["workers"]))
    bag = dask.bag.from_sequence(paths, npartitions=partitions or 4 * workers)
    rows: list[Row] = bag.map_partitions(check_paths, format=format, date=day,
                                         db=db).compute()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", help="a folder of deck files (searched at every depth)")
    parser.add_argument("--format", default="tcg")
    parser.add_argument("--date", help="the day of the list in force (default today)")
    parser.add_argument("--db", help="the card database on every worker (default: the "
                        "worker's own, else the built-in pool)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address (default: a "
                        "LocalCluster on this machine)")
    parser.add_argument("--partitions", type=int, help="default: 4 per worker")
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    paths = deck_files(args.folder)
    if args.scheduler:
        with Client(args.scheduler) as client:
            rows = check_on_dask(client, paths, args.format, args.date, args.db,
                                 args.partitions)
    else:
        with LocalCluster(threads_per_worker=1, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            rows = check_on_dask(client, paths, args.format, args.date, args.db,
                                 args.partitions)
    for row in rows:
        print(f"{row['path']}: {row['error'] or row['verdict']} {' '.join(row['codes'])}"
              .rstrip())
    counts = Counter(row["verdict"] or "unreadable" for row in rows)
    print(", ".join(f"{n} {what}" for what, n in sorted(counts.items())) or "no deck files")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Shared by the benchmark scripts: the real data folder, the card pools a user has after the
README's steps (the built-in pool of every card, and a store imported from every card source;
the store is imported once, cached in the system temp folder), and the real .ydk corpus."""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckcheck.cards.builtin import BuiltinPool

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
CARDS = SHARED / "cards"
CARDINFO = CARDS / "ygoprodeck-cardinfo.zip"
DECKS = SHARED / "decks"
#: the two pools a user has after the README's steps, as the benchmarks name them
POOLS = ("built-in", "every source")


def need_data() -> None:
    if not CARDINFO.is_file() or not DECKS.is_dir():
        sys.exit(f"needs the real data folder {SHARED} (absent here)")


def card_sources() -> list[Path]:
    """Every card source of the real data folder, as `deckcheck cards import` takes them: the
    YGOPRODeck dump, YAML Yugi, every EDOPro cdb and mappings.json, and YGOJSON v1."""
    files = [CARDINFO, CARDS / "yaml-yugi-cards.zip",
             *sorted((CARDS / "edopro").glob("*.cdb")), CARDS / "edopro" / "mappings.json",
             CARDS / "ygojson-v1.zip"]
    return [f for f in files if f.is_file()]


def _cache_key(files: list[Path]) -> str:
    """The data files (name, size) and the code that turns them into a store (the store
    schema and the importers' source), so that a store cached by another deckcheck is not
    measured."""
    from deckcheck.cards.store import SCHEMA

    h = hashlib.sha256(f"schema{SCHEMA}".encode())
    for f in files:
        h.update(f"{f.name}:{f.stat().st_size}".encode())
    pkg = ROOT / "deckcheck"
    # every module an import runs (names' keys, rule names, coverage and the schema too)
    for code in sorted([*(pkg / "sources").glob("*.py"), *(pkg / "imports").glob("*.py"),
                        *(pkg / "cards").glob("*.py")]):
        h.update(code.read_bytes())
    return h.hexdigest()[:12]


def full_store_path() -> Path:
    """A card store imported from every card source (`card_sources`), what a user has after
    the README's `cards update` and `cards import` steps: one merge of them all, done on first
    use, then reused from the system temp folder."""
    files = card_sources()
    path = Path(tempfile.gettempdir()) / f"deckcheck-bench-every-source-{_cache_key(files)}.sqlite"
    if not path.exists():
        from deckcheck.imports.run import import_sources
        from deckcheck.sources import read_source

        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        print(f"(importing every card source into {path} once: {len(files)} files)",
              file=sys.stderr)
        import_sources(tmp, [read_source(f) for f in files])
        _settle(tmp, path)
    return path


def store_path() -> Path:
    """A card store imported from the YGOPRODeck dump alone (imported on first use, then
    reused; one file per dump and importing code, as `full_store_path`: a store an older
    deckcheck wrote is not measured). Easier than what users have: the benchmarks of what
    users run take `full_store_path()` or the built-in pool instead."""
    path = Path(tempfile.gettempdir()) / f"deckcheck-bench-dump-{_cache_key([CARDINFO])}.sqlite"
    if not path.exists():
        from deckcheck.imports.update import update_ygoprodeck

        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        update_ygoprodeck(tmp, from_file=CARDINFO)
        _settle(tmp, path)
    return path


#: Stores of the same kind an older (or another) deckcheck cached, kept beside a new one: a
#: second checkout benchmarked meanwhile keeps its store; the others (90 MB each from every
#: source) are removed.
KEEP_OTHERS = 2


def _settle(tmp: Path, path: Path) -> None:
    """The store imported into `tmp` renamed to `path`; the lock file the import left beside
    `tmp` removed (one a cached store, else they pile up in the temp folder), and the stores
    of the same kind cached for other code, but the `KEEP_OTHERS` newest."""
    from deckcheck.imports.guard import lock_path

    os.replace(tmp, path)
    lock_path(tmp).unlink(missing_ok=True)
    prune(path)


def prune(path: Path, keep: int = KEEP_OTHERS) -> list[Path]:
    """Remove the cached stores of `path`'s kind (its name up to the key) other than `path`,
    but the `keep` most recently written; the removed, newest first."""
    kind = path.name.rsplit("-", 1)[0]
    others = []
    for p in path.parent.glob(f"{kind}-*.sqlite"):
        if p != path and p.name.rsplit("-", 1)[0] == kind:
            try:
                others.append((p.stat().st_mtime, p))
            except OSError:  # removed meanwhile
                continue
    removed = [p for _, p in sorted(others, reverse=True)[keep:]]
    for p in removed:
        p.unlink(missing_ok=True)
    return removed


def fresh_builtin_pool() -> BuiltinPool:
    """A new built-in pool (nothing looked up yet), as a fresh process has it: what
    `builtin_pool()` makes, without its cache, and no release-date cell remembered."""
    from deckcheck.cards.builtin import builtin_pool
    from deckcheck.cards.compact import forget_released

    forget_released()
    return builtin_pool.__wrapped__()


def builtin_env(tmp: str | os.PathLike[str]) -> dict[str, str]:
    """The environment of a user who has imported nothing: DECKCHECK_DB names no file, and
    HOME and the XDG folders are empty folders under `tmp`."""
    home = Path(tmp) / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "DECKCHECK_"))}
    env.update(HOME=str(home), DECKCHECK_DB=str(Path(tmp) / "no-store.sqlite"))
    return env


def ydk_files() -> list[Path]:
    return sorted(DECKS.rglob("*.ydk"))

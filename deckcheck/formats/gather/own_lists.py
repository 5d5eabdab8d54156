"""deckcheck's own lists: `.toml` files as `banlists/` holds them (`native`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from deckcheck.formats import native
from deckcheck.formats.gather.gathered import OWN, Gathered
from deckcheck.formats.verify import check_format_id


def is_list_file(path: Path) -> bool:
    return path.suffix == ".toml" and path.name != "format.toml"


def gather(paths: Iterable[Path], found: Gathered) -> None:
    """Each file's list; a `format` that is no format id refuses the import."""
    for p in paths:
        bl = native.parse_list(p.read_text(encoding="utf-8"), p)
        check_format_id(bl.format, str(p))
        found.add((OWN, str(p)), bl, p)

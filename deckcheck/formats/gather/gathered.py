"""What gathering lists from their sources collects, shared by every list source's module."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckcheck.errors import FormatError
from deckcheck.formats import conflicts
from deckcheck.formats.model import Banlist

#: A dated Konami-id list file: `<YYYY-MM-DD>.vector.json` (by Konami id), `.name.json` (by
#: card name) or `.raw.json` (Genesys points as scraped).
DATE_STEM = re.compile(r"^(\d{4}-\d{2}-\d{2})\.(vector|name|raw)\.json$")

#: Precedence ranks, for one format and day: the later wins (`Gathered.ordered`).
EDOPRO, KONAMI, OWN, YGOPRODECK = 0, 1, 2, 3


@dataclass
class Gathered:
    """The lists read from every source with their precedence rank, what was skipped and
    why, and what the sources said about ids and days."""

    lists: list[tuple[tuple[int, str], Banlist]] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)
    #: EDOPro-only id -> the official passcode it stands for (from .cdb `datas.alias`)
    aliases: dict[int, int] = field(default_factory=dict)
    #: the aliases some list used: id -> (official passcode, the name the list gave it)
    used: dict[int, tuple[int, str | None]] = field(default_factory=dict)
    #: Konami lists given another day than Konami's (`days`), for CONFLICTS.md
    moved: list[conflicts.Moved] = field(default_factory=list)
    #: the file each list was read from, by the list's `id()` (for refusals to name it)
    files: dict[int, Path] = field(default_factory=dict)

    def add(self, rank: tuple[int, str], bl: Banlist, path: Path) -> None:
        self.lists.append((rank, bl))
        self.files[id(bl)] = path

    def skip(self, group: str, why: str) -> None:
        reasons = self.skipped.setdefault(group, [])
        if why not in reasons:  # a file read for two formats is reported once
            reasons.append(why)

    def ordered(self) -> list[Banlist]:
        """Every list in precedence order (later wins)."""
        return [bl for _, bl in sorted(self.lists, key=lambda t: t[0])]

    def file_of(self, bl: Banlist) -> Path | None:
        return self.files.get(id(bl))


def read_json(path: Path) -> Any:
    """The JSON in `path`, or FormatError saying it is none."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise FormatError(f"{path}: not valid JSON; fix or remove it.") from None

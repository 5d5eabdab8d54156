"""`ARCHITECTURE.md` stays a map: short (issue 23: at most 8 KB) and current — every module,
folder and benchmark it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "ARCHITECTURE.md"


def named_paths(text: str) -> set[str]:
    """The file and folder paths in backticks (`cards/model.py`, `sim/goldfish/`,
    `bench_check.py`), each without what follows a space or a parenthesis."""
    out = set()
    prose = re.sub(r"```.*?```", "", text, flags=re.S)  # the layers picture
    for quoted in re.findall(r"`([^`]+)`", prose):
        path = re.split(r"[ (:]", quoted, maxsplit=1)[0]
        if re.fullmatch(r"[\w./-]+(\.py|\.md|/)", path) and not path.startswith("."):
            out.add(path)
    return out


def exists(path: str) -> bool:
    bases = (ROOT, ROOT / "deckcheck", ROOT / "benchmarks")
    return any((base / path).exists() for base in bases)


def test_the_map_is_at_most_8_kb() -> None:
    assert MAP.stat().st_size <= 8 * 1024


def test_every_path_the_map_names_exists() -> None:
    text = MAP.read_text(encoding="utf-8")
    paths = named_paths(text)
    assert len(paths) > 30  # the map names the layout, not nothing
    missing = sorted(p for p in paths if not exists(p) and "<" not in p)
    assert missing == []


def test_a_missing_path_is_found() -> None:
    assert not exists("cards/merge.py")  # moved to imports/ in issue 23
    assert "cards/merge.py" in named_paths("see `cards/merge.py` (old)")

"""Issue 23 point 2: a name means one thing. No public class of `deckcheck.formats` shares
its name with a class elsewhere in deckcheck (formats/conflicts.py had a `Found` beside the
rules' `Found`)."""

from __future__ import annotations

import ast
from pathlib import Path

import deckcheck

PACKAGE = Path(deckcheck.__file__).parent


def _classes(paths: list[Path]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                out.setdefault(node.name, []).append(str(path.relative_to(PACKAGE)))
    return out


def test_no_formats_class_name_is_used_for_another_class() -> None:
    formats = sorted((PACKAGE / "formats").rglob("*.py"))
    others = sorted(p for p in PACKAGE.rglob("*.py") if p not in set(formats))
    mine, theirs = _classes(formats), _classes(others)
    assert {n: (w, theirs[n]) for n, w in mine.items() if n in theirs} == {}
    assert {n: w for n, w in mine.items() if len(w) > 1} == {}

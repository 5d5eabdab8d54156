"""Imports in `deckcheck/` go down only: a walk over every module's imports (run-time ones,
including those inside functions; `if TYPE_CHECKING:` blocks left out) finds no circle.

The last circle (`cards` <-> `sources`: the store was both the read-only pool and the import
writer) went with the import layer (`deckcheck.imports`, issue 23); none may come back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import deckcheck

PACKAGE = Path(deckcheck.__file__).parent

def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(("deckcheck", *parts))] = path
    return out


def _type_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                skip.update(id(n) for n in ast.walk(stmt))
    return skip


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The `deckcheck` modules `name` imports at run time (a `from x import y` counts `x.y`
    when that is a module, else `x`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    skip = _type_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.add(sub if sub in modules else module)
    out = set()
    for module in found:
        while module not in modules and "." in module:
            module = module.rsplit(".", 1)[0]
        if module in modules and module != name:
            out.add(module)
    return out


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.add(frozenset(group))
    return found


def _short(group: frozenset[str]) -> frozenset[str]:
    return frozenset(m.removeprefix("deckcheck.") for m in group)


def test_the_walk_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == {frozenset({"a", "b", "c"})}
    assert circles({"a": {"b"}, "b": set()}) == set()


def test_no_import_circle() -> None:
    modules = _modules()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    found = sorted(sorted(_short(g)) for g in circles(graph))
    assert not found, f"import circle(s): {found}; imports go down only"


def test_sources_only_parse() -> None:
    """`sources/` never imports the import layer, and `cards/` (the model and the read-only
    pool) neither: the import layer sits above both."""
    modules = _modules()
    for name, path in modules.items():
        if name.startswith(("deckcheck.sources", "deckcheck.cards")) \
                and name != "deckcheck.cards.build_builtin":  # a build tool run as a script
            up = {m for m in imports_of(name, path, modules) if m.startswith("deckcheck.imports")}
            assert not up, f"{name} imports {sorted(up)} (the import layer is above it)"

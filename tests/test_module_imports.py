"""No import cycle among fem2d's modules: a user script or a benchmark that starts
with ``from fem2d.case.exact_models import ...`` must not meet a circular import
that the package's usual import order hides. The module-level imports are read
from the source (those under ``if TYPE_CHECKING:`` and inside functions are not
executed at import time); a cycle among them is a strongly connected component
of more than one module."""

from __future__ import annotations

import ast
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import fem2d


def _modules() -> dict[str, Path]:
    found = {"fem2d": Path(fem2d.__file__)}
    for info in pkgutil.walk_packages(fem2d.__path__, "fem2d."):
        found[info.name] = Path(importlib.util.find_spec(info.name).origin)
    return found


def _module_level_imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                test = node.test
                if getattr(test, "id", getattr(test, "attr", None)) != "TYPE_CHECKING":
                    visit(node.body)
                    visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.finalbody)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts) + (f".{node.module}" if node.module else "")
                for alias in node.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)

    visit(ast.parse(path.read_text()).body)
    return {m for m in found if m in known and m != name}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            connect(v)
    return found


def test_no_import_cycle_between_modules():
    known = _modules()
    assert "fem2d.case.exact_models" in known
    graph = {name: _module_level_imports(name, path, known) for name, path in known.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_module_once_part_of_a_cycle_imports_first():
    code = "from fem2d.case.exact_models import sliding_block; print(callable(sliding_block))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "True", proc.stderr[-2000:]

"""The package's module-level imports form no circle, type-only imports included.

A circle makes import order matter and hides which module a type belongs to (issue 24: settings
named the model only for type checkers, while the model imports settings). Imports inside
functions are left out: they run when the function is called, not while modules load (the
commands' deferred imports).
Read with ast, so nothing is imported or timed.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "ddl_catalog"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / PACKAGE).rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports that run when the module loads: at the top, or in a top-level if or try block."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            pending.extend([*node.body, *node.orelse])
        elif isinstance(node, ast.Try):
            pending.extend([*node.body, *node.orelse, *node.finalbody])
            for handler in node.handlers:
                pending.extend(handler.body)
    return found


def _targets(node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> set[str]:
    names: set[str] = set()
    if isinstance(node, ast.Import):
        names.update(alias.name for alias in node.names)
    elif node.level == 0 and node.module:
        names.add(node.module)
        # `from package import module` imports that module too
        names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        edges: set[str] = set()
        for node in _top_level_imports(tree):
            for target in _targets(node, modules):
                # Importing a.b.c runs a.b's __init__ first (unless it is one of ours, loading).
                parts = target.split(".")
                for end in range(2, len(parts) + 1):
                    step = ".".join(parts[:end])
                    if step != name and not name.startswith(step + "."):
                        edges.add(step)
        graph[name] = edges
    return graph


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one circle of the graph as [a, b, ..., a], or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path, on_path = [start], {start}
        stack: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
                continue
            nxt = todo.pop()
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                stack.append((nxt, sorted(graph[nxt])))
                path.append(nxt)
                on_path.add(nxt)
    return None


def test_module_level_imports_form_no_circle() -> None:
    circle = _circle(_graph())
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_settings_does_not_import_the_model() -> None:
    # The model holds the settings it was built with; settings must not know the model.
    assert not {m for m in _graph()["ddl_catalog.settings"] if m.startswith("ddl_catalog.model")}

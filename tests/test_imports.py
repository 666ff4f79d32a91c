"""No import circle in ``src/``, at run time or for types: the modules' imports (at the top,
inside functions, and under ``if TYPE_CHECKING:``) make a graph without a cycle, so a reader can
tell which way each package flows (the Ray runner imports the runner's jobs, not back; the bot
workers compute :mod:`rulebook.web.bot_moves`, which imports neither; Pandoria's encoder and
its fast path share :mod:`rulebook.pandoria_merchants.scales`; each game's State has a module of
its own below its sections)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in SRC.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_time_imports(name: str, types: bool = False) -> set[str]:
    """The project's modules ``name`` imports when it runs (anywhere in it); with ``types``,
    those it imports for type checking only as well."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child) and not types:
                for other in child.orelse:
                    visit(other)
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    base = ".".join([*parts, *([child.module] if child.module else [])])
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in MODULES else base)
            else:
                visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in MODULES and m != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
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

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_the_walk_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back_at_run_time() -> None:
    graph = {name: run_time_imports(name) for name in MODULES}
    assert "rulebook.lab.jobs" in graph["rulebook.lab.ray_runner"]  # the walk sees imports
    assert circles(graph) == []


def test_no_circle_of_types_either() -> None:
    """Counting the imports for type checking too: each game's State has a module of its own
    that imports no section, the sections import it, and ``rules.py`` (the sheet engine's
    ``engine.py``) imports both; core's modules import only those below them."""
    graph = {name: run_time_imports(name, types=True) for name in MODULES}
    assert "rulebook.archmagi.state" in graph["rulebook.archmagi.monsters"]
    assert circles(graph) == []

"""The layers of docs/architecture.md, held against the code's own imports.

Every module of ``simulator/``, ``strategies/`` and ``experiments/`` belongs to one layer;
an import from a lower layer to a higher one "runs back up".  Read from the source with
``ast`` (imports inside functions count too; those under ``if TYPE_CHECKING`` do not, as
they never run).  ``python tests/test_architecture.py`` prints the measures.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simulator", "strategies", "experiments")

#: layer of each module prefix, lowest first (the longest matching prefix decides)
LAYERS = {
    "simulator.errors": 0,
    "simulator.engine": 1,
    # what a game is written against: the strategy decorator and its checks, the table's console
    "strategies.params": 2,
    "strategies.registry": 2,
    "strategies.checks": 2,
    "simulator.tabletop.console": 2,
    "simulator.tabletop.outcome": 2,
    "simulator.tabletop.passing": 2,
    "simulator.games": 3,
    "strategies": 4,  # the package: imports every game's shipped strategies
    "simulator.kernels": 5,
    "simulator.running": 6,
    "simulator.api": 7,
    "simulator.tabletop": 7,
    "simulator.reporting": 8,
    "simulator.analysis": 9,
    "experiments": 10,
    "simulator.cli": 11,
    "simulator.moved": 12,
    "simulator": 12,  # the package's face: names everything, lazily
}
MAX_BACK_UP = 5
MAX_TOP_MODULES = 6
MAX_LINES = 400
#: Modules still over MAX_LINES, each with the reason.  The test fails on any other module
#: over the limit, and on any of these once it is under it (then drop it from here).
STILL_LONG: dict[str, str] = {}


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def layer(name: str) -> int:
    best = max((p for p in LAYERS if name == p or name.startswith(p + ".")), key=len)
    return LAYERS[best]


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """module -> the modules of the project it imports."""
    out: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_lines(tree)
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from pkg import submodule`` depends on the submodule; ``from pkg import name``
                # on the package
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in mods]
                targets = subs + ([node.module] if len(subs) < len(node.names) else [])
            for t in targets:
                if t in mods and t != name:
                    out[name].add(t)
    return out


def back_up(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, targets in graph.items() for b in targets if layer(b) > layer(a))


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def package_of(name: str) -> str:
    """A module's package (a package's ``__init__`` belongs to the package it names)."""
    return name if (ROOT / name.replace(".", "/")).is_dir() else name.rpartition(".")[0]


def test_no_import_circle_between_modules():
    assert circles(imports(modules())) == []


def _top_level_imports(path: Path) -> set[str]:
    """What a module imports when it is imported (not inside a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_every_import_that_runs_back_up_waits_until_it_is_needed():
    # an upward import inside the function that needs it: no layer imports one above it
    # when it is itself imported, so the layers load bottom up
    mods = modules()
    eager = [(a, b) for a, b in back_up(imports(mods)) if b in _top_level_imports(mods[a])]
    assert eager == [], eager


def test_few_imports_run_back_up():
    up = back_up(imports(modules()))
    assert len(up) <= MAX_BACK_UP, "\n".join(f"{a} -> {b}" for a, b in up)


def test_every_module_has_a_layer():
    assert all(layer(name) >= 0 for name in modules())


def test_few_modules_sit_directly_in_the_package():
    top = sorted(p.name for p in (ROOT / "simulator").glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def test_every_layer_folder_says_what_it_holds_and_may_import():
    for folder in sorted(p for p in (ROOT / "simulator").iterdir() if (p / "__init__.py").is_file()):
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "import" in doc.lower(), f"{folder.name}/__init__.py: say what it holds and imports"


def test_no_module_is_over_400_lines():
    long = {
        path.relative_to(ROOT).as_posix(): n
        for path in modules().values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert set(long) == set(STILL_LONG), long


if __name__ == "__main__":
    mods = modules()
    graph = imports(mods)
    up = back_up(graph)
    print(f"modules {len(mods)}, imports {sum(map(len, graph.values()))}, layers {len(set(LAYERS.values()))}")
    print(f"circles {len(circles(graph))}: {circles(graph)}")
    print(f"back up {len(up)}:")
    for a, b in up:
        print(f"  {a} -> {b}")
    sizes = sorted((len(p.read_text().splitlines()), str(p.relative_to(ROOT))) for p in mods.values())
    print("over 400:", [s for s in sizes if s[0] > MAX_LINES])

"""Lower layers never import higher ones (DEVELOPERS.md): every import statement in src/benger, deferred ones
included, and what importing each package really loads.

A package may import packages of its own rank or lower, never higher. The order follows the imports the code
needs: ``judge`` (rubrics, prompts, grade tables, reply parsing) sits below ``corpora`` and ``pipeline``,
because the released corpus carries grades and the pipeline renders the judge's prompts; ``store`` sits below
every domain package.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Collection
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "benger"

RANK: dict[str, int] = {
    "errors": 0,
    "registry": 0,
    "schema": 0,
    "text": 0,
    "config": 0,
    "_claim_ids": 0,
    "_yaml": 0,
    "_console": 0,
    "outputs": 0,
    "spreadsheet": 0,
    "store": 1,
    "llm": 2,
    "judge": 3,
    "corpora": 4,
    "pipeline": 5,
    "metrics": 6,
    "gutachten": 6,
    "stats": 7,
    "analysis": 8,
    "report": 8,
    "study": 9,
    "web": 9,
    "workers": 9,
    "testing": 9,
    "interop": 9,
    "cli": 9,
}

#: (importing module, imported package) -> why it is still allowed. Each entry is a known debt; the test
#: fails when a listed import disappears (so the list shrinks) or an unlisted upward import appears.
KNOWN_UPWARD: dict[tuple[str, str], str] = {
    ("benger.store._import", "corpora"): "Store.import_release(path) loads the release folder itself",
    ("benger.store.migrations.env", "study"): "alembic's metadata includes the human-study tables",
}

#: Packages with no upward import at all, not even a listed debt: the pipeline runs the model calls and
#: never computes results (issue 17: its callers build the leaderboard after the run).
NO_DEBT: frozenset[str] = frozenset({"llm", "judge", "corpora", "pipeline"})


def module_name(path: Path, src: Path = SRC) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_modules(path: Path, src: Path = SRC, submodules: Collection[str] = ()) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``path`` that runs (``if TYPE_CHECKING:`` blocks left out).

    ``from pkg import name`` gives ``pkg``, or ``pkg.name`` when that is one of ``submodules``."""
    module = module_name(path, src)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for other in node.orelse:
                visit(other)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.level or node.module):
            if node.level:
                source = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
            else:
                source = str(node.module)
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                found.append((node.lineno, sub if sub in submodules else source))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return found


def package_of(module: str) -> str | None:
    """The layer package of ``benger.x.y`` (``x``); None for modules outside benger or ``benger`` itself."""
    parts = module.split(".")
    if parts[0] != "benger" or len(parts) < 2:
        return None
    return parts[1]


def _upward_imports(src: Path = SRC) -> dict[tuple[str, str], str]:
    found: dict[tuple[str, str], str] = {}
    for path in sorted(src.rglob("*.py")):
        module = module_name(path, src)
        own = package_of(module)
        if own is None:  # benger/__init__.py: the top-level convenience imports sit above everything
            continue
        for line, target in imported_modules(path, src):
            other = package_of(target)
            if other is not None and other != own and RANK[other] > RANK[own]:
                found[(module, other)] = f"{path.relative_to(src.parent)}:{line} imports {target}"
    return found


def test_every_package_has_a_rank() -> None:
    packages = {p.stem if p.is_file() else p.name for p in SRC.iterdir() if p.suffix == ".py" or p.is_dir()}
    packages -= {"__init__", "__pycache__"}
    assert packages - RANK.keys() == set(), "a new package needs its place in tests/layers/_layers.py RANK"


def test_no_import_of_a_higher_layer() -> None:
    upward = _upward_imports()
    new = {key: where for key, where in upward.items() if key not in KNOWN_UPWARD}
    assert new == {}, "imports of a higher layer:\n" + "\n".join(sorted(new.values()))
    gone = KNOWN_UPWARD.keys() - upward.keys()
    assert gone == set(), f"no longer imported, remove from KNOWN_UPWARD: {sorted(gone)}"


def test_packages_without_debt_list_no_upward_import() -> None:
    listed = sorted(key for key in KNOWN_UPWARD if package_of(key[0]) in NO_DEBT)
    assert listed == [], f"{sorted(NO_DEBT)} may not import a higher layer, not even as a known debt"


def test_a_deferred_pipeline_import_of_analysis_is_found(tmp_path: Path) -> None:
    """What ``_orchestrate`` did before issue 17: a function-level import of the leaderboard."""
    source = "def run():\n    from benger.analysis import leaderboard_from_store\n"
    for name, text in {"benger/pipeline/_orchestrate.py": source, "benger/analysis/__init__.py": ""}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert _upward_imports(tmp_path / "benger") == {
        ("benger.pipeline._orchestrate", "analysis"): "benger/pipeline/_orchestrate.py:2 imports benger.analysis"
    }


def _fake_tree(tmp_path: Path, files: dict[str, str]) -> list[tuple[int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return imported_modules(tmp_path / "benger" / "store" / "_x.py", tmp_path / "benger")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from benger.pipeline import run\n", [(1, "benger.pipeline")]),
        ("def f():\n    from benger.workers import X\n", [(2, "benger.workers")]),  # deferred
        ("from ..analysis import _data\n", [(1, "benger.analysis")]),  # relative
        ("from . import _y\n", [(1, "benger.store")]),
        ("import benger.web._app as w\n", [(1, "benger.web._app")]),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from benger.cli import app\n", [(1, "typing")]),
    ],
)
def test_import_finder(tmp_path: Path, source: str, expected: list[tuple[int, str]]) -> None:
    assert _fake_tree(tmp_path, {"benger/store/_x.py": source}) == expected


def test_importing_a_package_loads_no_higher_layer() -> None:
    """One fresh interpreter imports the packages lowest rank first; after each, no module of a higher rank
    may be loaded (a lower package imported earlier would have been caught at its own step). The top-level
    ``benger`` package is replaced by an empty shell so that its public-API re-exports do not hide anything."""
    order = sorted(RANK, key=lambda name: RANK[name])
    script = textwrap.dedent(
        f"""
        import importlib, sys, types
        shell = types.ModuleType("benger")  # the packages alone: benger/__init__.py re-exports the public API
        shell.__path__ = [{str(SRC)!r}]
        shell.__version__ = "shell"  # modules that stamp the version read it from the package
        sys.modules["benger"] = shell
        rank = {RANK!r}
        for name in {order!r}:
            importlib.import_module("benger." + name)
            loaded = {{m.split(".")[1] for m in sys.modules if m.startswith("benger.")}}
            higher = sorted(p for p in loaded if p in rank and rank[p] > rank[name])
            if higher:
                print(f"importing benger.{{name}} loaded {{higher}}")
                sys.exit(1)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


#: Import cycles between modules still tolerated, by package (every module of such a cycle lies in it, the
#: top-level ``benger`` package aside), with the reason. Any other cycle fails the test.
KNOWN_CYCLES: dict[str, str] = {}


def module_graph(src: Path = SRC) -> dict[str, set[str]]:
    """module -> the benger modules it imports (``from pkg import sub`` counts as the submodule ``pkg.sub``)."""
    paths = {module_name(p, src): p for p in src.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        targets = {target for _, target in imported_modules(path, src, paths.keys())}
        graph[module] = {t for t in targets if t in paths and t != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_cycle_finder() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": set()}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert cycles({"x": {"y"}, "y": set()}) == []


def test_no_import_cycles_outside_the_known_ones() -> None:
    graph = module_graph()
    for module, targets in graph.items():  # cycles through a known upward import are that import's debt
        graph[module] = {t for t in targets if (module, package_of(t)) not in KNOWN_UPWARD}
    unexpected, tolerated = [], set()
    for component in cycles(graph):
        packages = {".".join(m.split(".")[:2]) for m in component if m != "benger"}
        if len(packages) == 1 and packages <= KNOWN_CYCLES.keys():
            tolerated |= packages
        else:
            unexpected.append(sorted(component))
    assert unexpected == [], f"import cycles (move the shared piece down a layer): {unexpected}"
    assert tolerated == KNOWN_CYCLES.keys(), f"no cycle left in {KNOWN_CYCLES.keys() - tolerated}: remove it"

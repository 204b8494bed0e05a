"""litellm is imported in one module, ``benger.llm._litellm``: first by its ``_litellm()``, which sets
``LITELLM_LOCAL_MODEL_COST_MAP`` first; at import litellm otherwise fetches its model price map from the network
(a warning in the suite's output, and seconds lost on a machine without network).

Before: ``tests/llm/test_litellm_provider.py`` checked for the extra with ``pytest.importorskip("litellm")`` at
collection, an import of litellm before benger's and without the variable. The check now finds the package
without importing it (``litellm_installed``), and every import of litellm in ``src`` and ``tests`` is counted
here: only that module's functions may.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benger.llm._litellm import litellm_installed

ROOT = Path(__file__).resolve().parents[2]
ONE_PLACE = "src/benger/llm/_litellm.py"  # its ``_litellm()`` imports it first; its other functions only after


def _imports_of_litellm(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, function or "<module>") of every import of litellm in ``tree``: ``import litellm[.x]``, ``from
    litellm[.x] import ...``, ``importorskip("litellm")``, ``import_module("litellm")``, ``__import__("litellm")``."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else where
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                names = [child.module or ""]
            elif isinstance(child, ast.Call) and child.args and isinstance(child.args[0], ast.Constant):
                func = child.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in ("importorskip", "import_module", "__import__"):
                    names = [str(child.args[0].value)]
            if any(name == "litellm" or name.startswith("litellm.") for name in names):
                found.append((child.lineno, where))
            visit(child, inner)

    visit(tree, "<module>")
    return found


def test_litellm_is_imported_only_by_benger_s_one_function() -> None:
    places = []
    for folder in ("src", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            for line, where in _imports_of_litellm(ast.parse(path.read_text(encoding="utf-8"))):
                places.append((relative, where, line))
    assert places and {path for path, _, _ in places} == {ONE_PLACE}, places
    assert "<module>" not in {where for _, where, _ in places}, places  # never at import time


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import litellm", [(1, "<module>")]),
        ("import litellm.utils as u", [(1, "<module>")]),
        ("from litellm import acompletion", [(1, "<module>")]),
        ("import pytest\npytest.importorskip('litellm', reason='x')", [(2, "<module>")]),
        ("def f():\n    import importlib\n    return importlib.import_module('litellm')", [(3, "f")]),
        ("async def g():\n    from litellm.types import X", [(2, "g")]),
        ("import litellmx\nfrom benger.llm._litellm import _litellm", []),
    ],
)  # fmt: skip
def test_every_form_of_import_is_counted(source: str, found: list[tuple[int, str]]) -> None:
    assert _imports_of_litellm(ast.parse(source)) == found


@pytest.mark.skipif(not litellm_installed(), reason="the litellm extra (pip install 'benger[litellm]')")
def test_benger_s_import_of_litellm_opens_no_connection() -> None:
    """A fresh interpreter without the variable: ``_litellm()`` resolves no host name and connects nowhere."""
    script = (
        "import sys\n"
        "seen = []\n"
        "sys.addaudithook(lambda event, args: seen.append((event, args)) "
        "if event in ('socket.connect', 'socket.getaddrinfo') else None)\n"
        "from benger.llm._litellm import _litellm\n"
        "_litellm()\n"
        "import os\n"
        "print(os.environ.get('LITELLM_LOCAL_MODEL_COST_MAP'), len(seen), seen[:3])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    env["PYTHONPATH"] = str(ROOT / "src")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["True", "0"], done.stdout
    assert "cost map" not in done.stderr.lower() and "model_prices" not in done.stderr, done.stderr

"""The core install carries only what the code imports (issue 26, install weight): every distribution in
pyproject's ``[project] dependencies`` is imported by some module of src/benger (statsmodels once was a core
dependency that nothing imported). Import names come from the installed distributions' top-level modules."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import distribution
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def core_distributions() -> set[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {_normal(Requirement(line).name) for line in project["dependencies"]}


def imported_modules(root: Path) -> set[str]:
    """Top-level names of every import in the package, deferred ones (inside functions) included."""
    found: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def top_level_modules(dist: str) -> set[str]:
    """The importable top-level names an installed distribution provides (its packages and modules)."""
    names = set()
    for file in distribution(dist).files or ():
        first = file.parts[0]
        if len(file.parts) == 1 and first.endswith(".py"):
            names.add(first.removesuffix(".py"))
        elif len(file.parts) > 1 and not first.endswith((".dist-info", ".data")) and first != "__pycache__":
            names.add(first)
    return names


def test_parsing_on_a_sample(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import yaml\nfrom os import path\n\ndef f():\n    from sqlalchemy.orm import x\n")
    (tmp_path / "b.py").write_text("from . import a\nimport numpy.linalg as la\n")
    assert imported_modules(tmp_path) == {"yaml", "os", "sqlalchemy", "numpy"}
    assert "yaml" in top_level_modules("pyyaml") and "numpy" in top_level_modules("numpy")


def test_every_core_dependency_is_imported_by_the_code() -> None:
    core = core_distributions()
    assert "pydantic" in core
    imported = imported_modules(REPO / "src" / "benger")
    unused = sorted(dist for dist in core if not top_level_modules(dist) & imported)
    assert unused == [], "core dependencies that src/benger never imports (move them to an extra)"

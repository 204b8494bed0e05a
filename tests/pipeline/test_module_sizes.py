"""Modules stay under 400 lines (the project's standard): every module of benger, one case per module, so a module
that grows past the limit is named (``pipeline/_config.py`` had 430 lines before it became the package
``pipeline/_config``: its model, its file reading, a ``--model``'s entry; ``cli/_web.py`` 418 before the account
commands and the study group's shared helpers got modules of their own; ``web/_i18n.py`` 463 before the server
messages' English did)."""

from __future__ import annotations

from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "benger"
LIMIT = 400
MODULES = sorted(SRC.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(SRC)) for p in MODULES])
def test_a_module_has_fewer_than_400_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines < LIMIT, f"{path.relative_to(SRC)} has {lines} lines: split it into cohesive modules"


def test_the_run_config_keeps_its_public_imports() -> None:
    from benger.pipeline import _config

    names = ("BudgetCaps", "Filters", "LeaderboardOptions", "RetrySettings", "RunConfig", "SystemSpec",
             "dump_run_config", "load_run_config", "model_spec", "parse_run_config", "validated_system")  # fmt: skip
    assert all(hasattr(_config, name) for name in names)

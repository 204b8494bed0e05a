"""Fixtures of the fuzz suite (a store with the demo corpora) and the tally printed at the end of the run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ._fuzz import TALLY, invoke


@pytest.fixture(scope="session")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz-base") / "base.db"
    result = invoke(["import", "demo", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TALLY:
        parts = ", ".join(f"{TALLY[k]} {k}" for k in ("clear", "traceback", "accepted", "unclear"))
        extra = f"; {TALLY['stores changed']} stores changed by a refused input"
        extra += f"; {TALLY['still valid']} mutations left the input valid" if TALLY["still valid"] else ""
        if TALLY["gutachten texts"]:
            extra += f"; {TALLY['gutachten texts']} generated Gutachten texts read as decided"
        terminalreporter.write_line(f"fuzz: {TALLY['bad inputs']} bad inputs: {parts}{extra}")

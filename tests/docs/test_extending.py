"""docs/extending.md cannot drift: every ```python block of the page runs, each in a fresh interpreter inside an
empty temporary folder, with ``BENGER_DB`` pointing at a temporary SQLite store."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "extending.md"
FENCE = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def python_blocks(markdown: str) -> list[tuple[int, str]]:
    """(first line number, code) of each ```python block."""
    return [(markdown.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in FENCE.finditer(markdown)]


def _heading_before(markdown: str, line: int) -> str:
    headings = [
        h for h in re.finditer(r"^## (.+)$", markdown, re.MULTILINE) if markdown.count("\n", 0, h.start()) < line
    ]
    return headings[-1].group(1) if headings else "top"


TEXT = PAGE.read_text(encoding="utf-8")
BLOCKS = python_blocks(TEXT)


def test_the_page_has_an_example_for_each_kind() -> None:
    sections = {_heading_before(TEXT, line) for line, _ in BLOCKS}
    assert sections == {"A metric", "A provider", "A statistic", "A rubric", "A corpus reader", "A prompt set"}


PRIVATE = re.compile(r"^\s*(?:from|import)\s+benger(?:\.\w+)*\._\w+", re.MULTILINE)


def test_the_examples_import_public_names_only() -> None:
    private = [(line, m.group().strip()) for line, code in BLOCKS for m in PRIVATE.finditer(code)]
    assert private == []
    assert PRIVATE.search("from benger.llm._base import X") and not PRIVATE.search("from benger.llm import X")


def test_each_registry_of_the_table_is_the_kind_benger_extensions_lists() -> None:
    from benger.analysis.results import STATISTICS
    from benger.cli._extensions import all_registries
    from benger.corpora import CORPUS_READERS
    from benger.judge import RUBRICS
    from benger.llm import PROVIDERS_REGISTRY
    from benger.metrics import METRICS

    kinds = all_registries()
    assert list(kinds.values()) == [METRICS, PROVIDERS_REGISTRY, STATISTICS, RUBRICS, CORPUS_READERS]
    for registry in kinds.values():
        assert f"`{registry.group}`" in TEXT


def test_block_extraction() -> None:
    page = "# t\n\n```python\nx = 1\n```\n\n```toml\n[a]\n```\n\n```python\ny = 2\nz = 3\n```\n"
    assert python_blocks(page) == [(4, "x = 1\n"), (12, "y = 2\nz = 3\n")]


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"{_heading_before(TEXT, n)}-line{n}" for n, _ in BLOCKS])
def test_example_runs(line: int, code: str, tmp_path: Path) -> None:
    env = {**os.environ, "BENGER_DB": str(tmp_path / "store.db")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"docs/extending.md block at line {line} failed:\n{done.stdout}\n{done.stderr}"

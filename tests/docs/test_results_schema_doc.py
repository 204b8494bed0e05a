"""docs/results-schema.md cannot drift: it is the text generated from the registered statistics and their models."""

from __future__ import annotations

from pathlib import Path

from benger.analysis.results import all_statistics
from benger.analysis.results.docs import PAGE, main, render_schema, type_name


def test_committed_page_equals_the_generated_text() -> None:
    assert Path(__file__).resolve().parents[2] / "docs" / "results-schema.md" == PAGE
    assert PAGE.read_text(encoding="utf-8") == render_schema(), "run: python -m benger.analysis.results.docs"


def test_every_statistic_has_a_section() -> None:
    text = render_schema()
    for defn in all_statistics():
        assert f"### `{defn.path}`" in text
        assert f"`{defn.model.__name__}`" in text


def test_check_flag(tmp_path: Path) -> None:
    page = tmp_path / "schema.md"
    assert main(["--check", "--out", str(page)]) == 1  # missing
    assert main(["--out", str(page)]) == 0
    assert main(["--check", "--out", str(page)]) == 0
    page.write_text(page.read_text(encoding="utf-8") + "edited by hand\n", encoding="utf-8")
    assert main(["--check", "--out", str(page)]) == 1


def test_type_names() -> None:
    assert type_name(dict[str, float | None]) == "dict[str, float | null]"
    assert type_name(list[int]) == "list[int]"

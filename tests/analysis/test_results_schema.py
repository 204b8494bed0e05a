"""results.json is typed (issue 14): compute_all's output validates against the models, and every block carries
``method`` and ``inputs`` - on hand-made data and on the release."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from tests.analysis.test_study_data import _synthetic

from benger.analysis import StudyData, compute_all
from benger.analysis.results import Block, Results, all_statistics, validate_results, value_at


def _typed_blocks(node: Any, path: str = "") -> list[tuple[str, Block]]:
    """Every Block instance of a validated Results, with its path."""
    found: list[tuple[str, Block]] = []
    if isinstance(node, Block):
        found.append((path, node))
    if isinstance(node, BaseModel):
        items = {**{k: getattr(node, k) for k in type(node).model_fields}, **(node.model_extra or {})}
    elif isinstance(node, dict):
        items = node
    elif isinstance(node, list):
        items = {str(i): v for i, v in enumerate(node)}
    else:
        return found
    for key, value in items.items():
        found.extend(_typed_blocks(value, f"{path}.{key}" if path else key))
    return found


def _dicts_with_method(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every dict of the plain JSON that has a ``method`` key (what a reader calls a block)."""
    found = []
    if isinstance(node, dict):
        if "method" in node and isinstance(node["method"], str):
            found.append((path, node))
        for key, value in node.items():
            found.extend(_dicts_with_method(value, f"{path}.{key}" if path else key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_dicts_with_method(value, f"{path}[{i}]"))
    return found


def _check(results: dict[str, Any]) -> list[str]:
    typed = validate_results(results)
    assert isinstance(typed, Results)
    blocks = _typed_blocks(typed)
    for path, block in blocks:
        assert block.method and block.inputs is not None, path
    for path, raw in _dicts_with_method(results):
        assert "inputs" in raw, f"{path} has a method but no inputs"
    # every registered statistic's leaves are blocks or containers of blocks
    for defn in all_statistics():
        leaves = list(defn.blocks(value_at(results, defn.path)))
        assert leaves or defn.keys, defn.path
    return [p for p, _ in blocks]


def test_synthetic_results_validate_and_every_block_has_method_and_inputs() -> None:
    results = compute_all(_synthetic(), seed=1, n_boot=100, n_stacked=10)
    paths = _check(results)
    # 2 judges x 1 pool for judge_vs_pool / alt_test, x 2 epsilons for single_expert, plus the fixed blocks
    assert {"rq5.judge_vs_pool.j-a.llm", "rq5.alt_test.j-b.llm", "rq5.single_expert.j-a.llm.0.2"} <= set(paths)
    assert results["rq1"]["operational"]["source"] == "unavailable"  # no release metadata: still a block
    assert results["rq5"]["intra_judge"]["inputs"] == {"judge": "j-a", "generations_with_repeats": 0}
    assert results["rq1"]["leaderboard"]["paper_ref"] == "Table 1"


def test_a_block_without_inputs_is_rejected() -> None:
    results = compute_all(_synthetic(), seed=1, n_boot=100, n_stacked=10)
    del results["rq5"]["intra_judge"]["inputs"]
    with pytest.raises(ValidationError, match="intra_judge"):
        validate_results(results)
    results = compute_all(_synthetic(), seed=1, n_boot=100, n_stacked=10)
    results["rq5"]["alt_test"]["j-a"]["llm"]["omega"] = "high"
    with pytest.raises(ValidationError, match="omega"):
        validate_results(results)


@pytest.mark.release
def test_release_results_validate(release_dir: Path) -> None:
    results = compute_all(StudyData.from_release(release_dir), seed=0, n_boot=200, n_stacked=20)
    paths = _check(results)
    # 8 judges x 2 pools for judge_vs_pool and alt_test, x 2 epsilons for single_expert, 24 single blocks
    assert len(paths) == 8 * 2 + 8 * 2 + 8 * 2 * 2 + 24
    assert results["rq5"]["judge_swap"]["paper_ref"] == "Tables 19-20"

"""StudyData's layering (issue 17) and the shared Appendix A bootstrap cells (issue 18): hand-made data."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import benger.analysis._records as records
from benger.analysis._appendix_a import appendix_a
from benger.analysis._data import GenScore, ReviewRow, Solution, StudyContents, StudyData, SystemMeta

DIMS = {"ergebnisrichtigkeit": 10.0}


def _imports(module: object) -> set[str]:
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_records_import_no_loader_and_no_analysis() -> None:
    # the bottom of benger.analysis: the loaders import it, never the other way round
    assert not {m for m in _imports(records) if m.startswith("benger.analysis")}


def test_loaders_build_contents_and_study_data_shares_them() -> None:
    from benger.analysis import _from_release, _from_store, _study

    for loader in (_from_release, _from_store):
        assert "benger.analysis._study" not in _imports(loader) and "benger.analysis._data" not in _imports(loader)
    assert {"benger.analysis._from_release", "benger.analysis._from_store"} <= _imports(_study)
    assert not hasattr(_study, "set_loaders") and not hasattr(records, "set_loaders")
    gens = [GenScore("g1", "a", "t1", 40.0, dict(DIMS), superseded=True), GenScore("g2", "a", "t1", 60.0, dict(DIMS))]
    contents = StudyContents(
        systems={"a": SystemMeta("a", "A", None, None, None)},
        task_areas={"t1": "Zivilrecht"},
        generations=gens,
        solutions={},
        reviews=[],
        judge_scores={},
        judge_labels={},
        primary_judge="j",
        metrics_all={"bleu": {"g1": 0.5}},
    )
    data = StudyData.of(contents)
    assert isinstance(data, StudyData) and data.generations is gens and data.metrics_all == {"bleu": {"g1": 0.5}}
    assert [g.generation_id for g in data.final_generations()] == ["g2"]


def _study(superseded: bool) -> StudyData:
    # system a: 48, 62 final, 80 superseded; system b: 30, 40; a1 picked with a creator (70) and a blind (50) review
    gens = [
        GenScore("a1", "a", "t1", 48.0, dict(DIMS)),
        GenScore("a2", "a", "t2", 62.0, dict(DIMS)),
        GenScore("a3", "a", "t1", 80.0, dict(DIMS), superseded=superseded),
        GenScore("b1", "b", "t1", 30.0, dict(DIMS)),
        GenScore("b2", "b", "t2", 40.0, dict(DIMS)),
    ]
    return StudyData(
        systems={s: SystemMeta(s, s.upper(), None, None, None) for s in ("a", "b")},
        task_areas={"t1": "Zivilrecht", "t2": "Strafrecht"},
        generations=gens,
        solutions={"a1": Solution("a1", "llm", "llm_system", "t1", "Zivilrecht", "a")},
        reviews=[
            ReviewRow("a1", "c", "creator", 70.0, 10, True, dict(DIMS), 0),
            ReviewRow("a1", "g1", "blind", 50.0, 4, True, dict(DIMS), 1),
        ],
        judge_scores={"j": {}},
        judge_labels={"j": "J"},
        primary_judge="j",
        metrics={"bleu": {"a1": 0.1, "a2": 0.3, "b1": 0.2, "b2": 0.4}},
    )


@pytest.mark.parametrize("superseded", [True, False])
def test_appendix_a_shared_cells_give_the_same_numbers(superseded: bool) -> None:
    data = _study(superseded)
    alone_final = appendix_a(data, n_boot=200, seed=3)
    alone_full = appendix_a(data, n_boot=200, seed=3, include_superseded=True)
    memo: dict = {}
    shared_final = appendix_a(data, n_boot=200, seed=3, memo=memo)
    computed = len(memo)
    shared_full = appendix_a(data, n_boot=200, seed=3, include_superseded=True, memo=memo)
    assert (shared_final, shared_full) == (alone_final, alone_full)
    # final cells: a's and b's raw/gp/pass (one bootstrap each: gp and pass resample with raw's draws) + a's h_
    # cells (1) + bleu for a and b (2) = 5 bootstraps
    assert computed == 5
    # with the superseded a3 counted, a's raw/gp/pass are a new bootstrap (bleu: a3 has no value, same cell);
    # with nothing superseded the second table is all hits
    assert len(memo) == computed + (1 if superseded else 0)
    a_full = next(r for r in shared_full["table2"] if r["row"] == "a")
    assert a_full["raw"]["mean"] == pytest.approx(190 / 3)  # 48, 62 and 80 either way
    assert shared_full["inputs"]["include_superseded"] is True

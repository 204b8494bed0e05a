"""The task x system matrix behind the heatmap."""

from __future__ import annotations

from benger.report import task_labels, task_system_matrix


def test_matrix_means_ordering_and_gaps() -> None:
    areas = {"t1": "Zivilrecht", "t2": "Strafrecht", "t3": "Zivilrecht"}
    tasks = task_labels(areas)
    assert tasks == [("t1", "Zivilrecht", "Civ 1"), ("t2", "Strafrecht", "Crim 2"), ("t3", "Zivilrecht", "Civ 3")]
    scores = [
        ("a", "t1", 60.0),
        ("a", "t1", 70.0),  # two generations in one cell: mean 65
        ("a", "t2", 50.0),
        ("b", "t1", 80.0),
        ("b", "t3", 90.0),  # b has no t2 generation
        ("b", "unknown-task", 0.0),  # not a corpus task: ignored
    ]
    m = task_system_matrix(scores, tasks, "judge-x", {"b": "System B"})
    # b: mean(80, 90) = 85 > a: mean(60, 70, 50) = 60, so b is the first row
    assert [s["system"] for s in m["systems"]] == ["b", "a"]
    assert m["systems"][0]["display"] == "System B" and m["systems"][1]["display"] == "a"
    assert m["systems"][1]["mean"] == 60.0
    # columns grouped by area in order of first appearance: Zivilrecht (t1, t3), then Strafrecht (t2)
    assert [t["task_id"] for t in m["tasks"]] == ["t1", "t3", "t2"]
    assert m["values"] == [[80.0, 90.0, None], [65.0, None, 50.0]]
    assert m["n"] == [[1, 1, 0], [2, 0, 1]]
    assert m["inputs"] == ["generations:5", "judge_scores:judge-x"]

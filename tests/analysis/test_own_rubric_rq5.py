"""RQ5 of `benger analyze` under a user's own 20-point rubric: judge and blind reviewers compared on percent of
the rubric total, grade points and pass from the paper's 0-18 table of that percent for both (the rule of
`validate-judge --corpus`, benger.analysis._percent), and the report labels the scale. Every number by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.analysis import StudyData
from benger.analysis._percent import PERCENT_SCALE
from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge import load_rubric
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store

runner = CliRunner()
_register_commands()

RUBRIC = """name: zwanzig
version: "1"
title: Zwanzig Punkte
kind: falloesung
graded: true
total: 20
step: 1
grades: [9, 11, 14, 17, 20]
pass_grade: 1
instructions: Kurz bewerten.
dimensions:
  - {key: a, label: Ergebnis, label_en: Result, max: 10}
  - {key: b, label: Begründung, label_en: Reasoning, max: 10}
"""
# raw points of 20: the judge's total and two blind reviews per generation (dims a, b sum to the total)
JUDGE = {"g1": 12, "g2": 16, "g3": 4}  # percent 60, 80, 20
BLIND = {"g1": (10, 14), "g2": (12, 18), "g3": (6, 8)}  # percent (50, 70), (60, 90), (30, 40): means 60, 75, 35


def _dims(total: int) -> tuple[int, int]:
    return (min(total, 10), max(total - 10, 0))


def _store(tmp_path: Path) -> tuple[Path, Path]:
    rubric_file = tmp_path / "zwanzig.yaml"
    rubric_file.write_text(RUBRIC, encoding="utf-8")
    rubric = load_rubric(rubric_file)
    db = tmp_path / "own.db"
    store = open_store(db)
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="meine", area="Zivilrecht", facts=f"SV {i}", reference=f"ML {i}")
        for i in (1, 2, 3)
    ]
    store.add_corpus(Corpus(name="meine", tasks=tasks))
    for i, (gid, total) in enumerate(JUDGE.items(), start=1):
        store.save_generation(Generation(generation_id=gid, task_id=f"t{i}", corpus="meine", system="sys",
                                         config_hash="c", text="Lösung"))  # fmt: skip
        dims = dict(zip("ab", _dims(total), strict=True))
        store.save_judgement(Judgement(
            judgement_id=f"j-{gid}", target_kind="generation", target_id=gid, judge="mein-judge",
            judge_config_hash="jh", rubric_id=rubric.id, status="scored", dimensions=dims,
            total=float(total), grade_points=rubric.grade_points(total), passed=rubric.passed(total)))  # fmt: skip
    store.close()
    lines = ["solution_id,reviewer,role,a,b"]
    for gid, totals in BLIND.items():
        lines += [f"{gid},R{k + 1},blind,{','.join(map(str, _dims(t)))}" for k, t in enumerate(totals)]
    reviews = tmp_path / "reviews.csv"
    reviews.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric", f"meine={rubric_file}"])
    assert done.exit_code == 0, done.output
    return db, rubric_file


def test_judge_vs_pool_on_percent_of_the_own_rubric_total(tmp_path: Path) -> None:
    from benger.analysis._compute import compute_all

    db, rubric_file = _store(tmp_path)
    store = open_store(db)
    try:
        data = StudyData.from_store(store, corpus="meine", rubrics={"meine": load_rubric(rubric_file)})
    finally:
        store.close()
    assert data.rubric_totals == {"g1": 20.0, "g2": 20.0, "g3": 20.0}
    results = compute_all(data, seed=7, n_boot=20)
    block = results["rq5"]["judge_vs_pool"]["mein-judge"]["llm"]
    assert block["unit"] == PERCENT_SCALE and block["n"] == 3
    # judge 60, 80, 20 vs blind means 60, 75, 35: differences 0, 5, -15
    assert block["mae_raw"] == pytest.approx(20 / 3)
    assert block["offset_raw"] == pytest.approx(-10 / 3)
    assert block["mean_judge"] == pytest.approx(160 / 3) and block["mean_pool"] == pytest.approx(170 / 3)
    # centred: judge (20, 80, -100)/3, pool (10, 55, -65)/3
    assert block["pearson"] == pytest.approx(11100 / (16800 * 7350) ** 0.5)
    # 0-18 table of the percent: judge 7, 13, 1; blind (4, 10), (7, 16), (2, 3): means 7, 11.5, 2.5
    assert block["mae_grade_points"] == pytest.approx(1.0)
    assert block["offset_grade_points"] == pytest.approx(0.0)
    # pass (>= 4 grade points): judge T, T, F; blind majorities T, T, F
    assert block["kappa"] == pytest.approx(1.0)


def test_analyze_labels_the_scale_and_refuses_an_unknown_own_rubric(tmp_path: Path) -> None:
    db, rubric_file = _store(tmp_path)
    out = tmp_path / "out"
    refused = runner.invoke(app, ["analyze", "--db", str(db), "--corpus", "meine", "--out", str(out),
                                  "--n-boot", "100"])  # fmt: skip
    assert refused.exit_code == 2
    flat = " ".join(refused.output.split())
    assert "was judged under rubric zwanzig@1+" in flat and "--rubric meine=FILE" in flat
    done = runner.invoke(app, ["analyze", "--db", str(db), "--corpus", "meine", "--rubric", f"meine={rubric_file}",
                               "--out", str(out), "--n-boot", "100"])  # fmt: skip
    assert done.exit_code == 0, done.output
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["rq5"]["judge_vs_pool"]["mein-judge"]["llm"]["mae_raw"] == pytest.approx(20 / 3)
    assert "--rubric meine=zwanzig@1+" in results["provenance"]["command"]
    judges = (out / "tables" / "rq5_judges.md").read_text(encoding="utf-8")
    assert "| MAE % | MAE gp | κ | Offset % |" in judges and PERCENT_SCALE in judges
    assert "| 6.7 | 1.00 | 1.00 | -3.33 |" in judges
    assert "MAE raw" not in (out / "tables" / "rq5_agreement.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("raw", "total", "pct", "grade", "passes"),
    [
        (10.0, 20.0, 50.0, 4, True),  # 50 of 100: grade 4 (50..53), passes
        (12.0, 30.0, 40.0, 3, False),  # 40: grade 3 (39..49)
        (49.0, 100.0, 49.0, 3, False),  # the paper's scale is its own percent
        (30.0, 30.0, 100.0, 18, True),
        (0.0, 20.0, 0.0, 0, False),
        (17.0, 20.0, 85.0, 14, True),  # 85: grade 14 (84..86)
    ],
)
def test_as_percent_one_rule_for_reviews_and_judges(
    raw: float, total: float, pct: float, grade: int, passes: bool
) -> None:
    from benger.analysis._data import ReviewRow, Solution
    from benger.analysis._percent import as_percent

    data = StudyData(
        systems={}, task_areas={}, generations=[], solutions={"s": Solution("s", "llm", "llm_system", "t", None, None)},
        reviews=[ReviewRow("s", "g1", "blind", raw, 1, False, {"a": raw}, 0)],
        judge_scores={"j": {"s": raw, "other": 5.0}}, judge_labels={"j": "j"}, primary_judge="j",
        repeats={"s": (raw,)},
    )  # fmt: skip
    out = as_percent(data, {"s": total})
    (r,) = out.reviews
    assert (r.raw, r.grade_points, r.passed) == (pytest.approx(pct), grade, passes)
    assert out.judge_scores == {"j": {"s": pytest.approx(pct)}}  # a solution without a total is dropped
    assert out.repeats == {} and data.reviews[0].raw == raw  # the input is not changed

"""`benger study ...` admin commands, the release-layout export, and the analysis reading platform reviews."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import typer
from sqlalchemy import select
from study_helpers import open_new_study, user
from typer.testing import CliRunner

from benger.analysis import StudyData, compute_all
from benger.cli import _web
from benger.judge import grade_points, passed
from benger.schema import Judgement
from benger.store import Store
from benger.study import enrol, save_expertise, save_review, start, submit
from benger.study._models import ReviewAssignment

FULL = {
    "ergebnisrichtigkeit": 16,
    "vollstaendigkeit": 8,
    "rechtsgrundlagen": 8,
    "rechtskenntnis": 12,
    "subsumtion": 12,
    "schwerpunktsetzung": 8,
    "methodischer_stil": 8,
    "gliederung": 4,
    "sprache": 2,
    "formalia": 2,
}


def _cli() -> typer.Typer:
    app = typer.Typer()
    _web.register(app)
    return app


def test_admin_commands_export_and_analysis(store: Store, tmp_path: Path) -> None:
    db = str(tmp_path / "benger.db")
    runner = CliRunner()
    app = _cli()
    for name, roles in (
        ("c0", ["creator"]),
        ("c1", ["creator"]),
        ("c2", ["creator"]),
        ("g0", ["grader"]),
        ("g1", ["grader"]),
        ("g2", ["grader"]),
    ):
        args = ["study", "create-user", name, "--db", db, "--password", "langes-passwort"]
        result = runner.invoke(app, args + [x for r in roles for x in ("--role", r)])
        assert result.exit_code == 0, result.output
    study = open_new_study(store, "CLI", seed=4)
    for i in range(2):
        pid = user(store, f"p{i}", "participant")
        save_expertise(store, pid, "graduate", {"Zivilrecht": 2 + i, "Strafrecht": 3, "Öffentliches Recht": 4}, None)
        enrol(store, study, pid)
        for t in range(1, 7):
            start(store, study, pid, f"mini-t{t}")
            submit(store, study, pid, f"mini-t{t}", f"Lösung {i}-{t}")
    for t in range(1, 7):
        result = runner.invoke(
            app, ["study", "set-author", f"mini-t{t}", f"c{(t - 1) // 2}", "--study", str(study), "--db", db]
        )
        assert result.exit_code == 0, result.output
    assert "0 running drafts" in runner.invoke(app, ["study", "close", "--study", str(study), "--db", db]).output
    assert "18 picks" in runner.invoke(app, ["study", "picks", "--study", str(study), "--db", db]).output
    assert "72 review assignments" in runner.invoke(app, ["study", "assign", "--study", str(study), "--db", db]).output
    with store.session() as session:
        work = [(a.id, a.grader_id) for a in session.scalars(select(ReviewAssignment))]
    for k, (aid, gid) in enumerate(work):  # result correctness 10..16 varies, the rest is FULL
        save_review(
            store, aid, gid, {**FULL, "ergebnisrichtigkeit": 10 + k % 7}, dict.fromkeys(FULL, "ok"), submit=True
        )
    out = tmp_path / "export"
    result = runner.invoke(app, ["study", "export", "--study", str(study), "--out", str(out), "--db", db])
    assert json.loads(result.output) == {"picks": 18, "assignments": 72, "reviews": 72, "submissions": 12}
    sample = json.loads((out / "data/interim/benchathon_human_grading_sample.json").read_text("utf-8"))
    grades = json.loads((out / "data/processed/benchathon_human_grades.json").read_text("utf-8"))
    assert Counter(p["provenance"] for p in sample["picks"]) == {"classic": 6, "co_creation": 6, "llm": 6}
    assert Counter(g["role"] for g in grades) == {"blind": 54, "creator": 18}
    # FULL without result correctness sums to 64; with 10..16 the raw scores are 74..80
    assert {g["raw_score"] for g in grades} == {74.0 + i for i in range(7)}
    # 80 raw -> 13 grade points (the band 80..83), 74 -> 11 (74..76)
    assert {(g["raw_score"], g["grade_points"]) for g in grades} >= {(80.0, 13), (74.0, 11)}
    # the LLM judge's scores come from the core pipeline; here a judge scores every target 60 + (n % 5) * 5
    targets = [("generation", g.generation_id) for g in store.generations()]
    targets += [("human_solution", h.solution_id) for h in store.human_solutions()]
    for n, (kind, target) in enumerate(targets):
        total = 60.0 + (n % 5) * 5
        store.save_judgement(
            Judgement(
                judgement_id=f"j{n}",
                target_kind=kind,
                target_id=target,  # type: ignore[arg-type]
                judge="judge-a",
                judge_config_hash="h",
                rubric_id="falloesung@1",
                status="scored",
                dimensions={},
                total=total,
                grade_points=grade_points(total),
                passed=passed(total),
            )
        )
    data = StudyData.from_store(store, corpus="mini")
    assert len(data.reviews) == 72
    assert Counter(s.solution_type for s in data.solutions.values()) == {
        "human_traditional": 6,
        "human_co_creation": 6,
        "llm_system": 6,
    }
    results = compute_all(data, n_boot=200, n_stacked=50)
    # RQ4: 2 participants x 6 tasks = 12 solutions, balanced arms 6 / 6
    assert results["rq4"]["judge"]["n"] == {"traditional": 6, "co_creation": 6}
    # RQ5: 12 human and 6 LLM picks; the pool mean agrees with the exported blind grades
    pools = results["rq5"]["judge_vs_pool"]["judge-a"]
    assert (pools["human"]["n"], pools["llm"]["n"]) == (12, 6)
    blind: dict[str, list[float]] = {}
    for g in grades:
        if g["role"] == "blind" and g["solution_type"] != "llm_system":
            blind.setdefault(g["solution_id"], []).append(g["raw_score"])
    expected = sum(sum(v) / len(v) for v in blind.values()) / len(blind)
    assert pools["human"]["mean_pool"] == pytest.approx(expected)


def test_the_export_carries_the_submissions_and_their_ai_tools(store: Store, tmp_path: Path) -> None:
    """The release-layout export holds the organiser's submissions table (as submissions.csv), AI tools included."""
    import csv
    import io

    from benger.study import export_study
    from benger.study._models import Attempt, StudyUser

    study = open_new_study(store, "Export", seed=2)
    pid = user(store, "p0", "participant")
    save_expertise(store, pid, "graduate", {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}, None)
    enrol(store, study, pid)
    with store.session() as session:
        arms = {a.task_id: a.arm for a in session.scalars(select(Attempt).filter_by(user_id=pid))}
    co = next(t for t, arm in arms.items() if arm == "co_creation")
    classic = next(t for t, arm in arms.items() if arm == "traditional")
    for task in (co, classic):
        start(store, study, pid, task)
        submit(store, study, pid, task, "Lösung", ai_tools="=ChatGPT, DeepL")
    counts = export_study(store, study, tmp_path / "out")
    body = (tmp_path / "out/data/processed/csv/benchathon_submissions.csv").read_text("utf-8")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert counts["submissions"] == len(rows) == 6
    by_task = {r["task_id"]: r for r in rows}
    assert by_task[co]["ai_tools"] == "'=ChatGPT, DeepL"  # the spreadsheet writer neutralised the formula
    assert by_task[classic]["ai_tools"] == ""  # only the co-creation arm records tools
    with store.session() as session:
        pseudonym = session.get(StudyUser, pid).pseudonym  # type: ignore[union-attr]
    assert {r["participant"] for r in rows} == {pseudonym} and "p0" not in body  # pseudonyms only
    assert {by_task[co]["status"], by_task[classic]["status"]} == {"submitted"}

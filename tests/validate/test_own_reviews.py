"""Your own reviews (issue 31 item 3): imported from CSV, then `validate-judge CONFIG --db STORE --corpus NAME`
validates a judge against them with the table used against the paper's picks. The judgements are stored before,
so the command judges nothing and every number below is worked out by hand."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge import load_rubric
from benger.pipeline import default_prompts, judgement_id, load_run_config
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store

KURZ3 = Path(__file__).resolve().parents[2] / "examples" / "own-study" / "rubrics" / "kurz3.yaml"
runner = CliRunner()
_register_commands()

# per solution: the judge's total and three reviews (2 blind, 1 creator), raw points of 30 -> dims summing to them
DIMS = {6: (2, 2, 2), 9: (3, 2, 4), 12: (4, 4, 4), 15: (5, 4, 6), 18: (6, 6, 6), 21: (7, 8, 6), 24: (8, 8, 8)}
JUDGE = {"g1": 18, "g2": 21, "g3": 6}  # percent of 30: 60, 70, 20
BLIND = {"g1": (12, 18), "g2": (24, 18), "g3": (6, 12)}  # percent means: 50, 70, 30
CREATOR = {"g1": 15, "g2": 21, "g3": 9}


def _setup(tmp_path: Path, blind: Mapping[str, tuple[int, ...]] = BLIND) -> tuple[Path, Path, Path]:
    db = tmp_path / "own.db"
    store = open_store(db)
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="meine", area="Zivilrecht", facts=f"SV {i}", reference=f"ML {i}")
        for i in (1, 2, 3)
    ]
    store.add_corpus(Corpus(name="meine", tasks=tasks))
    for i, gid in enumerate(JUDGE, start=1):
        store.save_generation(Generation(generation_id=gid, task_id=f"t{i}", corpus="meine", system="sys",
                                         config_hash="c", text="Lösung"))  # fmt: skip
    config = tmp_path / "judge.yaml"
    config.write_text(
        f"rubrics: {{meine: {KURZ3}}}\njudges: [{{name: mein-judge, provider: openai-compatible, model: m, "
        "base_url: 'http://127.0.0.1:9/v1'}]\n",
        encoding="utf-8",
    )
    cfg = load_run_config(config)
    judge, rubric = cfg.resolved_judges()[0], load_rubric(KURZ3)
    judge_hash = default_prompts().judge_config_hash(judge, rubric)
    for gid, total in JUDGE.items():
        dims = dict(zip(rubric.keys, DIMS[total], strict=True))
        store.save_judgement(Judgement(
            judgement_id=judgement_id("generation", gid, judge_hash, rubric.id, 0), target_kind="generation",
            target_id=gid, judge="mein-judge", judge_config_hash=judge_hash, rubric_id=rubric.id, status="scored",
            dimensions=dims, total=float(total), grade_points=rubric.grade_points(total),
            passed=rubric.passed(total)))  # fmt: skip
    store.close()
    lines = ["solution_id,reviewer,role,ergebnis,aufbau,argumentation"]
    for gid, totals in blind.items():
        lines += [f"{gid},R{k + 1},blind,{','.join(map(str, DIMS[t]))}" for k, t in enumerate(totals)]
        lines.append(f"{gid},C,creator,{','.join(map(str, DIMS[CREATOR[gid]]))}")
    reviews = tmp_path / "reviews.csv"
    reviews.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return db, config, reviews


def test_validate_judge_on_own_reviews(tmp_path: Path) -> None:
    db, config, reviews = _setup(tmp_path)
    done = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric", f"meine={KURZ3}"])
    assert done.exit_code == 0, done.output
    assert "imported 9 reviews (6 blind, 3 creator) of 3 solutions by 3 reviewers" in done.output
    store = open_store(db)
    stored = {(r.target_id, r.grader_id): r for r in store.human_reviews()}
    assert stored[("g1", "R1")].raw_score == 12 and stored[("g1", "R1")].grade_points == 1  # 12 of 30: grade 1
    store.close()
    out = tmp_path / "vj"
    result = runner.invoke(app, ["validate-judge", str(config), "--db", str(db), "--corpus", "meine", "--out",
                                 str(out), "--quiet"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Judge validation on the reviewed solutions of meine" in result.output
    # the table's columns name the scale: percent of the rubric total, not raw points
    assert "| MAE % | MAE gp | kappa | offset human (% points) | offset LLM (% points) |" in result.output
    assert "MAE raw" not in result.output
    block = json.loads((out / "validate-judge.json").read_text())["candidate"]["agreement"]["llm"]
    # judge percent 60, 70, 20 vs blind means 50, 70, 30: deviations (10, 20, -30) and (0, 20, -20)
    assert block["n"] == 3
    assert block["pearson"] == pytest.approx(1000 / (1400 * 800) ** 0.5)  # 0.9449
    assert block["spearman"] == pytest.approx(1.0)
    assert block["mae_raw"] == pytest.approx(20 / 3)
    assert block["offset_raw"] == pytest.approx(0.0)
    # grade points of the percent (0-18 table): judge 7, 10, 1; blind means (3+7)/2, (13+7)/2, (1+3)/2
    assert block["mae_grade_points"] == pytest.approx(1.0)


def test_too_few_blind_reviewers_is_refused_with_the_reason(tmp_path: Path) -> None:
    db, config, reviews = _setup(tmp_path, blind={g: (t[0],) for g, t in BLIND.items()})
    assert runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric",
                               f"meine={KURZ3}"]).exit_code == 0  # fmt: skip
    result = runner.invoke(app, ["validate-judge", str(config), "--db", str(db), "--corpus", "meine", "--quiet"])
    assert result.exit_code == 2
    assert "has 1 blind reviewer(s); the blind pool, the ICC and the alt-test need at least 2" in result.output


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("g1,R1,blind,4,3,4", "field 'aufbau': 3 is not in 0..10 in steps of 2"),
        ("g1,R1,blind,11,4,4", "field 'ergebnis': 11 is not in 0..10 in steps of 1"),
        ("g9,R1,blind,4,4,4", "no generation or human solution 'g9' in the store"),
        ("g1,R1,gutachter,4,4,4", "role 'gutachter': expected 'blind' or 'creator'"),
    ],
)
def test_bad_review_rows_name_line_and_field(tmp_path: Path, row: str, message: str) -> None:
    db, _, _ = _setup(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text("solution_id,reviewer,role,ergebnis,aufbau,argumentation\n" + row + "\n", encoding="utf-8")
    result = runner.invoke(app, ["import-reviews", str(bad), "--db", str(db), "--rubric", f"meine={KURZ3}"])
    assert result.exit_code == 2 and message in result.output and "bad.csv:2" in result.output
    store = open_store(db)
    assert store.human_reviews() == []  # nothing stored
    store.close()


def test_reviews_under_a_rubric_without_grade_table_keep_raw_points_only(tmp_path: Path) -> None:
    """No grade points are made up for an ungraded rubric: the reviews are stored with their raw points, grade
    points and pass empty, and the import says so."""
    db, _, reviews = _setup(tmp_path)
    text = KURZ3.read_text(encoding="utf-8")
    ungraded = tmp_path / "ungraded.yaml"
    lines = [ln for ln in text.splitlines() if not ln.startswith(("grades:", "pass_grade:"))]
    ungraded.write_text("\n".join(lines).replace("graded: true", "graded: false") + "\n", encoding="utf-8")
    rubric = load_rubric(ungraded)
    assert rubric.grade_bounds is None and rubric.max_total == 30 and rubric.effective_pass_total is None
    done = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric", f"meine={ungraded}"])
    assert done.exit_code == 0, done.output
    flat = " ".join(done.output.split())
    assert "imported 9 reviews (6 blind, 3 creator) of 3 solutions by 3 reviewers" in flat
    assert (
        "9 of them under a rubric without a grade table: raw points only, no grade points, and 9 without a "
        "pass (the rubric has no pass mark)" in flat
    )
    store = open_store(db)
    stored = {(r.target_id, r.grader_id): r for r in store.human_reviews()}
    store.close()
    assert len(stored) == 9
    assert {(r.grade_points, r.passed) for r in stored.values()} == {(None, None)}
    assert stored[("g1", "R2")].raw_score == 18 and stored[("g1", "R2")].meta["rubric_id"] == rubric.id


def test_the_validation_names_the_judge_config_hash_of_the_judgements_it_read(tmp_path: Path) -> None:
    # before: only the judge's model hash (judge_config), not the judgements' judge_config_hash the leaderboard names
    db, config, reviews = _setup(tmp_path)
    imported = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric", f"meine={KURZ3}"])
    assert imported.exit_code == 0, imported.output
    out = tmp_path / "vj"
    result = runner.invoke(app, ["validate-judge", str(config), "--db", str(db), "--corpus", "meine", "--out",
                                 str(out), "--quiet"])  # fmt: skip
    assert result.exit_code == 0, result.output
    judge = load_run_config(config).resolved_judges()[0]
    expected = default_prompts().judge_config_hash(judge, load_rubric(KURZ3))
    assert f"judge_config_hash: {expected}" in result.output
    assert json.loads((out / "validate-judge.json").read_text())["provenance"]["judge_config_hash"] == expected

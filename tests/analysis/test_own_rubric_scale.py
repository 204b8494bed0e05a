"""Judge-vs-human numbers under a user's own 30-point rubric without a grade table or pass rule (issue 31): every
RQ5 block of `benger analyze` (agreement, IRR, alt-test, calibration, creator vs blind) and the viewer's judge
validation compare on percent of the rubric total (benger.analysis._percent), and no grade points or pass are
made up for reviews that have none. Every number by hand."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from benger.analysis import StudyData
from benger.analysis._percent import PERCENT_SCALE
from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge import load_rubric
from benger.pipeline import rubric_for_task
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store

runner = CliRunner()
_register_commands()

RUBRIC = """name: drei
version: "1"
title: Drei Kriterien ohne Notentabelle
kind: falloesung
graded: false
total: 30
step: 1
instructions: Knapp bewerten.
dimensions:
  - {key: a, label: Ergebnis, label_en: Result, max: 10}
  - {key: b, label: Aufbau, label_en: Structure, max: 10}
  - {key: c, label: Begründung, label_en: Reasoning, max: 10}
"""
# raw points of 30
JUDGE = {"g1": 18, "g2": 21, "g3": 3}  # percent 60, 70, 10
BLIND = {"g1": (12, 15, 18), "g2": (24, 18, 21), "g3": (6, 9, 12)}  # percent means 50, 70, 30
CREATOR = {"g1": 15, "g2": 21, "g3": 12}  # percent 50, 70, 40


def _dims(total: int) -> tuple[int, ...]:
    return tuple(total // 3 + (1 if i < total % 3 else 0) for i in range(3))


def _store(tmp_path: Path, *, per_task: bool = False) -> tuple[Path, Path]:
    """The corpus 'meine' judged and reviewed under the rubric: the run config's corpus rubric (a file the store
    keeps only the id of), or with ``per_task`` each task's own Bewertungsbogen (in the corpus, so in the store)."""
    rubric_file = tmp_path / "drei.yaml"
    rubric_file.write_text(RUBRIC, encoding="utf-8")
    own = yaml.safe_load(RUBRIC) if per_task else None
    tasks = [
        FalloesungTask(
            task_id=f"t{i}", corpus="meine", area="Zivilrecht", facts=f"SV {i}", reference=f"ML {i}", rubric=own
        )
        for i in (1, 2, 3)
    ]
    rubric = rubric_for_task(tasks[0]) if per_task else load_rubric(rubric_file)
    assert rubric.grade_bounds is None and rubric.effective_pass_total is None and rubric.max_total == 30
    db = tmp_path / "own.db"
    store = open_store(db)
    store.add_corpus(Corpus(name="meine", tasks=tasks))
    for i, (gid, total) in enumerate(JUDGE.items(), start=1):
        store.save_generation(Generation(generation_id=gid, task_id=f"t{i}", corpus="meine", system="sys",
                                         config_hash="c", text="Lösung"))  # fmt: skip
        store.save_judgement(Judgement(
            judgement_id=f"j-{gid}", target_kind="generation", target_id=gid, judge="mein-judge",
            judge_config_hash="jh", rubric_id=rubric.id, status="scored",
            dimensions=dict(zip("abc", _dims(total), strict=True)), total=float(total),
            grade_points=rubric.grade_points(total), passed=rubric.passed(total)))  # fmt: skip
    store.close()
    lines = ["solution_id,reviewer,role,a,b,c"]
    for gid, totals in BLIND.items():
        lines += [f"{gid},R{k + 1},blind,{','.join(map(str, _dims(t)))}" for k, t in enumerate(totals)]
        lines.append(f"{gid},C,creator,{','.join(map(str, _dims(CREATOR[gid])))}")
    reviews = tmp_path / "reviews.csv"
    reviews.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = runner.invoke(app, ["import-reviews", str(reviews), "--db", str(db), "--rubric", f"meine={rubric_file}"])
    assert done.exit_code == 0, done.output
    return db, rubric_file


@pytest.fixture
def results(tmp_path: Path) -> dict:
    from benger.analysis._compute import compute_all

    db, rubric_file = _store(tmp_path)
    store = open_store(db)
    try:
        data = StudyData.from_store(store, corpus="meine", rubrics={"meine": load_rubric(rubric_file)})
    finally:
        store.close()
    assert data.rubric_totals == {"g1": 30.0, "g2": 30.0, "g3": 30.0}
    assert all(r.grade_points is None and r.passed is None for r in data.reviews)
    return compute_all(data, seed=3, n_boot=20)


def test_agreement_on_percent_without_invented_grade_points(results: dict) -> None:
    block = results["rq5"]["judge_vs_pool"]["mein-judge"]["llm"]
    assert block["unit"] == PERCENT_SCALE
    # judge 60, 70, 10 vs blind means 50, 70, 30: differences 10, 0, -20
    assert block["mae_raw"] == pytest.approx(10.0)
    assert block["offset_raw"] == pytest.approx(-10 / 3)
    # the reviews have no grade points and no pass (no grade table, no pass rule): none are made up
    assert block["mae_grade_points"] is None and block["offset_grade_points"] is None and block["kappa"] is None


def test_calibration_offset_in_percent_points_not_raw(results: dict) -> None:
    block = results["rq5"]["calibration"]
    assert block["unit"] == PERCENT_SCALE
    (row,) = [r for r in block["rows"] if r["judge"] == "mein-judge" and r["pool"] == "llm"]
    assert row["judge_minus_pool_mean"] == pytest.approx(-10 / 3)  # raw points would be -1.0
    assert row["full_mean"] == pytest.approx(50.0) and row["judge_mean"] == pytest.approx(140 / 3)
    # Delta_sub: R3 (the alphabetically last grader) replaced by the judge: (judge - R3) / 3 = 0, 0, -10
    assert row["diff_mean"] == pytest.approx(-10 / 3)


def test_irr_creator_and_alt_test_on_the_same_scale(results: dict) -> None:
    irr = results["rq5"]["irr"]
    assert irr["unit"] == PERCENT_SCALE
    pooled = irr["pooled"]
    assert pooled["spread_raw"] == pytest.approx(20.0)  # ranges 20, 20, 20 percent points (6 raw points)
    assert pooled["icc_2_1_gp"] is None and pooled["spread_gp"] is None  # no grade table: no grade-point ICC
    creator = results["rq5"]["creator_vs_blind"]
    assert creator["unit"] == PERCENT_SCALE
    assert creator["offset_raw"] == pytest.approx(10 / 3) and creator["mae_raw"] == pytest.approx(10 / 3)
    alt = results["rq5"]["alt_test"]["mein-judge"]["llm"]
    assert alt["unit"] == PERCENT_SCALE and alt["method"].startswith(f"on {PERCENT_SCALE}")
    assert alt["pearson_judge_vs_mean_blind"] == pytest.approx(results["rq5"]["judge_vs_pool"]["mein-judge"]["llm"]
                                                               ["pearson"])  # fmt: skip
    kripp = results["extras"]["krippendorff_alpha"]
    assert kripp["unit"] == PERCENT_SCALE


@pytest.mark.parametrize("where", ["task Bewertungsbogen", "kept in the store"])
def test_viewer_validation_on_percent_of_the_rubric_total(tmp_path: Path, where: str) -> None:
    """The viewer's judge-validation block: the table names the scale and its offset is in percent points; the
    rubric is each task's own Bewertungsbogen, or the corpus rubric the store keeps (a run keeps it)."""
    from benger.judge._stored import save_rubrics

    db, rubric_file = _store(tmp_path, per_task=where == "task Bewertungsbogen")
    if where == "kept in the store":
        store = open_store(db)
        save_rubrics(store, [load_rubric(rubric_file)])
        store.close()
    page = _validation_page(db, "en")  # the English page: validate-judge's own words
    text = html.unescape(page)
    assert PERCENT_SCALE in text
    heads = re.findall(r'<th scope="col">(.*?)</th>', text)
    assert "MAE %" in heads and "MAE raw" not in heads
    (row,) = re.findall(r'<tr><th scope="row">mein-judge</th>(.*?)</tr>', text, re.S)
    cells = re.findall(r"<td>(.*?)</td>", row)
    by_head = dict(zip(heads[1:], cells, strict=False))
    assert by_head["offset LLM (% points)"] == "-3.3"  # raw points would be -1.0
    assert by_head["MAE gp"] == "–" and by_head["kappa"] == "–"  # no grade table, no pass rule
    german = html.unescape(_validation_page(db))  # the German page: the same table in German (viewer._words)
    assert "Prozent der Gesamtpunktzahl der Rubrik jeder Lösung" in german and PERCENT_SCALE not in german
    heads = re.findall(r'<th scope="col">(.*?)</th>', german)
    (row,) = re.findall(r'<tr><th scope="row">mein-judge</th>(.*?)</tr>', german, re.S)
    by_head = dict(zip(heads[1:], re.findall(r"<td>(.*?)</td>", row), strict=False))
    assert by_head["Versatz LLM-Picks (Prozentpunkte)"] == "-3,3" and by_head["MAE Notenpunkte"] == "–"


def _validation_page(db: Path, lang: str = "de") -> str:
    from benger.web.access import Principal
    from benger.web.viewer import create_viewer_app

    store = open_store(db)
    try:
        with TestClient(create_viewer_app(store, Principal.local())) as client:
            page = client.get("/view/validation", params={"lang": lang})
    finally:
        store.close()
    assert page.status_code == 200
    return page.text


def test_viewer_refuses_an_own_rubric_it_cannot_scale(tmp_path: Path) -> None:
    """A corpus rubric the store does not keep (judged before the store kept rubrics): the viewer cannot put the
    scores on percent of its total; it says so instead of showing raw points with the paper's grade table."""
    db, _ = _store(tmp_path)
    text = " ".join(html.unescape(_validation_page(db)).split())
    assert "nicht verfügbar" in text and "judged under rubric drei@1+" in text
    assert "benger validate-judge CONFIG --db STORE --corpus meine" in text
    assert '<th scope="col">MAE raw</th>' not in text


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`benger analyze --corpus meine --rubric meine=drei.yaml` after the reviews: its output folder."""
    tmp_path = tmp_path_factory.mktemp("analyzed")
    db, rubric_file = _store(tmp_path)
    out = tmp_path / "out"
    done = runner.invoke(app, ["analyze", "--db", str(db), "--corpus", "meine", "--rubric", f"meine={rubric_file}",
                               "--out", str(out), "--n-boot", "100"])  # fmt: skip
    assert done.exit_code == 0, done.output
    return out


def test_analyze_report_tables_name_the_percent_scale(analyzed: Path) -> None:
    out = analyzed
    calibration = (out / "tables" / "rq5_calibration.md").read_text(encoding="utf-8")
    assert "| Δdir % points (sd) |" in calibration and PERCENT_SCALE in calibration
    assert "−3.33" in calibration or "-3.33" in calibration  # percent points; raw would be -1.00
    irr = (out / "tables" / "rq5_irr.md").read_text(encoding="utf-8")
    assert "| Spread % |" in irr and "Spread raw" not in irr and "| 20.0 |" in irr
    agreement = (out / "tables" / "rq5_agreement.md").read_text(encoding="utf-8")
    # undefined numbers are a dash inside a text cell too, never "None"; an undefined omega is no "fails"
    assert "None" not in agreement and "gp —" in agreement and "κ=—" in agreement
    assert "undefined (too few picks per annotator)" in agreement and "| fails |" not in agreement
    checks = (out / "tables" / "rq5_checks.md").read_text(encoding="utf-8")
    assert "None" not in checks and "MAE % 3.3" in checks


@pytest.mark.parametrize(
    ("path", "present"),
    [
        ("tables/leaderboard.md", "Mean LLM-judge raw score 0-30 (rubric drei@1+"),
        ("tables/leaderboard.tex", "Mean LLM-judge raw score 0-30 (rubric drei@1+"),
        ("report.html", "Mean LLM-judge raw score 0-30 (rubric drei@1+"),
        ("results.json", '"unit": "raw score 0-30 (rubric drei@1+'),
        ("figures/leaderboard.svg", "judge raw score 0-30"),
    ],
)
def test_leaderboard_names_the_own_rubric_scale_in_every_format(analyzed: Path, path: str, present: str) -> None:
    """Table 1 under a 30-point rubric without a grade table or pass rule: the rubric's own scale in every output,
    never the paper's 0-100 or its grade-point pass rule."""
    text = (analyzed / path).read_text(encoding="utf-8")
    flat = " ".join(html.unescape(text).split())
    assert present in flat
    for paper in ("raw score (0-100)", "judge raw score (0-100)", "(≥ 4 grade points)"):
        assert paper not in flat


def test_table2_makes_up_no_grade_points_or_pass(analyzed: Path) -> None:
    """Appendix A Table 2 under the own rubric: raw points only (the paper's 0-18 table is for raw 0-100)."""
    results = json.loads((analyzed / "results.json").read_text(encoding="utf-8"))
    (row,) = [r for r in results["rq1"]["appendix_a"]["final"]["table2"] if r["row"] == "sys"]
    assert row["raw"]["mean"] == pytest.approx(14.0)  # (18 + 21 + 3) / 3 raw points of 30
    assert row["grade_points"] is None and row["pass_rate"] is None
    assert row["h_grade_points"] is None and row["h_pass_rate"] is None
    table = (analyzed / "tables" / "rq1_table2.md").read_text(encoding="utf-8")
    (line,) = [ln for ln in table.splitlines() if ln.startswith("| sys |")]
    assert line.split(" | ")[4:6] == ["—", "—"]


def test_table1_shows_the_primary_judge_rubric_group(tmp_path: Path) -> None:
    """One task with its own Bewertungsbogen makes its own judge group; Table 1 of `analyze` is the group of the
    primary judge configuration (2 of the 3 generations), not whichever group sorts first (found in the walk of
    docs/own-study.md: Table 1 showed the one Bewertungsbogen generation, n = 1)."""
    from benger.analysis._compute import compute_all

    rubric_file = tmp_path / "drei.yaml"
    rubric_file.write_text(RUBRIC, encoding="utf-8")
    corpus_rubric = load_rubric(rubric_file)
    bogen = yaml.safe_load(RUBRIC) | {"name": "a-bogen"}  # sorts before drei@...
    tasks = [
        FalloesungTask(
            task_id=f"t{i}",
            corpus="meine",
            area="Zivilrecht",
            facts=f"SV {i}",
            reference=f"ML {i}",
            rubric=bogen if i == 3 else None,
        )
        for i in (1, 2, 3)
    ]
    db = tmp_path / "own.db"
    store = open_store(db)
    store.add_corpus(Corpus(name="meine", tasks=tasks))
    for task, (gid, total) in zip(tasks, JUDGE.items(), strict=True):
        rubric = rubric_for_task(task, {"meine": corpus_rubric})
        store.save_generation(Generation(generation_id=gid, task_id=task.task_id, corpus="meine", system="sys",
                                         config_hash="c", text="Lösung"))  # fmt: skip
        store.save_judgement(Judgement(
            judgement_id=f"j-{gid}", target_kind="generation", target_id=gid, judge="mein-judge",
            judge_config_hash="jh", rubric_id=rubric.id, status="scored",
            dimensions=dict(zip("abc", _dims(total), strict=True)), total=float(total),
            grade_points=None, passed=None))  # fmt: skip
    try:
        data = StudyData.from_store(store, corpus="meine", rubrics={"meine": corpus_rubric})
    finally:
        store.close()
    assert data.rubric_scales == {corpus_rubric.id: 30.0, rubric_for_task(tasks[2]).id: 30.0}
    block = compute_all(data, seed=1, n_boot=20)["rq1"]["leaderboard"]
    (row,) = [r for r in block["rows"] if r["kind"] == "system"]
    assert row["rubric"] == corpus_rubric.id and row["bench"]["n"] == 2
    assert row["bench"]["raw"] == pytest.approx(19.5)  # (18 + 21) / 2
    assert block["unit"] == f"raw score 0-30 (rubric {corpus_rubric.id})"


def test_viewer_leaderboard_figure_on_the_own_rubric_scale(tmp_path: Path) -> None:
    """The viewer's leaderboard figure under the own 30-point rubric without a pass rule: no 0-100 axis, no pass
    line at 50, a caption that says whose scale it is."""
    from benger.web.access import Principal
    from benger.web.viewer import create_viewer_app

    db, _ = _store(tmp_path)
    store = open_store(db)
    try:
        with TestClient(create_viewer_app(store, Principal.local())) as client:
            page = client.get("/view/")
    finally:
        store.close()
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert "auf der Skala der eigenen Rubrik" in text and "Bestehensgrenze 50" not in text
    (svg,) = re.findall(r"<svg class=\"figure\".*?</svg>", text, re.S)
    assert 'class="pass"' not in svg  # the rubric has no pass rule
    ticks = re.findall(r'class="tick">([^<]*)<', svg)
    assert ticks[0] == "0" and "100" not in ticks and float(ticks[-1]) < 100
    assert re.search(r"<figcaption>meine · drei@1\+\w+ \(0–[\d.]+\)</figcaption>", text)


@given(
    reviews=st.lists(
        st.tuples(
            st.sampled_from([20.0, 30.0, 100.0]),
            st.floats(0, 1),
            st.one_of(st.none(), st.integers(0, 4)),
            st.one_of(st.none(), st.booleans()),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_as_percent_never_makes_up_grades(reviews: list[tuple[float, float, int | None, bool | None]]) -> None:
    """Property: a review keeps "no grade points" / "no pass" on the percent scale; what it has is the paper's
    0-18 table of its percent, and the percent lies in 0..100."""
    from benger.analysis._data import ReviewRow, Solution
    from benger.analysis._percent import as_percent
    from benger.judge import grade_points, passed

    ids = [f"s{i}" for i in range(len(reviews))]
    rows = [ReviewRow(sid, "g", "blind", share * total, gp, ok, {}, i)
            for i, (sid, (total, share, gp, ok)) in enumerate(zip(ids, reviews, strict=True))]  # fmt: skip
    data = StudyData(
        systems={}, task_areas={}, generations=[], solutions={s: Solution(s, "llm", "llm_system", "t", None, None)
        for s in ids}, reviews=rows, judge_scores={}, judge_labels={}, primary_judge="j", repeats={},
    )  # fmt: skip
    out = as_percent(data, {sid: total for sid, (total, *_) in zip(ids, reviews, strict=True)})
    for before, after, (_, share, _, _) in zip(rows, out.reviews, reviews, strict=True):
        assert after.raw == pytest.approx(100 * share) and 0 <= after.raw <= 100 + 1e-9
        assert (after.grade_points is None) == (before.grade_points is None)
        assert (after.passed is None) == (before.passed is None)
        if after.grade_points is not None:
            assert after.grade_points == grade_points(min(after.raw, 100.0))
        if after.passed is not None:
            assert after.passed == passed(min(after.raw, 100.0))

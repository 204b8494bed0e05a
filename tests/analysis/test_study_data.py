"""StudyData from a store and from hand-made records: the analyses follow the data, not the release's names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benger.analysis import StudyData, compute_all
from benger.analysis._data import GenScore, ReviewRow, Solution, SystemMeta
from benger.analysis._rq5 import alt_tests, human_irr, inter_judge_rank, judge_vs_pool

DIMS = {"ergebnisrichtigkeit": 10.0}


def _review(sid: str, grader: str, raw: float, pos: int, role: str = "blind") -> ReviewRow:
    from benger.judge import grade_points

    gp = grade_points(raw)
    return ReviewRow(sid, grader, role, raw, gp, gp >= 4, dict(DIMS), pos)


def _synthetic() -> StudyData:
    """6 LLM solutions reviewed by raters r1..r3 (blind) and c1 (creator); two judges named j-a and j-b."""
    blind = {
        "s1": (40, 50, 60),
        "s2": (60, 70, 80),
        "s3": (20, 30, 40),
        "s4": (70, 70, 70),
        "s5": (50, 55, 60),
        "s6": (80, 85, 90),
    }
    reviews, pos = [], 0
    for sid, scores in blind.items():
        for grader, raw in zip(("r1", "r2", "r3"), scores, strict=True):
            reviews.append(_review(sid, grader, raw, pos))
            pos += 1
        reviews.append(_review(sid, "c1", float(sum(scores)) / 3 + 1, pos, "creator"))
        pos += 1
    means = {sid: sum(v) / 3 for sid, v in blind.items()}
    gens = [
        GenScore(sid, ("sys-x", "sys-y", "sys-z")[i % 3], f"t{i // 3}", means[sid], dict(DIMS))
        for i, sid in enumerate(blind)
    ]
    return StudyData(
        systems={
            "sys-x": SystemMeta("sys-x", "X", "flagship", "P1", "closed"),
            "sys-y": SystemMeta("sys-y", "Y", "open_reference", "P2", "open"),
            "sys-z": SystemMeta("sys-z", "Z", "efficiency", "P1", "closed"),
        },
        task_areas={"t0": "Zivilrecht", "t1": "Strafrecht", "t2": "Zivilrecht"},
        generations=gens,
        solutions={sid: Solution(sid, "llm", "llm_system", "t0", "Zivilrecht", "sys-x") for sid in blind},
        reviews=reviews,
        judge_scores={"j-a": dict(means), "j-b": {sid: m + 10 for sid, m in means.items()}},
        judge_labels={"j-a": "Judge A", "j-b": "Judge B"},
        primary_judge="j-a",
    )


def test_judge_equal_to_pool_mean() -> None:
    data = _synthetic()
    exact = judge_vs_pool(data, "j-a", "llm")
    assert exact is not None
    assert (exact["n"], exact["mae_raw"], exact["offset_raw"], exact["pearson"]) == (6, 0.0, 0.0, pytest.approx(1.0))
    shifted = judge_vs_pool(data, "j-b", "llm")
    assert shifted is not None
    # judge B = mean + 10 everywhere: offset 10, MAE 10, bias-corrected MAE 0, correlation still 1
    assert (shifted["offset_raw"], shifted["mae_raw"], shifted["mae_bias_corrected"]) == pytest.approx((10, 10, 0))
    assert human_irr(data)["pooled"]["n"] == 6


def test_compute_all_covers_every_judge_and_is_json() -> None:
    data = _synthetic()
    results = compute_all(data, seed=1, n_boot=100, n_stacked=10)
    json.dumps(results, allow_nan=False)
    assert set(results["rq5"]["alt_test"]) == {"j-a", "j-b"} == set(results["rq5"]["judge_vs_pool"])
    assert results["meta"]["judges"] == ["j-a", "j-b"]
    assert {r["judge"] for r in results["rq5"]["calibration"]["rows"]} == {"j-a", "j-b"}
    assert results["rq4"]["source"] == "unavailable"  # no human solutions in this data
    assert set(results["rq2"]["benchathon"]["by_tier"]) == {"flagship", "open_reference", "efficiency"}
    # every annotator has 6 instances (>= 5): m = 3 for both judges
    assert all(results["rq5"]["alt_test"][j]["llm"]["m_annotators"] == 3 for j in ("j-a", "j-b"))
    assert alt_tests(data)["j-a"]["llm"]["n_instances_total"] == 6


@pytest.mark.release
def test_from_store_matches_from_release(release_dir: Path, tmp_path: Path) -> None:
    from benger.corpora import load_release
    from benger.store import open_store

    store = open_store(tmp_path / "study.db")
    store.import_release(load_release(release_dir))
    data = StudyData.from_store(store)
    assert data.primary_judge == "gpt-5.4-mini"
    assert len(data.final_generations()) == 180 and len(data.reviews) == 180
    # the positional ICC needs the review order the store kept: the paper's 0.632677
    assert human_irr(data)["pooled"]["icc_2_1_raw"] == pytest.approx(0.632677, abs=5e-7)
    # the LLM picks' judge scores come from the stored primary-judge judgements (paper: r = 0.64 on LLM picks)
    llm = judge_vs_pool(data, "gpt-5.4-mini", "llm")
    assert llm is not None and llm["n"] == 15 and round(llm["pearson"], 2) == 0.64


def test_inter_judge_agreement_from_per_generation_scores() -> None:
    data = _synthetic()
    primary = {g.generation_id: g.raw for g in data.generations}
    # judge B = primary + 10 on every generation; judge C reverses the order of the per-system means
    data.generation_judge_scores = {
        "j-a": primary,
        "j-b": {k: v + 10 for k, v in primary.items()},
        "j-c": {k: 100 - v for k, v in primary.items()},
    }
    res = inter_judge_rank(data)
    assert res["source"] == "per_annotation" and res["n_cells"] == 6
    assert res["judges"]["j-b"]["spearman"] == pytest.approx(1.0)
    assert res["judges"]["j-c"]["spearman"] == pytest.approx(-1.0)
    assert res["judges"]["j-c"]["kendall"] == pytest.approx(-1.0)
    pair = res["pairwise"]["j-a__j-b"]
    assert (pair["n"], pair["mae"], pair["pearson"]) == (6, pytest.approx(10.0), pytest.approx(1.0))


def _store_with_two_signatures_and_repeats(path: Path) -> Any:
    from benger.schema import Corpus, FalloesungTask, Generation, Judgement
    from benger.store import open_store

    store = open_store(path)
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="benchathon", area="Zivilrecht", facts="S", reference="R")
        for i in range(3)
    ]
    store.add_corpus(Corpus(name="benchathon", tasks=tasks))
    for i, t in enumerate(tasks):
        for system in ("a", "b"):
            gid = f"{system}-{t.task_id}"
            store.save_generation(Generation(generation_id=gid, task_id=t.task_id, system=system, config_hash=system))
            for r, total in enumerate((40.0 + 10 * i, 60.0 + 10 * i) if system == "a" else (70.0,)):
                store.save_judgement(
                    Judgement(
                        judgement_id=f"{gid}-{r}",
                        target_kind="generation",
                        target_id=gid,
                        judge="J",
                        judge_config_hash="jh",
                        rubric_id="falloesung@1+x",
                        repeat_index=r,
                        status="scored",
                        total=total,
                    )
                )
            # another configuration of judge J on the same generation: never mixed into the primary scores
            store.save_judgement(
                Judgement(
                    judgement_id=f"{gid}-other",
                    target_kind="generation",
                    target_id=gid,
                    judge="J",
                    judge_config_hash="other",
                    rubric_id="falloesung@1+x",
                    status="scored",
                    total=0.0,
                )
            )
            store.save_metric_value("generation", gid, "bleu", "bleu@new", 0.5)
            if i == 0:  # one value under an older signature: a minority, never pooled into the column
                store.save_metric_value("generation", gid, "bleu", "bleu@old", 0.9)
    return store


def test_from_store_one_signature_per_metric_and_one_judge_configuration(tmp_path: Path) -> None:
    """Issue 10 obs. 6 (store side): one signature per metric; the primary judge configuration's repeat mean."""
    store = _store_with_two_signatures_and_repeats(tmp_path / "sig.db")
    data = StudyData.from_store(store)
    assert data.inputs["metric_signatures"] == {"bleu": "bleu@new"}
    assert set(data.metrics["bleu"].values()) == {0.5} and len(data.metrics["bleu"]) == 6
    chosen = StudyData.from_store(store, metric_signatures={"bleu": "bleu@old"})
    assert chosen.metrics["bleu"] == {"a-t0": 0.9, "b-t0": 0.9}
    # per generation: mean of J's repeats under its first configuration (jh: 6 first passes, other: 6 -> "jh"
    # wins the tie alphabetically); a-t1 = (50 + 70)/2 = 60, b-t1 = 70; never the 0.0 of the other configuration
    raw = {g.generation_id: g.raw for g in data.generations}
    assert raw == {"a-t0": 50.0, "a-t1": 60.0, "a-t2": 70.0, "b-t0": 70.0, "b-t1": 70.0, "b-t2": 70.0}
    assert data.inputs["primary_judge_config"] == {"judge": "J", "judge_config_hash": "jh", "rubric": "falloesung@1+x"}
    store.close()


def test_analyze_leaderboard_is_the_leaderboard_of_the_store(tmp_path: Path) -> None:
    """Issue 10 obs. 4: the store's Table 1 block is `benger leaderboard`'s board for the primary judge."""
    from benger.analysis import leaderboard_from_store
    from benger.analysis.leaderboard.table1 import table1_from_study

    store = _store_with_two_signatures_and_repeats(tmp_path / "lb.db")
    data = StudyData.from_store(store)
    block = table1_from_study(data, seed=7, n_boot=500)
    board = leaderboard_from_store(store, seed=7, n_resamples=500)
    assert block is not None and block["inputs"]["judge_group"] == "J [jh, falloesung@1+x]"
    expected = [(r.system, r.rank, r.n, r.mean, r.ci_low, r.ci_high) for r in board.rows if r.judge_config_hash == "jh"]
    got = [
        (r["system"], r["rank"], r["bench"]["n"], r["bench"]["raw"], r["bench"]["low"], r["bench"]["high"])
        for r in block["rows"]
    ]
    assert got == expected and [g[0] for g in got] == ["b", "a"]  # b: 70, a: (50 + 60 + 70)/3 = 60
    assert StudyData.from_release is not None and table1_from_study(_synthetic()) is None
    store.close()


def test_a_store_is_a_new_study_resampled_by_task(tmp_path: Path) -> None:
    """Issue 24 item 2: data read from a store (benger analyze) resample RQ3 / RQ4 by task; the release keeps
    the paper's rule (tests/analysis/test_rq34_task_unit.py has the numbers)."""
    from benger.analysis._rq34 import metric_validity

    store = _store_with_two_signatures_and_repeats(tmp_path / "unit.db")
    data = StudyData.from_store(store)
    assert data.resampling_unit == "task" and _synthetic().resampling_unit == "generation"
    per_generation = metric_validity(data, n_boot=200)["per_generation"]
    assert per_generation["inputs"]["resampling_unit"] == "task" and "the task" in per_generation["method"]
    cell = per_generation["metrics"]["bleu"]
    assert cell["n"] == 6 and cell["n_tasks"] == 3
    store.close()

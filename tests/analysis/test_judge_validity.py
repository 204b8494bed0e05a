"""Issue 24 item 4: judge validity travels with the scores (stored validations, a status on every row, failed
judges' rows marked "scores not meaningful" in the terminal table, CSV, JSON and Markdown)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

from benger.analysis.leaderboard import NOT_MEANINGFUL, judge_status, leaderboard, leaderboard_from_store
from benger.analysis.leaderboard.validity import RELEASED_VALIDATIONS, status_block
from benger.judge._released import PRIMARY_JUDGE, RELEASE_JUDGE_CONFIG_HASH
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store
from benger.store._validations import JudgeValidation

TASKS = [FalloesungTask(task_id=f"t{i}", corpus="fall", area="Zivilrecht", facts="SV", reference="ML")
         for i in range(3)]  # fmt: skip


def _failed(when: int = 1) -> JudgeValidation:
    return JudgeValidation(judge="tiny", judge_config_hash="jh-tiny", rubric_id="falloesung@1+abc",
                           picks="BenGER picks", n_picks=12, pearson=-0.74, kappa=-0.1, omega=0.0,
                           verdict="fails", validated_at=datetime(2026, 12, when, tzinfo=UTC))  # fmt: skip


def _records() -> tuple[list[Generation], list[Judgement]]:
    gens = [Generation(generation_id=f"g{i}", task_id=f"t{i}", system="S", config_hash="h", text="x")
            for i in range(3)]  # fmt: skip
    judgements = [
        Judgement(judgement_id=f"g{i}-{judge}", target_kind="generation", target_id=f"g{i}", judge=judge,
                  judge_config_hash=f"jh-{judge}", rubric_id="falloesung@1+abc", repeat_index=0, status="scored",
                  total=83.0, grade_points=13, passed=True)
        for i in range(3) for judge in ("tiny", "other")
    ]  # fmt: skip
    return gens, judgements


def test_status_labels() -> None:
    assert judge_status("tiny", "jh-tiny", [_failed()]).label == (
        f"failed on BenGER picks (falloesung@1+abc): r = −0.74, ω = 0.00 — {NOT_MEANINGFUL}"
    )
    assert not judge_status("tiny", "jh-tiny", [_failed()]).meaningful
    assert judge_status("nobody", "x", []).label == "not validated"
    primary = judge_status(PRIMARY_JUDGE, RELEASE_JUDGE_CONFIG_HASH)
    assert (primary.label, primary.meaningful) == ("validated on BenGER picks: ω = 0.60, passes", True)
    # another configuration of a validated judge name says which configuration the verdict is about
    assert judge_status("tiny", "jh-new", [_failed()]).label.endswith("(as judge config jh-tiny)")
    passing = _failed(2).model_copy(update={"verdict": "passes", "omega": 0.7, "pearson": 0.8})
    assert judge_status("tiny", "jh-tiny", [_failed(1), passing]).state == "passes"  # the newest one counts


def test_a_failed_judges_rows_say_their_scores_are_not_meaningful() -> None:
    """Before: the demo's 0.5B judge gave 83/100, pass 100 %, with r = −0.74 and no sign of it on the row."""
    gens, judgements = _records()
    board = leaderboard(gens, judgements, {t.task_id: t for t in TASKS}, validations=[_failed()])
    rows = {r.judge: r for r in board.rows}
    assert (rows["tiny"].scores_meaningful, rows["other"].scores_meaningful) == (False, True)
    assert rows["other"].judge_status == "not validated"
    md = board.to_markdown()
    assert NOT_MEANINGFUL in md and "Judge validation failed for tiny [jh-tiny]" in md
    exported = {r["judge"]: r for r in csv.DictReader(io.StringIO(board.to_csv()))}
    assert exported["tiny"]["scores_meaningful"] == "False" and NOT_MEANINGFUL in exported["tiny"]["judge_status"]
    assert json.loads(board.to_json())["rows"][0]["judge_status"] is not None
    from rich.console import Console

    console = Console(record=True, width=400)
    console.print(board.to_rich())
    assert NOT_MEANINGFUL in console.export_text()


def test_validations_are_stored_and_read_by_the_store_leaderboard(tmp_path: Path) -> None:
    store = open_store(tmp_path / "v.db")
    try:
        store.add_corpus(Corpus(name="fall", tasks=TASKS))
        gens, judgements = _records()
        for g in gens:
            store.save_generation(g)
        for j in judgements:
            store.save_judgement(j)
        store.save_judge_validation(_failed(1))
        store.save_judge_validation(_failed(1).model_copy(update={"pearson": -0.5}))  # same key: replaced
        (stored,) = store.judge_validations()
        assert stored.pearson == -0.5 and stored.verdict == "fails"
        board = leaderboard_from_store(store)
        tiny = next(r for r in board.rows if r.judge == "tiny")
        assert not tiny.scores_meaningful and "r = −0.50" in (tiny.judge_status or "")
        assert judge_status("tiny", "jh-tiny", store=store).state == "failed"
    finally:
        store.close()
    assert RELEASED_VALIDATIONS[0].judge == PRIMARY_JUDGE


def test_reproduce_table_1_rows_name_the_primary_judges_released_validation() -> None:
    """Issue 24 item 4: the paper's rows (release data, not a store) carry the primary judge's released status."""
    from benger.analysis._data import GenScore, StudyData, SystemMeta
    from benger.analysis._rq12 import leaderboard as table_1
    from benger.analysis.results._models import LeaderboardRow as Table1Row
    from benger.report._tables import leaderboard_table

    data = StudyData(
        systems={"a": SystemMeta("a", "A", "flagship", None, None)},
        task_areas={f"t{i}": "Zivilrecht" for i in range(3)},
        generations=[GenScore(f"g{i}", "a", f"t{i}", raw, {}) for i, raw in enumerate((40.0, 55.0, 70.0))],
        solutions={}, reviews=[], judge_scores={"j": {}}, judge_labels={"j": "J"}, primary_judge="j",
        judge_status=status_block(PRIMARY_JUDGE, RELEASE_JUDGE_CONFIG_HASH),  # as study_from_release sets it
    )  # fmt: skip
    block = table_1(data, n_boot=200)
    (row,) = [r for r in block["rows"] if r["kind"] == "system"]  # then the (empty) human rows
    label = "validated on BenGER picks: ω = 0.60, passes"
    assert (row["judge"], row["judge_status"], row["scores_meaningful"]) == (PRIMARY_JUDGE, label, True)
    assert label == judge_status(PRIMARY_JUDGE, RELEASE_JUDGE_CONFIG_HASH).label
    from benger.analysis.results._models import Leaderboard as Table1

    board = Table1.model_validate({**block, "rows": [Table1Row.model_validate(row)]})
    table = leaderboard_table(board)
    assert table.columns[-1] == "Judge status" and table.rows[0][-1] == label  # type: ignore[union-attr]

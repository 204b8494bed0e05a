"""Issue 24 item 4: every judge-based table of the report names the judge and its validation status
(``meta.judge_status``, one note helper: ``benger.report._fmt.judge_note``), for ``reproduce`` and for a store."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests.report.conftest import make_results, typed

from benger.analysis.leaderboard import NOT_MEANINGFUL
from benger.report._build import NOT_JUDGE_BASED, build_sections
from benger.report._model import Missing, Table
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import open_store
from benger.store._validations import JudgeValidation

PASSES = "validated on BenGER picks: ω = 0.60, passes"


def _tables(results: dict[str, Any], tmp_path: Path) -> list[Table | Missing]:
    return [i for s in build_sections(typed(results), tmp_path) for i in s.items if isinstance(i, Table | Missing)]


def _assert_every_judge_table_has(items: list[Table | Missing], note: str) -> list[str]:
    """Every table of the registry is exempt (``NOT_JUDGE_BASED``) or, when built, ends with ``note``."""
    built = []
    for item in items:
        if item.id in NOT_JUDGE_BASED or isinstance(item, Missing):
            continue
        assert item.notes and item.notes[-1] == note, (item.id, item.notes)
        built.append(item.id)
    return built


@pytest.mark.parametrize(
    ("status", "note"),
    [
        (None, "Judge: GPT-5.4-mini (primary); validation status not recorded."),
        (
            {"judge": "gpt54mini", "judge_config_hash": "abcdef0123", "state": "passes", "label": PASSES,
             "scores_meaningful": True},
            f"Judge: GPT-5.4-mini (primary), config abcdef01; {PASSES}.",
        ),
        (  # a results.json whose label does not say it: the note still does
            {"judge": "tiny", "judge_config_hash": None, "state": "failed", "label": "failed: r = −0.74",
             "scores_meaningful": False},
            f"Judge: tiny; failed: r = −0.74 — {NOT_MEANINGFUL}.",
        ),
    ],
)  # fmt: skip
def test_each_judge_based_table_of_the_registry_carries_the_note(
    status: dict[str, Any] | None, note: str, tmp_path: Path
) -> None:
    results = make_results()
    if status is not None:
        results["meta"]["judge_status"] = status
    built = _assert_every_judge_table_has(_tables(results, tmp_path), note)
    assert {"leaderboard", "rq2_groups", "rq3_metrics", "rq4_delta", "paired_systems"} <= set(built)


def test_exempt_tables_are_tables_of_the_registry_and_carry_no_judge_note(tmp_path: Path) -> None:
    items = _tables(make_results(), tmp_path)
    ids = {i.id for i in items}
    assert set(NOT_JUDGE_BASED) <= ids  # each exemption names a table the registry builds
    for item in items:
        if isinstance(item, Table) and item.id in NOT_JUDGE_BASED:
            assert not any(n.startswith("Judge: ") for n in item.notes), item.id


TASKS = [FalloesungTask(task_id=f"t{i}", corpus="fall", area="Zivilrecht", facts="SV", reference="ML")
         for i in range(5)]  # fmt: skip


def test_a_store_with_a_failed_judge_marks_every_judge_table(tmp_path: Path) -> None:
    """Before: only Table 1 said the store's judge failed validation; RQ2/RQ3/RQ4 and the paired tests did not."""
    from benger.report._run import analyze

    db = tmp_path / "s.db"
    store = open_store(db)
    try:
        store.add_corpus(Corpus(name="fall", tasks=TASKS))
        for name, tier, weights in (("A", "flagship", "closed"), ("B", "efficiency", "open")):
            store.upsert_system(SystemConfig(name=name, provider="local", model=name, tier=tier, weights=weights))
        for i, (system, raw) in enumerate((s, r) for s in ("A", "B") for r in (40.0, 55.0, 70.0, 62.0, 48.0)):
            gid = f"{system}{i}"
            store.save_generation(Generation(generation_id=gid, task_id=f"t{i % 5}", system=system,
                                             config_hash=f"h{system}", text="x"))  # fmt: skip
            store.save_judgement(Judgement(judgement_id=f"j{gid}", target_kind="generation", target_id=gid,
                                           judge="tiny", judge_config_hash="jh-tiny", rubric_id="falloesung@1+abc",
                                           repeat_index=0, status="scored", total=raw))  # fmt: skip
            store.save_metric_value("generation", gid, "rouge_l", "rouge_l@test", raw / 100 + (i % 3) / 10)
        store.save_judge_validation(
            JudgeValidation(
                judge="tiny",
                judge_config_hash="jh-tiny",
                rubric_id="falloesung@1+abc",
                picks="BenGER picks",
                n_picks=12,
                pearson=-0.74,
                kappa=-0.1,
                omega=0.0,
                verdict="fails",
                validated_at=datetime(2026, 12, 1, tzinfo=UTC),
            )
        )
    finally:
        store.close()
    out = tmp_path / "out"
    analyze(f"sqlite:///{db}", out, n_boot=100, corpora=["fall"])
    meta = json.loads((out / "results.json").read_text("utf-8"))["meta"]
    label = f"failed on BenGER picks (falloesung@1+abc): r = −0.74, ω = 0.00 — {NOT_MEANINGFUL}"
    assert meta["judge_status"] == {"judge": "tiny", "judge_config_hash": "jh-tiny", "state": "failed",
                                    "label": label, "scores_meaningful": False}  # fmt: skip
    note = f"Judge: tiny, config jh-tiny; {label}."
    results = json.loads((out / "results.json").read_text("utf-8"))
    built = _assert_every_judge_table_has(_tables(results, tmp_path / "again"), note)
    assert {"leaderboard", "rq1_table5", "rq2_groups", "rq3_metrics", "paired_systems"} <= set(built), built
    for tid in built:  # and in the written Markdown
        assert note in (out / "tables" / f"{tid}.md").read_text("utf-8"), tid

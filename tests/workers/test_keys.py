"""A worker computes the same unit keys and prompts as the local runner, judge options included."""

from __future__ import annotations

from pathlib import Path

from benger.judge import falloesung_rubric
from benger.pipeline import (
    JudgeUnit,
    PromptSet,
    judgement_id,
    pipeline_config_hash,
    plan_judgements,
    run_prompts,
)
from benger.schema import SystemConfig, stable_hash
from benger.store import open_store
from benger.workers import record_id
from benger.workers._executor import CeleryExecutor
from benger.workers._tasks import _prompts

from .conftest import make_corpora, run_config

JUDGE = SystemConfig(name="j", provider="openai-compatible", model="j", base_url="http://127.0.0.1:9/v1")


def test_worker_judge_key_includes_the_judge_options(tmp_path: Path) -> None:
    store = open_store(tmp_path / "keys.db")
    for corpus in make_corpora(n_fall=1, n_gp=0):
        store.add_corpus(corpus)
    local = PromptSet(judge_brief=True, judge_max_justification_chars=300)
    worker = _prompts(local.options())  # what the worker rebuilds from a task payload
    assert worker == local and worker.options() == local.options()
    rubric = falloesung_rubric()
    unit = JudgeUnit(target_kind="human_solution", target_id="s1", judge=JUDGE, rubric_id=rubric.id)
    # hand-built: the judge hash covers the template hash and [score_enum, max_chars, brief]
    template_hash = local.judge_template(rubric.name).hash
    judge_hash = pipeline_config_hash(JUDGE, stable_hash([template_hash, [False, 300, True]]))
    expected = judgement_id("human_solution", "s1", judge_hash, rubric.id, 0)
    assert record_id(store, unit, worker) == expected
    # the old key (template hash only) named a different row than the runner writes
    assert expected != judgement_id("human_solution", "s1", pipeline_config_hash(JUDGE, template_hash), rubric.id, 0)
    # the runner's planning looks the unit up under the same key
    planned = plan_judgements(store, [("human_solution", "s1", "falloesung")], [JUDGE], local)
    assert record_id(store, planned[0], worker) == expected
    store.close()


def test_celery_payload_carries_every_prompt_option(tmp_path: Path) -> None:
    config = run_config("http://127.0.0.1:9/v1", executor="celery").model_copy(
        update={"judge_brief": True, "judge_score_enum": True, "min_solution_chars": 500}
    )
    store = open_store(tmp_path / "payload.db")
    executor = CeleryExecutor.for_run(config, store)
    unit = JudgeUnit(target_kind="human_solution", target_id="s1", judge=JUDGE, rubric_id=falloesung_rubric().id)
    sent = executor._payload(unit, 0.0)["prompts"]
    assert sent["judge_brief"] is True and sent["judge_score_enum"] is True and sent["min_solution_chars"] == 500
    assert _prompts(sent) == run_prompts(config)  # the worker's PromptSet is the local runner's
    assert _prompts({}) == PromptSet()  # an old payload with only (no) overrides still works
    store.close()

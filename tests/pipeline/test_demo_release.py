"""``benger demo --release`` (issue 13 §4): what the demo runs on the release, and how its contexts are sized."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora import load_release
from benger.pipeline._demo import (
    DEMO_JUDGE_MAX_OUTPUT_TOKENS,
    DEMO_MAX_OUTPUT_TOKENS,
    release_demo_config,
    release_demo_plan,
    sample_principles,
)
from benger.pipeline._fit import chars_counter
from benger.schema import FalloesungTask

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def release(release_dir: Path):  # type: ignore[no-untyped-def]
    return load_release(release_dir)


def test_principle_sample_is_balanced_and_spread(release) -> None:  # type: ignore[no-untyped-def]
    items = list(release.grundprinzipien.tasks)
    sample = sample_principles(items, 10)
    assert len(sample) == len({t.task_id for t in sample}) == 10
    assert sum(t.gold_answer == "Ja" for t in sample) == 5 and sum(t.gold_answer == "Nein" for t in sample) == 5
    ja = sorted(t.task_id for t in items if t.gold_answer == "Ja")
    assert [t.task_id for t in sample[:5]] == ja[:: len(ja) // 5][:5]  # evenly spaced over the id order


def test_plan_sizes_the_contexts_from_the_prompts(release) -> None:  # type: ignore[no-untyped-def]
    plan = release_demo_plan(release, chars_counter, n_gp=4, n_cases=2, n_picks=2)
    assert len(plan["gp"]) == 4 and len(plan["cases"]) == 2 and list(plan["picks"]) == plan["cases"]
    # each case's picks belong to it, human picks first: their judge prompts share the case's prefix
    for case, picks in plan["picks"].items():
        own = {p.subject_id: p.subject_type for p in release.picks if p.task_id == case}
        assert [own.get(sid) for _, sid in picks] == ["human", "human"]
        assert {kind for kind, _ in picks} == {"human_solution"}
    tokens = plan["prompt_tokens"]
    assert plan["n_ctx_judge"] >= tokens["judge_max"] + DEMO_JUDGE_MAX_OUTPUT_TOKENS
    assert plan["n_ctx_system"] >= tokens["generation_max"] + DEMO_MAX_OUTPUT_TOKENS
    assert plan["n_ctx_judge"] % 512 == 0 and plan["n_ctx_judge"] <= 32768
    # the real Benchathon judge prompts do not fit the built-in demo's 8192-token context
    assert tokens["judge_max"] > 8192 - DEMO_JUDGE_MAX_OUTPUT_TOKENS
    config = release_demo_config(plan)
    assert config.resolved_judges()[0].params["n_ctx"] == plan["n_ctx_judge"]
    assert config.filters.tasks == [*plan["gp"], *plan["cases"]]
    assert config.min_output_tokens == 50  # a short real Falllösung is still judged (185 tokens were measured)


def test_the_case_is_the_cheapest_with_its_picks(release) -> None:  # type: ignore[no-untyped-def]
    """The case minimises judge prefix + generation prompt + its three picks (what the demo evaluates)."""
    from benger.pipeline._demo import demo_config
    from benger.pipeline._execute import task_and_reference
    from benger.pipeline._orchestrate import run_prompts
    from benger.pipeline._units import rubric_for_kind

    plan = release_demo_plan(release, chars_counter, n_gp=2, n_cases=15, n_picks=3)
    assert len(plan["cases"]) == 15
    first = release_demo_plan(release, chars_counter, n_gp=2, n_cases=1, n_picks=3)
    assert first["cases"] == plan["cases"][:1]
    (picks,) = first["picks"].values()
    kinds = [(kind, next(p.subject_type for p in release.picks if p.subject_id == sid)) for kind, sid in picks]
    assert kinds == [("human_solution", "human"), ("human_solution", "human"), ("generation", "model")]
    prompts = run_prompts(demo_config())
    rubric = rubric_for_kind("falloesung")
    template = prompts.judge_template(rubric.name)

    def cost(task):  # type: ignore[no-untyped-def]
        text, reference = task_and_reference(task)
        prefix = chars_counter(template.render(rubric, task=text, reference=reference, candidate="", brief=True))
        gen = sum(chars_counter(m.content) for m in prompts.generation_messages(task))
        return prefix + gen + sum(chars_counter(p.text) for p in release.picks if p.task_id == task.task_id)

    costs = sorted((cost(t), t.task_id) for t in release.benchathon.tasks)
    assert first["cases"] == [costs[0][1]] and costs[0][0] < costs[1][0]


def test_a_missing_release_folder_is_an_input_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--release", str(tmp_path / "nope"), "--db", str(tmp_path / "d.db")])
    assert result.exit_code == 2
    assert "nope" in result.output and "no such folder" in result.output


def test_release_demo_end_to_end_with_a_stub_model(
    tmp_path: Path, release_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's whole flow on the release (import, generate, judge, leaderboard beside the paper's systems,
    judge validation on real picks) with the stub server standing in for the slow embedded model."""
    import benger.pipeline._demo as demo_module
    from benger.testing.stub_server import run_stub_server

    real_config = demo_module.release_demo_config
    with run_stub_server(latency_ms=1) as stub:

        def stub_config(plan):  # type: ignore[no-untyped-def]
            spec = {"provider": "openai-compatible", "base_url": stub.base_url, "temperature": 0.0}
            config = real_config(plan)
            return config.model_copy(
                update={
                    "systems": [{"name": "stub-local", "model": "stub", **spec}],
                    "judges": [{"name": "stub-local (judge)", "model": "stub-judge", **spec}],
                    "prompts": {},
                    "falloesung_format": "json",
                }
            )

        monkeypatch.setattr(demo_module, "release_demo_config", stub_config)
        db = tmp_path / "demo.db"
        result = runner.invoke(
            app, ["demo", "--release", str(release_dir), "--db", str(db), "-q", "--limit", "4"],
            env={"COLUMNS": "250"},
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Opus-4.7" in out and "stub-local" in out  # the local system beside the paper's systems
    assert "not comparable" in out
    assert "Judge validation on 6 real picks (4 human and 2 LLM" in out and "GPT-5.4-mini (paper)" in out
    from benger.store import open_store

    store = open_store(str(db))
    try:
        gens = [g for g in store.generations() if g.system == "stub-local"]
        assert len(gens) == 6  # 4 Grundprinzipien items + 2 Benchathon cases
        judged = {j.target_id for j in store.judgements(judge="stub-local (judge)")}
        assert {g.generation_id for g in gens if g.status == "ok"} <= judged
        assert sum(1 for j in store.judgements(judge="stub-local (judge)", target_kind="human_solution")) == 4
        cases = [g for g in gens if isinstance(store.get_task(g.task_id), FalloesungTask)]
        assert len(cases) == 2
        for case in cases:
            picks = [p for p in load_release(release_dir).picks if p.task_id == case.task_id]
            llm_pick = next(p.subject_id for p in picks if p.subject_type == "model")
            assert llm_pick in judged  # the LLM pick's released generation, judged by the demo judge
        # issue 24: the demo stored its judge's validation, and the local judge's rows carry that verdict
        from benger.analysis import leaderboard_from_store
        from benger.analysis.leaderboard import judge_status

        (validation,) = [v for v in store.judge_validations() if v.judge == "stub-local (judge)"]
        status = judge_status(validation.judge, validation.judge_config_hash, store=store)
        rows = [r for r in leaderboard_from_store(store).rows if r.judge == "stub-local (judge)"]
        assert rows and status.state != "not validated"
        # the Benchathon rows are the validated configuration; the Grundprinzipien rows (another rubric, so another
        # judge config hash) carry the same judge's verdict and say which configuration it is about
        assert {r.corpus for r in rows if r.judge_status == status.label} == {"benchathon"}
        assert all((r.judge_status or "").startswith(status.label) for r in rows)
        assert {r.scores_meaningful for r in rows} == {status.meaningful}
        assert status.meaningful == (status.state != "failed") and status.label in result.output
    finally:
        store.close()

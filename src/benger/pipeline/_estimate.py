"""Know the cost first (issue 13 §3): a dry run of a run config, and budget caps that stop a run cleanly.

``estimate_run`` plans exactly what a run would do after resume (``plan_generations`` / ``plan_judgements``:
finished items are not counted), renders every prompt and counts its tokens:

* input tokens: with the model's own tokenizer when it is a local GGUF (llama.cpp, vocabulary only), else
  ``characters / CHARS_PER_TOKEN``. ``CHARS_PER_TOKEN`` = 3.16 was measured with the Qwen2.5 tokenizer on 75
  release texts (15 Benchathon facts + 15 references + 45 validation picks; 297,606 tokens); single texts lie
  between 2.69 and 3.56 characters per token, i.e. the estimate of one German legal text is within -15 % /
  +13 % of that tokenizer's count (other providers' tokenizers differ: see docs/validate-judge.md);
* output tokens: the release's observed mean words per Falllösung of that system (``benchathon_generations_
  stats.json``) x ``TOKENS_PER_WORD`` (2.27, same tokenizer, on the 45 picks) where the system is a paper
  system, else ``max_output_tokens`` (an upper bound); a judge's output is its ``max_output_tokens``;
* time: the release's mean per-call latency of that system (``operational_metadata.json``, Benchathon
  calls) x calls / concurrency where known (an upper bound for short Grundprinzipien items), else unknown;
* cost: catalog prices (USD per 1M tokens) where set; unknown stays ``None``, never 0. The release's mean
  cost per Benchathon generation x the Falllösung calls is shown beside it as an empirical cross-check;
* too long: the units whose prompt + ``max_output_tokens`` exceed the model's context window
  (``benger.pipeline._fit``); ``None`` (unknown, never 0) for a model whose window nothing says, so that
  lengths cannot be checked.

The budget caps that use these counts are in ``benger.pipeline._budget``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benger.judge import Rubric
from benger.llm import token_cost
from benger.llm._context import context_window
from benger.pipeline._config import RunConfig
from benger.pipeline._fit import (
    Counter,
    fit_problem,
    token_counter,
)
from benger.pipeline._orchestrate import check_run, judge_targets, run_prompts, run_rubrics, select_tasks
from benger.pipeline._runner import plan_generations, plan_judgements
from benger.pipeline._units import rubric_for_task
from benger.schema import FalloesungTask, PrincipleItem, SystemConfig

TOKENS_PER_WORD = 2.27


@dataclass(frozen=True)
class Observed:
    """What the release observed per paper system (keyed by catalog name and model id)."""

    words: dict[str, float] = field(default_factory=dict)
    latency_s: dict[str, float] = field(default_factory=dict)
    cost_usd: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_release(cls, path: str | Path | None) -> Observed:
        """Read the per-system observations of the release at ``path``; empty without a release."""
        if path is None:
            return cls()
        from benger.corpora import load_release

        release = load_release(path)
        acc: dict[str, list[float]] = {}
        for row in release.generation_stats:
            acc.setdefault(str(row["model"]), []).append(float(row["words"]))
        words = {k: sum(v) / len(v) for k, v in acc.items()}
        per_call = ((release.operational_metadata or {}).get("per_corpus") or {}).get("benchathon") or {}
        latency = {k: float(v["mean_latency_s"]) for k, v in per_call.items() if v.get("mean_latency_s")}
        cost = {k: float(v["mean_cost_usd"]) for k, v in per_call.items() if v.get("mean_cost_usd")}
        return cls(words=words, latency_s=latency, cost_usd=cost)

    def lookup(self, table: Mapping[str, float], system: SystemConfig) -> float | None:
        for key in (system.model, system.name):
            for name, value in table.items():
                if key == name or name.rsplit("/", 1)[-1] == key.rsplit("/", 1)[-1]:
                    return value
        return None


@dataclass
class StageEstimate:
    """One (stage, model) row of a dry run. ``None`` = unknown (never 0)."""

    stage: str  # "generate" | "judge"
    system: str
    config_id: str
    calls: int
    input_tokens: int
    output_tokens: int
    token_source: str
    output_source: str
    seconds: float | None
    cost_usd: float | None
    observed_cost_usd: float | None
    too_long: int | None = 0  # None: the model's context window is unknown, so lengths were not checked

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Estimate:
    """A dry run: rows per stage and model, with totals (cost ``None`` when any row's cost is unknown)."""

    rows: list[StageEstimate]
    concurrency: int

    @property
    def input_tokens(self) -> int:
        return sum(r.input_tokens for r in self.rows)

    @property
    def output_tokens(self) -> int:
        return sum(r.output_tokens for r in self.rows)

    def cost(self, stage: str | None = None) -> float | None:
        rows = [r for r in self.rows if stage is None or r.stage == stage]
        if any(r.cost_usd is None for r in rows if r.calls):
            return None
        return sum(r.cost_usd or 0.0 for r in rows)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rows": [r.as_dict() for r in self.rows],
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": {"generate": self.cost("generate"), "judge": self.cost("judge"), "total": self.cost()},
            "concurrency": self.concurrency,
        }


def _cost(system: SystemConfig, tokens_in: int, tokens_out: int) -> float | None:
    return token_cost(tokens_in, tokens_out, system.price_in_per_mtok, system.price_out_per_mtok)


def _seconds(observed: Observed, system: SystemConfig, calls: int, concurrency: int) -> float | None:
    latency = observed.lookup(observed.latency_s, system)
    if latency is None:
        return None
    slots = min(concurrency, system.max_concurrency or concurrency)
    return latency * math.ceil(calls / max(slots, 1))


def estimate_run(
    config: RunConfig,
    store: Any,
    *,
    stages: tuple[str, ...] = ("generate", "judge"),
    observed: Observed | None = None,
    counter: Counter | None = None,
) -> Estimate:
    """Dry run of ``config`` on ``store`` (None: no store yet): nothing is called or written, not even the run's
    corpora (sources are read, checked as a run checks them, and planned from as read).

    ``counter`` replaces every model's token counter (e.g. a provider's own tokenizer).
    """
    store = NO_STORE if store is None else store
    observed = observed or Observed()
    prompts = run_prompts(config)
    names, sources = check_run(config, store, stages)
    selected = select_tasks(store, names, config, sources)
    rubrics = run_rubrics(config, names)
    tasks: dict[tuple[str | None, str], TaskLike] = {(t.corpus, t.task_id): t for t in selected}  # (corpus, id)
    systems = config.resolved_systems()
    if config.filters.systems:
        systems = [s for s in systems if s.name in config.filters.systems]
    judges = config.resolved_judges()
    rows: list[StageEstimate] = []
    new_outputs: list[tuple[TaskLike, int]] = []  # (task, expected output tokens) of generations to come
    if "generate" in stages:
        units = plan_generations(store, tasks.values(), systems, prompts, repetitions=config.repetitions)
        for system in systems:
            count, source = (counter, "given tokenizer") if counter else token_counter(system)
            mine = [u for u in units if u.system is system]
            words = observed.lookup(observed.words, system)
            out_each = min(round(words * TOKENS_PER_WORD), system.max_output_tokens) if words else None
            tin = tout = too_long = 0
            n_fall = sum(1 for u in mine if tasks[(u.corpus, u.task_id)].kind == "falloesung")
            for u in mine:
                task = tasks[(u.corpus, u.task_id)]
                n_in = sum(count(m.content) for m in prompts.generation_messages(task))
                n_out = out_each if out_each is not None and task.kind == "falloesung" else system.max_output_tokens
                too_long += fit_problem(system, n_in) is not None
                tin, tout = tin + n_in, tout + n_out
                new_outputs.append((task, n_out))
            rows.append(
                StageEstimate(
                    stage="generate",
                    system=system.name,
                    config_id=system.config_hash()[:8],
                    calls=len(mine),
                    input_tokens=tin,
                    output_tokens=tout,
                    token_source=source,
                    output_source="release mean words x 2.27" if out_each is not None else "max_output_tokens",
                    seconds=_seconds(observed, system, len(mine), config.concurrency),
                    cost_usd=_cost(system, tin, tout),
                    observed_cost_usd=(
                        c * n_fall if (c := observed.lookup(observed.cost_usd, system)) is not None else None
                    ),
                    too_long=_checked(system, too_long),
                )
            )
    if "judge" in stages and judges:
        human = config.judge_human_solutions
        targets = judge_targets(store, list(tasks.values()), systems, prompts, human_solutions=human, rubrics=rubrics)
        upcoming = [(t, n, rubric_for_task(t, rubrics)) for t, n in new_outputs] if "generate" in stages else []
        chosen = [rubric_for_task(t, rubrics) for t in tasks.values()]
        rows += _judge_rows(store, config, targets, observed, counter, upcoming, chosen)
    return Estimate(rows=rows, concurrency=config.concurrency)


TaskLike = FalloesungTask | PrincipleItem


class _NoStore:
    """The reads of an estimate where no store is yet: no corpus, nothing finished, nothing to judge."""

    def corpus_names(self) -> list[str]:
        return []

    def finished_generation_keys(self, _hashes: Any) -> set[Any]:
        return set()

    def scored_judgement_keys(self, _hashes: Any) -> set[Any]:
        return set()

    def generations(self, **_filters: Any) -> list[Any]:
        return []

    def human_solutions(self, *_args: Any, **_filters: Any) -> list[Any]:
        return []


NO_STORE = _NoStore()


def estimate_judging(
    config: RunConfig,
    store: Any,
    targets: Sequence[tuple[str, str, str | Rubric]],
    *,
    observed: Observed | None = None,
    counter: Counter | None = None,
) -> Estimate:
    """Dry run of judging stored ``targets`` (target_kind, target_id, task_kind) with the config's judges."""
    rows = _judge_rows(store, config, targets, observed or Observed(), counter, [])
    return Estimate(rows=rows, concurrency=config.concurrency)


def _judge_rows(
    store: Any,
    config: RunConfig,
    targets: Sequence[tuple[str, str, str | Rubric]],
    observed: Observed,
    counter: Counter | None,
    upcoming: list[tuple[TaskLike, int, Rubric]],
    chosen: Sequence[Rubric] = (),
) -> list[StageEstimate]:
    """One row per judge. Its ``config_id``: the judge config ids its judgements are stored under (and the
    leaderboard names), ``PromptSet.judge_config_hash`` of the judge under each rubric of the run (``chosen``:
    those of the selected tasks, and those of the planned units), not ``SystemConfig.config_hash`` (the
    system's own id, which the judgements do not carry: 2026-12-04 attack, item 8)."""
    prompts = run_prompts(config)
    judges = config.resolved_judges()
    existing = plan_judgements(store, targets, judges, prompts, repeats=config.repeats)
    by_id = {r.id: r for r in [*chosen, *(u.rubric for u in existing), *(r for _, _, r in upcoming)]}
    rows = []
    for judge in judges:
        ids = sorted({prompts.judge_config_hash(judge, r)[:8] for r in by_id.values()})
        count, source = (counter, "given tokenizer") if counter else token_counter(judge)
        tin = calls = too_long = 0
        for unit in (u for u in existing if u.judge is judge):
            n_in = count(_judge_prompt(store, prompts, unit.rubric, unit=unit))
            tin, calls = tin + n_in, calls + 1
            too_long += _too_long(judge, n_in)
        for task, n_out, rubric in upcoming:
            base = count(_judge_prompt(store, prompts, rubric, task=task, candidate=""))
            for _ in range(config.repeats):
                tin, calls = tin + base + n_out, calls + 1
                too_long += _too_long(judge, base + n_out)
        tout = calls * judge.max_output_tokens
        rows.append(
            StageEstimate(
                stage="judge",
                system=judge.name,
                config_id=", ".join(ids) or "–",
                calls=calls,
                input_tokens=tin,
                output_tokens=tout,
                token_source=source,
                output_source="max_output_tokens",
                seconds=_seconds(observed, judge, calls, config.concurrency),
                cost_usd=_cost(judge, tin, tout),
                observed_cost_usd=None,
                too_long=_checked(judge, too_long),
            )
        )
    return rows


def _too_long(system: SystemConfig, n_in: int) -> int:
    return int(fit_problem(system, n_in) is not None)


def _checked(system: SystemConfig, too_long: int) -> int | None:
    """``too_long``, or None where ``system``'s context window is unknown (nothing was checked: not 0 too long)."""
    return too_long if context_window(system)[0] is not None else None


def _judge_prompt(
    store: Any,
    prompts: Any,
    rubric: Rubric,
    *,
    unit: Any = None,
    task: TaskLike | None = None,
    candidate: str | None = None,
) -> str:
    """The judge prompt of a stored target (``unit``) or of ``task`` with ``candidate`` as the solution."""
    from benger.pipeline._execute import _target_texts, task_and_reference

    if task is None:
        task, candidate = _target_texts(store, unit)
    task_text, reference = task_and_reference(task)
    return str(
        prompts.judge_template(rubric).render(
            rubric, task=task_text, reference=reference, candidate=candidate or "", brief=prompts.judge_brief
        )
    )

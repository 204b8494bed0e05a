"""A run's progress per stage, read from the store's records (so it survives a restart of the server).

For each stage: the units the run has (generate: tasks x systems x repetitions; judge: the ok generations of
the run's systems x judges x repeats, growing while generation runs), how many ended ok / failed / excluded
(a judgement that could not be scored counts as failed), their tokens and cost, and what is left (the same
plan ``benger run`` makes: finished units are never planned again). ETA: the units finished since the latest
launch over the time since then, times what is left.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from benger.pipeline import RunConfig, judge_targets, plan_generations, plan_judgements, run_prompts, select_tasks
from benger.pipeline._orchestrate import run_rubrics
from benger.store._base import utcnow


@dataclass
class StageProgress:
    """One stage of a run as the store holds it."""

    stage: str
    total: int = 0
    ok: int = 0
    failed: int = 0
    excluded: int = 0
    remaining: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    failures: list[dict[str, str]] = field(default_factory=list)

    @property
    def finished(self) -> int:
        """Units with a final result (ok or excluded); failed ones are planned again by a resume."""
        return self.total - self.remaining


@dataclass
class RunProgress:
    """Every stage, the results reused at the latest launch and the ETA in seconds (None: unknown)."""

    stages: list[StageProgress]
    reused: int = 0
    eta_s: float | None = None

    @property
    def finished(self) -> int:
        return sum(s.finished for s in self.stages)

    @property
    def remaining(self) -> int:
        return sum(s.remaining for s in self.stages)

    def as_dict(self) -> dict[str, Any]:
        stages = []
        for s in self.stages:
            row = asdict(s)
            row["finished"] = s.finished
            stages.append(row)
        return {"stages": stages, "reused": self.reused, "eta_s": self.eta_s, "remaining": self.remaining}


MAX_FAILURES = 50


def _failure(kind: str, ident: str, who: str, reason: str | None) -> dict[str, str]:
    return {"kind": kind, "id": ident, "model": who, "reason": reason or "–"}


def run_progress(store: Any, config: RunConfig, corpora: list[str]) -> RunProgress:
    """The progress of ``config`` on ``store`` (its corpora already loaded under ``corpora``)."""
    prompts = run_prompts(config)
    tasks = select_tasks(store, corpora, config)
    systems = config.resolved_systems()
    if config.filters.systems:
        systems = [s for s in systems if s.name in config.filters.systems]
    judges = config.resolved_judges()
    keys = {(t.corpus, t.task_id) for t in tasks}
    gen = StageProgress("generate")
    if systems:
        runs = {prompts.generation_config_hash(s, k): config.repetitions or s.repetitions
                for s in systems for k in ("falloesung", "grundprinzip")}  # fmt: skip
        gen.total = sum((config.repetitions or s.repetitions) * len(tasks) for s in systems)
        for g in store.generations(task_ids=sorted({t for _, t in keys})):
            if (g.corpus, g.task_id) not in keys or g.config_hash not in runs or g.run_index >= runs[g.config_hash]:
                continue
            setattr(gen, g.status, getattr(gen, g.status) + 1)
            gen.input_tokens += g.input_tokens or 0
            gen.output_tokens += g.output_tokens or 0
            gen.cost_usd += g.cost_usd or 0.0
            if g.status == "failed" and len(gen.failures) < MAX_FAILURES:
                gen.failures.append(_failure("generation", f"{g.corpus}/{g.task_id}#{g.run_index}", g.system, g.reason))
            elif g.status == "excluded" and len(gen.failures) < MAX_FAILURES:
                reason = f"excluded: {g.reason or ''}".rstrip(": ")
                gen.failures.append(_failure("generation", f"{g.corpus}/{g.task_id}#{g.run_index}", g.system, reason))
        gen.remaining = len(plan_generations(store, tasks, systems, prompts, repetitions=config.repetitions))
    stages = [gen] if systems else []
    if judges:
        stages.append(_judge_progress(store, config, tasks, systems, judges, prompts, corpora))
    return RunProgress(stages)


def _judge_progress(
    store: Any,
    config: RunConfig,
    tasks: list[Any],
    systems: list[Any],
    judges: list[Any],
    prompts: Any,
    corpora: list[str],
) -> StageProgress:
    rubrics = run_rubrics(config, corpora)
    targets = judge_targets(store, tasks, systems, prompts, human_solutions=config.judge_human_solutions,
                            rubrics=rubrics)  # fmt: skip
    stage = StageProgress("judge", total=len(targets) * len(judges) * config.repeats)
    hashes = {
        prompts.judge_config_hash(j, r): j.name for j in judges for r in {t[2].id: t[2] for t in targets}.values()
    }
    wanted = {t[1] for t in targets}
    for j in store.judgements(target_ids=sorted(wanted)) if wanted else []:
        if j.judge_config_hash not in hashes or j.repeat_index >= config.repeats:
            continue
        if j.status == "scored":
            stage.ok += 1
        else:
            stage.failed += 1
            if len(stage.failures) < MAX_FAILURES:
                stage.failures.append(_failure("judgement", f"{j.target_id}#{j.repeat_index}", j.judge, j.reason))
        stage.input_tokens += int(j.meta.get("input_tokens") or 0)
        stage.output_tokens += int(j.meta.get("output_tokens") or 0)
        stage.cost_usd += float(j.meta.get("cost_usd") or 0.0)
    stage.remaining = len(plan_judgements(store, targets, judges, prompts, repeats=config.repeats))
    return stage


def with_eta(progress: RunProgress, reused: int, started_at: datetime | None, active: bool) -> RunProgress:
    """Fill ``reused`` and the ETA: units finished since ``started_at`` (beyond the ``reused`` ones) per second,
    applied to what is left (None before the first unit finished, or when the run is not active)."""
    progress.reused = reused
    if not active or started_at is None or progress.remaining == 0:
        progress.eta_s = 0.0 if progress.remaining == 0 else None
        return progress
    start = started_at if started_at.tzinfo is not None else started_at.replace(tzinfo=utcnow().tzinfo)
    elapsed = (utcnow() - start).total_seconds()
    done_now = progress.finished - reused
    progress.eta_s = round(elapsed / done_now * progress.remaining, 1) if done_now > 0 and elapsed > 0 else None
    return progress

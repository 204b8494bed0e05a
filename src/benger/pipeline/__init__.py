"""Generation and judging pipeline: units of work, prompts, the async runner, run configs and progress."""

from benger.pipeline._config import Filters, LeaderboardOptions, RunConfig, load_run_config
from benger.pipeline._execute import (
    MIN_OUTPUT_TOKENS,
    REASK_POLICY,
    execute_generation,
    execute_judgement,
    parse_generation,
    task_and_reference,
)
from benger.pipeline._orchestrate import (
    STAGES,
    RunResult,
    judge_targets,
    load_run_corpora,
    run_config,
    select_tasks,
)
from benger.pipeline._progress import ProgressReporter, RunStats
from benger.pipeline._prompts import (
    FALLOESUNG_SCHEMA,
    GRUNDPRINZIP_SCHEMA,
    TEMPLATE_NAMES,
    PromptSet,
    default_prompts,
    output_schema,
)
from benger.pipeline._runner import (
    Executor,
    LocalExecutor,
    ModelPool,
    make_executor,
    plan_generations,
    plan_judgements,
    run_generations,
    run_judgements,
)
from benger.pipeline._units import (
    GenerationUnit,
    JudgeUnit,
    generation_id,
    judgement_id,
    pipeline_config_hash,
    resolve_rubric,
    rubric_for_kind,
)

__all__ = [
    "FALLOESUNG_SCHEMA",
    "GRUNDPRINZIP_SCHEMA",
    "MIN_OUTPUT_TOKENS",
    "REASK_POLICY",
    "STAGES",
    "TEMPLATE_NAMES",
    "Executor",
    "Filters",
    "GenerationUnit",
    "JudgeUnit",
    "LeaderboardOptions",
    "LocalExecutor",
    "ModelPool",
    "ProgressReporter",
    "PromptSet",
    "RunConfig",
    "RunResult",
    "RunStats",
    "default_prompts",
    "execute_generation",
    "execute_judgement",
    "generation_id",
    "judge_targets",
    "judgement_id",
    "load_run_config",
    "load_run_corpora",
    "make_executor",
    "output_schema",
    "parse_generation",
    "pipeline_config_hash",
    "plan_generations",
    "plan_judgements",
    "resolve_rubric",
    "rubric_for_kind",
    "run_config",
    "run_generations",
    "run_judgements",
    "select_tasks",
    "task_and_reference",
]

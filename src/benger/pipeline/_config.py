"""Run configuration (YAML): corpora, systems, judges, repeats, concurrency, filters, prompts, leaderboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benger.errors import ConfigError, InputError
from benger.schema import SystemConfig

SystemSpec = str | dict[str, Any]


class Filters(BaseModel):
    """Restrict a run: task ids, the first ``limit`` tasks (per corpus), system names."""

    model_config = ConfigDict(extra="forbid")
    tasks: list[str] | None = None
    limit: int | None = Field(default=None, ge=1)
    systems: list[str] | None = None


class LeaderboardOptions(BaseModel):
    """Leaderboard settings: CI kind (bootstrap | normal), bootstrap seed and resamples, judge filter."""

    model_config = ConfigDict(extra="forbid")
    ci: Literal["bootstrap", "normal"] = "bootstrap"
    seed: int = 0
    n_resamples: int = Field(default=2000, ge=100)
    judges: list[str] | None = None


class RetrySettings(BaseModel):
    """The one retry policy's budget and waits for this run (provider errors and malformed-output re-asks)."""

    model_config = ConfigDict(extra="forbid")
    max_retries: int = Field(default=3, ge=0)
    initial_wait: float = Field(default=1.0, ge=0)
    max_wait: float = Field(default=60.0, ge=0)


class RunConfig(BaseModel):
    """A run: generate with ``systems`` over ``corpora``, judge with ``judges``, print the leaderboard."""

    model_config = ConfigDict(extra="forbid")
    name: str = "run"
    db: str | None = None
    corpora: list[str] = Field(min_length=1)
    systems: list[SystemSpec] = Field(default_factory=list, description="empty: judge every stored generation")
    judges: list[SystemSpec] = Field(default_factory=list)
    repetitions: int | None = Field(default=None, ge=1, description="overrides each system's repetitions")
    repeats: int = Field(default=1, ge=1, description="judge repeats per target")
    concurrency: int = Field(default=8, ge=1)
    executor: Literal["local", "celery"] = "local"
    min_output_tokens: int = Field(default=200, ge=0, description="Falllösungen shorter than this are excluded")
    min_solution_chars: int | None = Field(
        default=None, ge=1, description="minimum Falllösung length enforced by constrained decoding (local models)"
    )
    falloesung_format: Literal["json", "text"] = Field(
        default="json", description="text: the whole reply is the Falllösung (for small local models)"
    )
    judge_score_enum: bool = Field(default=False, description="list the allowed scores in the judge schema")
    judge_max_justification_chars: int | None = Field(default=None, ge=20)
    judge_brief: bool = Field(default=False, description="one short sentence per justification (small judges)")
    judge_human_solutions: bool = False
    filters: Filters = Field(default_factory=Filters)
    prompts: dict[str, str] = Field(default_factory=dict, description="template name -> file path")
    leaderboard: LeaderboardOptions = Field(default_factory=LeaderboardOptions)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    source: str | None = Field(default=None, exclude=True)

    def resolved_systems(self) -> list[SystemConfig]:
        return [_system(spec, "systems", i, self.source) for i, spec in enumerate(self.systems)]

    def resolved_judges(self) -> list[SystemConfig]:
        return [_system(spec, "judges", i, self.source, judge=True) for i, spec in enumerate(self.judges)]


def _system(spec: SystemSpec, section: str, index: int, source: str | None, *, judge: bool = False) -> SystemConfig:
    """A catalog name or an inline SystemConfig mapping."""
    if isinstance(spec, str):
        from benger.llm import load_catalog

        catalog = load_catalog()
        try:
            return catalog.judge(spec) if judge else catalog.system(spec)
        except ConfigError as exc:
            raise InputError(str(exc), file=source, field=f"{section}[{index}]") from exc
    try:
        return SystemConfig.model_validate(spec)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(first["msg"], file=source, field=f"{section}[{index}].{loc}") from exc


def load_run_config(path: str | Path) -> RunConfig:
    """Read and validate a run config; relative prompt paths are resolved against the config's folder."""
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError("run config not found", file=p) from exc
    except yaml.YAMLError as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        raise InputError(f"not valid YAML: {exc}", file=p, line=line + 1 if line is not None else None) from exc
    if not isinstance(data, dict):
        raise InputError("a run config must be a YAML mapping", file=p)
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"])
        raise InputError(first["msg"], file=p, field=loc or None) from exc
    config.source = str(p)
    config.prompts = {
        k: str((p.parent / v).resolve()) if not Path(v).is_absolute() else v for k, v in config.prompts.items()
    }
    config.corpora = [_resolve_corpus_path(spec, p.parent) for spec in config.corpora]
    return config


def _resolve_corpus_path(spec: str, base: Path) -> str:
    """Make file paths in corpus specs relative to the config file's folder."""
    prefix, sep, rest = spec.partition(":")
    if sep and prefix in ("zjs", "release"):
        return f"{prefix}:{_abs(rest, base)}"
    if Path(spec).suffix.lower() in (".jsonl", ".csv", ".json"):
        return _abs(spec, base)
    return spec


def _abs(path: str, base: Path) -> str:
    p = Path(path.strip()).expanduser()
    return str(p if p.is_absolute() else (base / p).resolve())

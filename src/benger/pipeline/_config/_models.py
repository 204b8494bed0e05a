"""The run configuration's model: corpora, systems, judges, repeats, concurrency, filters, prompts, leaderboard;
its systems and judges resolved (catalog names or inline entries, checked before any call)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from benger.config import MAX_REPEATS, MAX_RESAMPLES
from benger.errors import ConfigError, InputError
from benger.schema import SystemConfig

if TYPE_CHECKING:
    from benger.judge import Rubric

SystemSpec = str | dict[str, Any]


_STRICT = ConfigDict(extra="forbid", allow_inf_nan=False)


class Filters(BaseModel):
    """Restrict a run: task ids, the first ``limit`` tasks (per corpus), system names."""

    model_config = _STRICT
    tasks: list[str] | None = None
    limit: int | None = Field(default=None, ge=1)
    systems: list[str] | None = None


class LeaderboardOptions(BaseModel):
    """Leaderboard settings: CI kind (auto | percentile | bca | t | normal; bootstrap = percentile), bootstrap
    seed (>= 0: numpy refuses a negative one) and resamples (100 to :data:`MAX_RESAMPLES`, as on the command
    line), judge filter."""

    model_config = _STRICT
    ci: Literal["auto", "bootstrap", "percentile", "bca", "t", "normal"] = "auto"
    seed: int = Field(default=0, ge=0)
    n_resamples: int = Field(default=2000, ge=100, le=MAX_RESAMPLES)
    judges: list[str] | None = None


class RetrySettings(BaseModel):
    """The one retry policy's budget and waits for this run (provider errors and malformed-output re-asks)."""

    model_config = _STRICT
    max_retries: int = Field(default=3, ge=0)
    initial_wait: float = Field(default=1.0, ge=0)
    max_wait: float = Field(default=60.0, ge=0)


class BudgetCaps(BaseModel):
    """Caps of the run's model calls (``--max-cost`` / ``--max-tokens`` win over them): USD and tokens."""

    model_config = _STRICT
    max_cost: float | None = Field(default=None, ge=0, description="USD; the models need catalog prices")
    max_tokens: int | None = Field(default=None, ge=1, description="input + output tokens of every call")


class RunConfig(BaseModel):
    """A run: generate with ``systems`` over ``corpora``, judge with ``judges``, print the leaderboard."""

    model_config = _STRICT
    name: str = Field(default="run", min_length=1, max_length=80)  # the store's workbench_runs.name
    db: str | None = None
    #: empty only for commands that read no corpus (``validate-judge`` judges the release's picks); run,
    #: generate, judge and estimate refuse an empty list (``benger.cli._execute._config``)
    corpora: list[str] = Field(default_factory=list)
    systems: list[SystemSpec] = Field(default_factory=list, description="empty: judge every stored generation")
    judges: list[SystemSpec] = Field(default_factory=list)
    repetitions: int | None = Field(
        default=None, ge=1, le=MAX_REPEATS, description="overrides each system's repetitions"
    )
    repeats: int = Field(default=1, ge=1, le=MAX_REPEATS, description="judge repeats per target")
    concurrency: int = Field(default=8, ge=1, le=MAX_REPEATS)
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
    rubrics: dict[str, str | dict[str, Any]] = Field(
        default_factory=dict,
        description="corpus name -> rubric YAML file, a registered rubric's name, or the rubric itself (inline)",
    )
    leaderboard: LeaderboardOptions = Field(default_factory=LeaderboardOptions)
    retry: RetrySettings = Field(default_factory=RetrySettings)
    budget: BudgetCaps = Field(default_factory=BudgetCaps)
    source: str | None = Field(default=None, exclude=True)

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str) -> str:
        if not name.isprintable():
            raise ValueError("a run name takes printable characters only (no control characters)")
        return name

    def resolved_systems(self) -> list[SystemConfig]:
        return _named_once(
            [_system(spec, "systems", i, self.source) for i, spec in enumerate(self.systems)], "systems", self.source
        )

    def resolved_judges(self) -> list[SystemConfig]:
        judges = [_system(spec, "judges", i, self.source, judge=True) for i, spec in enumerate(self.judges)]
        return _named_once(judges, "judges", self.source)

    def resolved_rubrics(self) -> dict[str, Rubric]:
        """corpus name -> its rubric (``rubrics:``); InputError naming the file and field for a bad rubric."""
        from benger.judge import load_rubric, rubric_from_data

        rubrics: dict[str, Rubric] = {}
        for corpus, spec in self.rubrics.items():
            if isinstance(spec, dict):  # inline: a fault is named under rubrics.CORPUS in this file
                try:
                    rubrics[corpus] = rubric_from_data(spec, self.source or "run config")
                except InputError as exc:
                    field = f"rubrics.{corpus}" + (f".{exc.field}" if exc.field else "")
                    raise InputError(exc.reason, file=self.source, field=field) from None
                continue
            try:
                rubrics[corpus] = load_rubric(spec)
            except InputError as exc:
                if exc.field is not None or exc.line is not None:  # a fault inside the rubric file: named there
                    raise
                raise InputError(f"{exc.reason}: {spec}", file=self.source, field=f"rubrics.{corpus}") from None
        return rubrics


def _named_once(systems: list[SystemConfig], section: str, source: str | None) -> list[SystemConfig]:
    """``systems`` unless two share a name (InputError naming both entries): the leaderboard, the viewer and
    ``--system`` tell a run's systems apart by name, so a second one of that name was shown as a twin."""
    first: dict[str, int] = {}
    for i, system in enumerate(systems):
        if system.name in first:
            reason = f"the name {system.name!r} is already used by {section}[{first[system.name]}]; give each its own"
            raise InputError(reason, file=source, field=f"{section}[{i}].name")
        first[system.name] = i
    return systems


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
        return validated_system(spec)
    except InputError as exc:
        where = f"{section}[{index}]" + (f".{exc.field}" if exc.field else "")
        raise InputError(exc.reason, file=source, field=where) from exc


def validated_system(spec: dict[str, Any]) -> SystemConfig:
    """An inline system mapping as a SystemConfig, checked as far as it can be before any call (its fields, then
    the provider registry's ``llm.system_problem``: provider, base_url, ``params.structured_output``, a local
    model's name); InputError whose field is the system's own (``temperature``, ``params.structured_output``)."""
    from benger.llm import system_problem

    try:
        system = SystemConfig.model_validate(spec)
    except ValidationError as exc:
        first = _first_error(exc)
        loc = ".".join(str(p) for p in first["loc"]) or None  # None: a check of the whole system
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            known = ", ".join(SystemConfig.model_fields)
            message = f"unknown key {first['loc'][-1]!r}; the known keys of a system are: {known}"
        elif first["type"] not in ("missing", "value_error") and "input" in first:
            message += f", got {_shown(first['input'])}"
        raise InputError(message, field=loc) from exc
    problem = system_problem(system)
    if problem is not None:
        raise InputError(problem[1], field=problem[0])
    return system


def _first_error(exc: ValidationError) -> Any:
    """The error of ``exc`` to report: an unknown key first (a misspelt ``modle:`` also makes ``model``
    missing, and "model: Field required" alone hides the typo), else pydantic's first."""
    errors = exc.errors()
    return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])


def _shown(value: Any) -> str:
    """``repr(value)``, cut to 60 characters."""
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."

"""Run configuration (YAML): corpora, systems, judges, repeats, concurrency, filters, prompts, leaderboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from benger._yaml import load_yaml
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


_SECTIONS: dict[str, type[BaseModel]] = {
    "filters": Filters,
    "leaderboard": LeaderboardOptions,
    "retry": RetrySettings,
    "budget": BudgetCaps,
}


def _yaml_line(text: str, loc: tuple[int | str, ...], *, key: bool = False) -> int | None:
    """The 1-based line of the YAML node at ``loc`` (keys and list indexes); as deep as the document goes.
    ``key``: the line of the last key of ``loc`` itself, not of its value (an unknown key ``sytems:`` on line 3,
    its list below it, was reported as line 4)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    if node is None:
        return None
    key_line: int | None = None
    for step in loc:
        key_line = None
        if isinstance(node, yaml.MappingNode) and isinstance(step, str):
            match = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == step]
            if not match:
                break
            key_line, node = int(match[0][0].start_mark.line) + 1, match[0][1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
    return key_line if key and key_line is not None else int(node.start_mark.line) + 1


def _first_error(exc: ValidationError) -> Any:
    """The error of ``exc`` to report: an unknown key first (a misspelt ``modle:`` also makes ``model``
    missing, and "model: Field required" alone hides the typo), else pydantic's first."""
    errors = exc.errors()
    return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])


def _shown(value: Any) -> str:
    """``repr(value)``, cut to 60 characters."""
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _validation_error(exc: ValidationError, path: Path, text: str) -> InputError:
    errors = exc.errors()
    first = _first_error(exc)
    loc = tuple(step for step in first["loc"] if isinstance(step, int | str))
    field = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in loc).lstrip(".") or None
    message = str(first["msg"]).removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        owner = _SECTIONS.get(str(loc[0]), RunConfig) if len(loc) > 1 else RunConfig
        known = ", ".join(name for name in owner.model_fields if name != "source")
        message = f"unknown key {loc[-1]!r}; the known keys here are: {known}"
    elif first["type"] != "missing" and "input" in first:
        message += f", got {_shown(first['input'])}"
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s) in this file)"
    line = _yaml_line(text, loc, key=first["type"] == "extra_forbidden")
    return InputError(message, file=path, line=line, field=field)


def load_run_config(path: str | Path) -> RunConfig:
    """Read and validate a run config before anything runs; relative paths are resolved against its folder.

    Checked here, so a bad config never reaches a paid call: the file (UTF-8, a file not a folder), the
    YAML, every key and type (unknown keys and keys given twice are errors), the systems and judges (catalog
    names or inline configs; a provider the registry knows, finite sampling settings) and the prompt
    templates (compiled once). Raises InputError naming file, line and field.
    """
    from benger.corpora._reading import read_text

    p = Path(path)
    return parse_run_config(read_text(p), p)


def dump_run_config(config: RunConfig) -> str:
    """The YAML text of ``config`` (only what differs from the defaults): ``parse_run_config`` reads it back
    to an equal config, so a config set up in the browser is the file ``benger run`` takes."""
    data = config.model_dump(mode="json", exclude_defaults=True)
    text = str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    if yaml.safe_load(text) != data:  # PyYAML writes U+0085 raw in a quoted scalar and reads it back as a space
        text = str(yaml.safe_dump(data, sort_keys=False, allow_unicode=False))  # every such character escaped
    return text


def parse_run_config(text: str, path: str | Path) -> RunConfig:
    """:func:`load_run_config` of a config's ``text`` (read from ``path``: named in messages, relative paths
    resolved against its folder)."""
    p = Path(path)
    data = load_yaml(text, p)  # InputError for bad YAML and for a key given twice (file, line, field)
    if not isinstance(data, dict):
        raise InputError("a run config must be a YAML mapping (key: value lines)", file=p, line=1)
    try:
        config = RunConfig.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, p, text) from None
    except RecursionError:
        raise InputError("not a run config: a value is nested too deeply", file=p) from None
    config.source = str(p)
    config.prompts = {
        k: str((p.parent / v).resolve()) if not Path(v).is_absolute() else v for k, v in config.prompts.items()
    }
    config.corpora = [_resolve_corpus_path(spec, p.parent) for spec in config.corpora]
    from benger.judge import RUBRICS

    # a registered rubric's name (the paper's two, a plugin's) stays a name; anything else is a file path
    config.rubrics = {
        corpus: spec if isinstance(spec, dict) or spec in RUBRICS else _abs(spec, p.parent)
        for corpus, spec in config.rubrics.items()
    }
    try:
        config.resolved_rubrics()
    except InputError as exc:
        if exc.file == str(p) and exc.field:
            line = _yaml_line(text, _field_loc(exc.field))
            raise InputError(exc.reason, file=p, line=line, field=exc.field) from None
        raise
    try:
        config.resolved_systems()
        config.resolved_judges()
    except InputError as exc:
        if exc.file != str(p) or exc.line is not None or not exc.field:
            raise
        line = _yaml_line(text, _field_loc(exc.field), key=exc.reason.startswith("unknown key"))
        raise InputError(exc.reason, file=p, line=line, field=exc.field) from None
    from benger.pipeline._prompts import PROMPT_OPTIONS, PromptSet

    try:
        PromptSet(overrides=dict(config.prompts), **{name: getattr(config, name) for name in PROMPT_OPTIONS})
    except InputError as exc:
        if exc.field == "prompts" and exc.file is None:
            raise InputError(exc.reason, file=p, line=_yaml_line(text, ("prompts",)), field="prompts") from None
        raise
    return config


def _field_loc(field: str) -> tuple[int | str, ...]:
    """``systems[1].params`` as the YAML path ``("systems", 1, "params")``."""
    return tuple(int(s[1:-1]) if s[0] == "[" else s for s in re.findall(r"\[\d+\]|[^.\[\]]+", field))


def _resolve_corpus_path(spec: str, base: Path) -> str:
    """Make file paths in corpus specs relative to the config file's folder (``SCHEME:PATH`` of a registered
    corpus reader whose argument is a path, e.g. ``zjs:PATH``, too)."""
    from benger.corpora import CORPUS_READERS

    prefix, sep, rest = spec.partition(":")
    reader = CORPUS_READERS.find(prefix) if sep and len(prefix) > 1 else None
    if reader is not None:
        return f"{prefix}:{_abs(rest, base)}" if "PATH" in reader.value.usage else spec
    if Path(spec).suffix.lower() in (".jsonl", ".csv", ".json"):
        return _abs(spec, base)
    return spec


def _abs(path: str, base: Path) -> str:
    p = Path(path.strip()).expanduser()
    return str(p if p.is_absolute() else (base / p).resolve())


def model_spec(model: str, *, base_url: str | None = None, args: list[str] | None = None, judge: bool = False,
               option: str = "--model") -> SystemSpec:  # fmt: skip
    """The run-config entry (``systems:`` / ``judges:``) of ``--model PROVIDER/MODEL`` (or a catalog name) with
    ``--model-base-url`` and ``-M KEY=VALUE`` arguments: exactly what the same lines of a YAML file would give.

    ``KEY`` is a SystemConfig field (``temperature``, ``max_output_tokens``, ``seed``, ``context_window``,
    ``api_key_env``, ``requests_per_minute``, prices, ...) or else a provider parameter (``params.KEY``);
    ``VALUE`` is read as a YAML scalar (``0.2`` a number, ``true`` a boolean). A catalog name (``gpt-5.4``,
    ``qwen2.5-coder-0.5b-instruct``) or ``PROVIDER/NAME`` of a catalog entry of that provider starts from the entry.
    InputError naming the option for an unknown provider or a malformed argument.
    """
    from benger.llm import load_catalog, provider_spec, registered_providers

    catalog = load_catalog()
    find = catalog.judge if judge else catalog.system
    provider, sep, name = model.partition("/")
    entry: dict[str, Any] | None = None
    if not sep:
        try:
            entry = find(model).model_dump(exclude_defaults=True)
        except ConfigError as exc:
            raise InputError(
                f"{exc}; or name a model as PROVIDER/MODEL, e.g. openai/gpt-5.4-mini", field=option
            ) from None
    else:
        spec = provider_spec(provider)
        if spec is None:
            known = ", ".join(registered_providers())
            raise InputError(f"unknown provider {provider!r} in {model!r}; known: {known}", field=option)
        if not name:
            raise InputError(f"{model!r} names no model after the provider", field=option)
        try:
            found = find(name)
        except ConfigError:
            found = None
        if found is not None and found.provider == spec.name:
            entry = found.model_dump(exclude_defaults=True)
        else:
            entry = {"name": model, "provider": spec.name, "model": name}
    base_flag, arg_flag = ("--judge-model-base-url", "--judge-model-arg") if judge else ("--model-base-url", "-M")
    if base_url is not None:
        entry["base_url"] = base_url
    params: dict[str, Any] = dict(entry.get("params") or {})
    for item in args or []:
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise InputError(f"expected KEY=VALUE, got {item!r}", field=arg_flag)
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or "not YAML"
            raise InputError(
                f"{key}={raw}: the value is not YAML ({problem}); write a text value in quotes, e.g. "
                f"{arg_flag} '{key}=\"...\"'",
                field=arg_flag,
            ) from None
        if key in SystemConfig.model_fields and key not in ("name", "params"):
            entry[key] = value
        else:
            params[key.removeprefix("params.")] = value
    if params:
        entry["params"] = params
    try:  # checked here, so that the message names the option that gave the value
        validated_system(entry)
    except InputError as exc:
        field = exc.field or ""
        flag = base_flag if field == "base_url" and base_url is not None else option
        if field not in ("", "provider", "model", "name", "base_url"):
            flag = f"{arg_flag} {field.removeprefix('params.')}"
        elif not field and args:  # a check of the whole system (temperature range): the settings gave it
            flag = arg_flag
        raise InputError(exc.reason, field=flag) from None
    return entry

"""Generation prompt templates (Jinja2 files, overridable by path) and the output JSON schemas."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta

from benger.errors import InputError
from benger.judge import JudgeTemplate, Rubric, judge_schema, judge_template
from benger.judge._prompts import TEMPLATE_OF_KIND
from benger.llm import ChatMessage
from benger.pipeline._units import pipeline_config_hash
from benger.schema import FalloesungTask, PrincipleItem, SystemConfig, stable_hash

TEMPLATE_NAMES = (
    "falloesung_system",
    "falloesung_user",
    "grundprinzip_system",
    "grundprinzip_user",
    "falloesung_judge",
    "grundprinzipien_judge",
)
_JUDGE_RUBRIC = {"falloesung_judge": "falloesung", "grundprinzipien_judge": "grundprinzipien"}

FALLOESUNG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"loesung": {"type": "string"}},
    "required": ["loesung"],
    "additionalProperties": False,
}
GRUNDPRINZIP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"begruendung": {"type": "string"}, "antwort": {"type": "string", "enum": ["Ja", "Nein"]}},
    "required": ["begruendung", "antwort"],
    "additionalProperties": False,
}

_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=False, autoescape=False)

#: The values each template is rendered with (a template naming anything else fails before the run).
TEMPLATE_VALUES: dict[str, frozenset[str]] = {
    "falloesung": frozenset({"facts", "area", "title"}),
    "grundprinzip": frozenset({"case", "question", "area"}),
    "judge": frozenset({"rubric", "max_total", "fmt", "task", "reference", "candidate", "brief"}),
}


def check_template(source: str, origin: str, allowed: frozenset[str]) -> jinja2.Template:
    """Compile a template once; a syntax error or a value it is never given is an InputError at ``origin:line``."""
    try:
        ast = _ENV.parse(source)
        template = _ENV.from_string(source)  # also unknown filters and tests
    except jinja2.TemplateSyntaxError as exc:
        raise InputError(f"prompt template syntax error: {exc.message}", file=origin, line=exc.lineno) from None
    unknown = sorted(jinja2.meta.find_undeclared_variables(ast) - allowed)
    if unknown:
        raise InputError(
            f"prompt template uses {', '.join(repr(u) for u in unknown)}, which it is never given; "
            f"available: {', '.join(sorted(allowed))}",
            file=origin,
        )
    return template


def _builtin_text(name: str) -> str:
    return resources.files("benger.pipeline").joinpath("prompts", f"{name}.j2").read_text(encoding="utf-8")


def _read(path: str | Path, name: str) -> str:
    from benger.corpora._reading import read_text  # UTF-8 (BOM or not), a file and not a folder

    try:
        return read_text(Path(path))
    except InputError as exc:
        raise InputError(f"cannot read prompt template '{name}': {exc.reason}", file=path, line=exc.line) from None


#: The PromptSet settings besides the template overrides (run-config keys of the same names).
PROMPT_OPTIONS = (
    "min_solution_chars",
    "falloesung_format",
    "judge_score_enum",
    "judge_max_justification_chars",
    "judge_brief",
)


@dataclass(frozen=True)
class PromptSet:
    """The six templates of a run; ``overrides`` maps a template name to a file path.

    ``hash_for(kind)`` hashes the templates a task kind uses; it is part of the pipeline config hash,
    so editing a prompt creates new work instead of silently mixing outputs of two prompts.
    """

    overrides: dict[str, str] = field(default_factory=dict)
    min_solution_chars: int | None = None
    falloesung_format: str = "json"
    judge_score_enum: bool = False
    judge_max_justification_chars: int | None = None
    judge_brief: bool = False
    _sources: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    _compiled: dict[str, jinja2.Template] = field(default_factory=dict, compare=False, repr=False)
    _hashes: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: renders of the templates that use no value (the built-in system prompts): one per run, not per item
    _constant: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.falloesung_format not in ("json", "text"):
            raise InputError("falloesung_format must be 'json' or 'text'", field="falloesung_format")
        unknown = sorted(set(self.overrides) - set(TEMPLATE_NAMES))
        if unknown:
            raise InputError(
                f"unknown prompt template {unknown[0]!r}; known: {', '.join(TEMPLATE_NAMES)}", field="prompts"
            )
        for name in TEMPLATE_NAMES:
            if name in _JUDGE_RUBRIC:
                if name in self.overrides:  # compiled once here, not per item at run time
                    path = self.overrides[name]
                    check_template(_read(path, name), str(path), TEMPLATE_VALUES["judge"])
                continue
            source = _read(self.overrides[name], name) if name in self.overrides else _builtin_text(name)
            self._sources[name] = source
            origin = self.overrides.get(name, f"builtin:{name}.j2")
            self._compiled[name] = check_template(source, origin, TEMPLATE_VALUES[name.rsplit("_", 1)[0]])

    def source(self, name: str) -> str:
        return self._sources[name]

    def hash_for(self, kind: str) -> str:
        """Hash of the generation templates of a task kind ("falloesung" or "grundprinzip")."""
        if kind not in self._hashes:
            self._hashes[kind] = self._hash_for(kind)
        return self._hashes[kind]

    def _hash_for(self, kind: str) -> str:
        parts: list[object] = [self._sources[f"{kind}_system"], self._sources[f"{kind}_user"]]
        if kind == "falloesung" and self.min_solution_chars:
            parts.append({"min_solution_chars": self.min_solution_chars})
        if kind == "falloesung" and self.falloesung_format != "json":
            parts.append({"format": self.falloesung_format})
        return stable_hash(parts)

    def schema_for(self, task: FalloesungTask | PrincipleItem) -> dict[str, Any] | None:
        """The reply's JSON schema; ``min_solution_chars`` becomes ``minLength`` of the Falllösung text, which
        grammar-constrained backends (llama.cpp) enforce while decoding. None for plain-text Falllösungen."""
        if isinstance(task, FalloesungTask) and self.falloesung_format == "text":
            return None
        schema = output_schema(task)
        if isinstance(task, FalloesungTask) and self.min_solution_chars:
            loesung = {"type": "string", "minLength": self.min_solution_chars}
            schema = {**schema, "properties": {"loesung": loesung}}
        return schema

    def judge_template(self, rubric: Rubric | str) -> JudgeTemplate:
        """The judge template of a rubric: the built-in one of its task kind (``Rubric.task_kind``), or the run
        config's override of it (``falloesung_judge`` / ``grundprinzipien_judge``). A name: a built-in rubric's."""
        name = rubric if isinstance(rubric, str) else TEMPLATE_OF_KIND[rubric.task_kind]
        key = "falloesung_judge" if name == "falloesung" else "grundprinzipien_judge"
        return judge_template(name, self.overrides.get(key))

    def judge_schema(self, rubric: Rubric) -> dict[str, Any]:
        """The judge reply's JSON schema under this run's judge options."""
        return judge_schema(
            rubric, score_enum=self.judge_score_enum, max_justification_chars=self.judge_max_justification_chars
        )

    def judge_hash(self, rubric: Rubric) -> str:
        """Hash of what shapes a judge reply besides the model: the template and the schema options."""
        template = self.judge_template(rubric)
        options = [self.judge_score_enum, self.judge_max_justification_chars, self.judge_brief]
        return stable_hash([template.hash, options]) if any(options) else template.hash

    # -- the unit-of-work keys (the runner's planning, execution and the Celery workers all use these) --
    def generation_config_hash(self, system: SystemConfig, kind: str) -> str:
        """The ``config_hash`` of a generation of ``system`` for a task of ``kind`` under these prompts."""
        return pipeline_config_hash(system, self.hash_for(kind))

    def judge_config_hash(self, judge: SystemConfig, rubric: Rubric) -> str:
        """The ``judge_config_hash`` of a judgement by ``judge`` under ``rubric`` (template + judge options)."""
        return pipeline_config_hash(judge, self.judge_hash(rubric))

    # -- serialisation (a Celery task carries the run's PromptSet as these options) ---------------------
    def options(self) -> dict[str, Any]:
        """Every setting of this PromptSet as JSON-safe values; ``PromptSet.from_options`` rebuilds it."""
        return {
            "overrides": dict(self.overrides),
            "min_solution_chars": self.min_solution_chars,
            "falloesung_format": self.falloesung_format,
            "judge_score_enum": self.judge_score_enum,
            "judge_max_justification_chars": self.judge_max_justification_chars,
            "judge_brief": self.judge_brief,
        }

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> PromptSet:
        """The PromptSet of ``options()`` (unknown keys are an InputError, never silently dropped)."""
        known = {"overrides", *PROMPT_OPTIONS}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InputError(f"unknown prompt option {unknown[0]!r}; known: {', '.join(sorted(known))}")
        values: dict[str, Any] = {k: (dict(v) if k == "overrides" else v) for k, v in options.items()}
        return cls(**values)

    def _render(self, name: str, **values: Any) -> str:
        constant = self._constant.get(name)  # None: not rendered yet, or the template uses values
        if constant is not None:
            return constant
        origin = self.overrides.get(name, f"builtin:{name}.j2")
        try:
            if name not in self._compiled:
                self._compiled[name] = _ENV.from_string(self._sources[name])
            text: str = self._compiled[name].render(**values).strip()
        except jinja2.TemplateError as exc:
            raise InputError(f"prompt template error: {exc}", file=origin) from exc
        if name not in self._constant:
            uses = jinja2.meta.find_undeclared_variables(_ENV.parse(self._sources[name]))
            self._constant[name] = None if uses else text
        return text

    def generation_messages(self, task: FalloesungTask | PrincipleItem) -> list[ChatMessage]:
        """System + user messages for a task (Falllösung or Grundprinzip item)."""
        if isinstance(task, FalloesungTask):
            values: dict[str, Any] = {"facts": task.facts, "area": task.area, "title": task.title or ""}
        else:
            values = {"case": task.case, "question": task.question, "area": task.area}
        kind = task.kind
        return [
            ChatMessage(role="system", content=self._render(f"{kind}_system", **values)),
            ChatMessage(role="user", content=self._render(f"{kind}_user", **values)),
        ]


def output_schema(task: FalloesungTask | PrincipleItem) -> dict[str, Any]:
    """The JSON schema the generation reply must follow."""
    return FALLOESUNG_SCHEMA if isinstance(task, FalloesungTask) else GRUNDPRINZIP_SCHEMA


def default_prompts() -> PromptSet:
    return PromptSet()

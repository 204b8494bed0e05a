"""Judge prompt templates (Jinja2) rendered from the rubric data, and the judge reply's JSON schema."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from benger.errors import InputError
from benger.judge._rubric import Rubric
from benger.schema import stable_hash

BUILTIN_JUDGE_TEMPLATES = {"falloesung": "falloesung_judge.j2", "grundprinzipien": "grundprinzipien_judge.j2"}
#: The built-in judge template of each task kind (a rubric's ``kind`` picks it).
TEMPLATE_OF_KIND = {"falloesung": "falloesung", "grundprinzip": "grundprinzipien"}
#: Where a rubric's ``instructions`` go in a rendered prompt: before the first section of this form (the task).
_SECTION_MARK = "\n=== "


def _fmt(value: float) -> str:
    return f"{value:g}"


@dataclass(frozen=True)
class JudgeTemplate:
    """A judge prompt template: its source text and where it came from (built-in name or path)."""

    source: str
    origin: str

    @property
    def hash(self) -> str:
        return stable_hash(self.source)

    def render(self, rubric: Rubric, *, task: str, reference: str, candidate: str, brief: bool = False) -> str:
        """The judge prompt: rubric, then task -> reference -> candidate (no author identity).

        ``brief`` asks for one short sentence per justification (small local judges)."""
        try:
            text = _compile(self.source).render(
                rubric=rubric,
                max_total=_fmt(rubric.max_total),
                fmt=_fmt,
                task=task,
                reference=reference,
                candidate=candidate,
                brief=brief,
            )
        except jinja2.TemplateError as exc:
            raise InputError(f"judge template error: {exc}", file=self.origin) from exc
        return with_instructions(text, rubric)


def with_instructions(prompt: str, rubric: Rubric) -> str:
    """``prompt`` with the rubric's own text before the first ``=== `` section (the task), or at the end when the
    template has none: its ``instructions`` and the steps of dimensions with a step of their own. Unchanged for
    a rubric without either (the built-in rubrics)."""
    steps = [
        f'- {d.label} ("{d.key}"): in Schritten von {_fmt(d.step)}' for d in rubric.dimensions if d.step is not None
    ]
    parts = [rubric.instructions.strip()] if rubric.instructions and rubric.instructions.strip() else []
    if steps:
        parts.append("Abweichende Punkteschritte:\n" + "\n".join(steps))
    if not parts:
        return prompt
    block = "\nHinweise zum Bewertungsbogen:\n" + "\n\n".join(parts) + "\n"
    head, mark, tail = prompt.partition(_SECTION_MARK)
    return f"{head}{block}{mark}{tail}" if mark else f"{prompt.rstrip()}\n{block}"


_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)


@functools.lru_cache(maxsize=32)
def _compile(source: str) -> jinja2.Template:
    return _ENV.from_string(source)


def judge_template(rubric_name: str, path: str | Path | None = None) -> JudgeTemplate:
    """The built-in template for a rubric ("falloesung", "grundprinzipien") or a user template by path."""
    if path is not None:
        p = Path(path)
        try:
            return JudgeTemplate(p.read_text(encoding="utf-8"), str(p))
        except OSError as exc:
            raise InputError(f"cannot read judge template: {exc}", file=p) from exc
    if rubric_name not in BUILTIN_JUDGE_TEMPLATES:
        raise InputError(f"no built-in judge template for rubric {rubric_name!r}; pass a template path")
    name = BUILTIN_JUDGE_TEMPLATES[rubric_name]
    text = resources.files("benger.judge").joinpath("prompts", name).read_text(encoding="utf-8")
    return JudgeTemplate(text, f"builtin:{name}")


def _steps(maximum: float, step: float) -> list[float | int]:
    count = round(maximum / step)
    values = [i * step for i in range(count + 1)]
    return [int(v) if float(v).is_integer() else v for v in values]


#: The step the built-in rubrics score in; their schema names no ``multipleOf`` (as it always was).
_DEFAULT_STEP = 0.5


def _score(score: dict[str, Any], rubric: Rubric, key: str, maximum: float) -> dict[str, Any]:
    """A dimension's score schema: 0..max, and ``multipleOf`` its step when that is not the default 0.5."""
    out = {**score, "maximum": maximum}
    step = rubric.step_of(key)
    if step != _DEFAULT_STEP:
        out["multipleOf"] = int(step) if float(step).is_integer() else step
    return out


def judge_schema(
    rubric: Rubric, *, score_enum: bool = False, max_justification_chars: int | None = None
) -> dict[str, Any]:
    """JSON schema of the judge reply, with per-dimension bounds 0..max (for constrained decoding).

    ``score_enum`` lists the allowed scores (0, 0.5, ..., max) so that grammar-constrained decoding
    (llama.cpp) can only produce valid steps; ``max_justification_chars`` caps each justification.
    """
    score: dict[str, Any] = {"type": "number", "minimum": 0}
    text: dict[str, Any] = {"type": "string"}
    if max_justification_chars is not None:
        text = {"type": "string", "minLength": 1, "maxLength": max_justification_chars}
    dims = {
        d.key: {
            "type": "object",
            "properties": {
                "punkte": (
                    {"enum": _steps(d.max, rubric.step_of(d.key))}
                    if score_enum
                    else _score(score, rubric, d.key, d.max)
                ),
                "begruendung": text,
            },
            "required": ["punkte", "begruendung"],
            "additionalProperties": False,
        }
        for d in rubric.dimensions
    }
    props: dict[str, Any] = {
        "dimensionen": {
            "type": "object",
            "properties": dims,
            "required": rubric.keys,
            "additionalProperties": False,
        },
        "gesamtpunkte": {"type": "number", "minimum": 0, "maximum": rubric.max_total},
    }
    required = ["dimensionen", "gesamtpunkte"]
    if rubric.asks_answer:
        props["antwort_kandidat"] = {"type": "string", "enum": ["Ja", "Nein"]}
        required.append("antwort_kandidat")
    props["gesamtwuerdigung"] = text
    required.append("gesamtwuerdigung")
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}

"""Shared record types that flow between the stages (corpora -> pipeline -> judge -> stats).

Everything is a pydantic model so that loaders validate input and the store, the workers and the
web app exchange the same shapes. Field names are English; German legal terms are kept where they
are the established name of the thing (Sachverhalt = ``facts``, Musterlösung = ``reference``).
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from benger.config import MAX_REPEATS

Area = Literal["Zivilrecht", "Strafrecht", "Öffentliches Recht"]
AREAS: tuple[Area, ...] = ("Zivilrecht", "Strafrecht", "Öffentliches Recht")
Tier = Literal["flagship", "efficiency", "open_reference", "local"]
Weights = Literal["open", "closed"]
Condition = Literal["traditional", "co_creation"]
ReviewRole = Literal["blind", "creator"]
Answer = Literal["Ja", "Nein"]
TargetKind = Literal["generation", "human_solution"]

_AREA_ALIASES: dict[str, Area] = {
    "zivilrecht": "Zivilrecht",
    "civil": "Zivilrecht",
    "strafrecht": "Strafrecht",
    "criminal": "Strafrecht",
    "öffentliches recht": "Öffentliches Recht",
    "oeffentliches recht": "Öffentliches Recht",
    "offentliches recht": "Öffentliches Recht",
    "public": "Öffentliches Recht",
}


def normalise_area(value: str) -> Area:
    """Map the spellings found in the corpora ("zivilrecht", "Öffentliches Recht", ...) to an Area."""
    key = value.strip().lower()
    if key not in _AREA_ALIASES:
        raise ValueError(f"unknown legal area {value!r}; expected one of {', '.join(AREAS)}")
    return _AREA_ALIASES[key]


def normalise_answer(value: str) -> Answer:
    """Normalise a gold Ja/Nein label ("Ja.", " nein ") to "Ja" or "Nein"."""
    key = value.strip().rstrip(".!").strip().lower()
    if key == "ja":
        return "Ja"
    if key == "nein":
        return "Nein"
    raise ValueError(f"expected 'Ja' or 'Nein', got {value!r}")


def score_problem(
    dimensions: dict[str, float], total: float | None, maxima: dict[str, float] | None = None
) -> tuple[str, str] | None:
    """The first inconsistency of a rubric score as ``(field, message)``, or None: a dimension below 0 or above
    its maximum (``maxima``: dimension -> rubric maximum; unchecked when None), a total that is not the sum of
    the dimensions (tolerance 1e-6). One rule for every reader of scores (release files, export folders)."""
    for key, value in dimensions.items():
        top = (maxima or {}).get(key)
        if value < 0 or (top is not None and value > top):
            bound = top if top is not None else "max"
            return f"dimensions.{key}", f"{key} must lie in [0, {bound}], got {value}"
    if total is not None and abs(total - math.fsum(dimensions.values())) > 1e-6:
        return "total", f"total {total} != sum of dimensions {math.fsum(dimensions.values())}"
    return None


def stable_hash(payload: Any, length: int = 16) -> str:
    """A short sha256 of the canonical JSON of ``payload`` (sorted keys, no whitespace)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


def check_task_id(value: str) -> str:
    """A task id as typed by a person: no control or format character (a newline, an ANSI escape ``\\x1b[31m``,
    a zero-width space), which would print as something else than it is. Raises ValueError naming the character."""
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            raise ValueError(
                f"task_id {value!r} contains the control character U+{ord(ch):04X}; use printable characters only"
            )
    return value


def task_id_key(value: str) -> str:
    """The key under which two task ids are the same id: their NFC form ("é" typed as one or two code points)."""
    return unicodedata.normalize("NFC", value)


class FalloesungTask(_Record):
    """An exam-style case (Benchathon, ZJS, or a user corpus): facts in, a Gutachten-style solution out."""

    kind: Literal["falloesung"] = "falloesung"
    task_id: str
    corpus: str
    area: Area
    facts: str = Field(min_length=1, description="Sachverhalt / Angabe")
    reference: str = Field(min_length=1, description="Musterlösung")
    difficulty: str | None = None
    title: str | None = None
    rubric: dict[str, Any] | None = Field(default=None, description="the task's own Bewertungsbogen (a rubric)")
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("area", mode="before")
    @classmethod
    def _area(cls, value: str) -> Area:
        return normalise_area(value)

    @field_validator("task_id")
    @classmethod
    def _task_id(cls, value: str) -> str:
        return check_task_id(value)


class PrincipleItem(_Record):
    """A short Grundprinzipien item: a case, a question, a gold Ja/Nein answer and gold reasoning."""

    kind: Literal["grundprinzip"] = "grundprinzip"
    task_id: str
    corpus: str
    area: Area
    case: str = Field(min_length=1, description="Fall")
    question: str = Field(min_length=1, description="Fragestellung")
    gold_answer: Answer
    gold_reasoning: str
    principle: str | None = None
    authors: str | None = None
    rubric: dict[str, Any] | None = Field(default=None, description="the task's own Bewertungsbogen (a rubric)")
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("area", mode="before")
    @classmethod
    def _area(cls, value: str) -> Area:
        return normalise_area(value)

    @field_validator("gold_answer", mode="before")
    @classmethod
    def _answer(cls, value: str) -> Answer:
        return normalise_answer(value)

    @field_validator("task_id")
    @classmethod
    def _task_id(cls, value: str) -> str:
        return check_task_id(value)


Task = Annotated[FalloesungTask | PrincipleItem, Field(discriminator="kind")]


class Corpus(_Record):
    """A named collection of tasks of one corpus."""

    name: str
    tasks: list[Task]
    description: str | None = None

    @model_validator(mode="after")
    def _distinct_ids(self) -> Corpus:
        """No two tasks with the same id, nor ids that differ only in Unicode form (NFC/NFD twins)."""
        seen: dict[str, str] = {}
        for task in self.tasks:
            key = task_id_key(task.task_id)
            if key in seen:
                twin = "" if seen[key] == task.task_id else f" ({seen[key]!r} in another Unicode form)"
                raise ValueError(f"duplicate task_id {task.task_id!r}{twin}")
            seen[key] = task.task_id
        return self

    def get(self, task_id: str) -> FalloesungTask | PrincipleItem:
        for task in self.tasks:
            if task.task_id == task_id:
                return task
        raise KeyError(task_id)


#: ``SystemConfig.params`` that change how fast a system runs, never what it answers (left out of config_hash)
RUNTIME_PARAMS = frozenset({"n_threads", "n_threads_batch"})

#: Models renamed after stores were written: (provider, new model id) -> the id config_hash keeps using, so a
#: store written under the old id resumes without paying again (the embedded GGUFs are Qwen2.5-*Coder*-Instruct).
STORED_MODEL_IDS: dict[tuple[str, str], str] = {
    ("local", "qwen2.5-coder-0.5b-instruct"): "qwen2.5-0.5b-instruct",
    ("local", "qwen2.5-coder-1.5b-instruct"): "qwen2.5-1.5b-instruct",
}

#: Highest sampling temperature each provider accepts (Anthropic 0..1; OpenAI, Gemini and llama.cpp 0..2).
TEMPERATURE_MAX: dict[str, float] = {"anthropic": 1.0}


class SystemConfig(_Record):
    """A system under test or a judge: which model, where, and with which decoding settings.

    ``config_hash`` covers only what changes the model's output (provider, model, endpoint, decoding
    parameters), so renaming a system or changing its price keeps finished work reusable.
    """

    name: str
    provider: str = Field(description="openai | openai-compatible | anthropic | google | local")
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    tier: Tier | None = None
    weights: Weights | None = None
    temperature: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    max_output_tokens: int = Field(default=8000, ge=1)
    repetitions: int = Field(default=1, ge=1, le=MAX_REPEATS)
    seed: int | None = None
    max_concurrency: int | None = Field(default=None, ge=1)
    requests_per_minute: float | None = Field(
        default=None, gt=0, allow_inf_nan=False, description="calls a minute to the endpoint (local and Celery)"
    )
    tokens_per_minute: float | None = Field(
        default=None, gt=0, allow_inf_nan=False, description="tokens a minute to the endpoint (local and Celery)"
    )
    context_window: int | None = Field(
        default=None, ge=1, description="tokens of prompt + reply the model takes (None: asked from the server)"
    )
    params: dict[str, Any] = Field(default_factory=dict, description="extra provider parameters")
    price_in_per_mtok: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="USD per 1M input tokens"
    )
    price_out_per_mtok: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="USD per 1M output tokens"
    )
    display_name: str | None = None
    provider_family: str | None = None

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        """An http(s) URL with a host (``htp:/`` is refused here, at load, not per item as a missing API key)."""
        if value is None:
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url {value!r} is not a valid http:// or https:// URL with a host")
        return value.strip()

    @model_validator(mode="after")
    def _temperature_range(self) -> SystemConfig:
        """The provider's temperature range (:data:`TEMPERATURE_MAX`): ``temperature: 5`` is refused at load."""
        top = TEMPERATURE_MAX.get(self.provider, 2.0)
        if self.temperature is not None and self.temperature > top:
            raise ValueError(f"temperature {self.temperature:g} is outside 0..{top:g} for provider {self.provider!r}")
        return self

    @field_validator("params")
    @classmethod
    def _params(cls, value: dict[str, Any]) -> dict[str, Any]:
        """Refuse a ``top_p`` outside (0, 1] and any non-finite number (NaN, Infinity are not JSON)."""
        top_p = value.get("top_p")
        if top_p is not None and (isinstance(top_p, bool) or not isinstance(top_p, int | float) or not 0 < top_p <= 1):
            raise ValueError(f"top_p must be in (0, 1], got {top_p!r}")
        for key, item in value.items():
            if isinstance(item, float) and not math.isfinite(item):
                raise ValueError(f"params.{key} must be a finite number, got {item!r}")
        return value

    def config_hash(self) -> str:
        """The system's identity in the store: what changes its outputs. Settings that change only its speed
        (``RUNTIME_PARAMS``: a local model's thread counts) are left out, so a rerun with ``--threads``
        continues the same run; a renamed model hashes under its stored id (``STORED_MODEL_IDS``)."""
        return stable_hash(
            {
                "provider": self.provider,
                "model": STORED_MODEL_IDS.get((self.provider, self.model), self.model),
                "base_url": self.base_url,
                "temperature": self.temperature,
                "max_output_tokens": self.max_output_tokens,
                "seed": self.seed,
                "params": {k: v for k, v in self.params.items() if k not in RUNTIME_PARAMS},
            }
        )


GenerationStatus = Literal["ok", "excluded", "failed"]


class Generation(_Record):
    """One system output for one task and run index (the unit-of-work key is corpus, task, config hash, run)."""

    generation_id: str
    task_id: str
    corpus: str | None = Field(
        default=None,
        description="the corpus of the task (a task is (corpus, task id)); the store fills it when the task id is "
        "in one corpus only",
    )
    system: str
    config_hash: str
    run_index: int = 0
    status: GenerationStatus = "ok"
    text: str = ""
    answer: Answer | None = None
    reason: str | None = Field(default=None, description="why excluded or failed")
    finish_reason: str | None = None
    truncated: bool = False
    refused: bool = False
    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_s: float | None = None
    cost_usd: float | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class HumanSolution(_Record):
    """A participant's solution to a Falllösung task, written traditionally or with AI (co-creation)."""

    solution_id: str
    task_id: str
    participant_id: str
    corpus: str | None = Field(default=None, description="the corpus of the task (filled as for a Generation)")
    condition: Condition
    text: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)


JudgementStatus = Literal["scored", "unscored"]


class Judgement(_Record):
    """A rubric judgement of one target. Totals, grade points and pass are computed by benger.

    An unscored judgement (reply could not be parsed or validated) has no scores and a reason; it is
    never counted as 0.
    """

    judgement_id: str
    target_kind: TargetKind
    target_id: str
    judge: str
    judge_config_hash: str
    rubric_id: str = Field(
        validation_alias=AliasChoices("rubric_id", "rubric_version"),
        description="the rubric's content identity ``name@version+sha8`` (older files name it ``rubric_version``)",
    )
    repeat_index: int = 0
    status: JudgementStatus
    reason: str | None = None
    dimensions: dict[str, float] | None = None
    justifications: dict[str, str] = Field(default_factory=dict)
    total: float | None = None
    grade_points: int | None = None
    passed: bool | None = None
    model_total: float | None = Field(default=None, description="the total the model reported (not trusted)")
    answer: Answer | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class HumanReview(_Record):
    """A human grader's rubric review of one solution (LLM generation or human solution)."""

    review_id: str
    target_kind: TargetKind
    target_id: str
    task_id: str
    grader_id: str
    role: ReviewRole
    dimensions: dict[str, float]
    raw_score: float
    grade_points: int | None = Field(description="None under a rubric without a grade table (raw points only)")
    passed: bool | None = Field(description="None under a rubric without a grade table")
    position: int | None = Field(default=None, description="order in the source (positional ICC uses it)")
    meta: dict[str, Any] = Field(default_factory=dict)

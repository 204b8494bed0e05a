"""Validate a judge reply against its rubric: every dimension, 0..max in steps, a justification each.

A reply that fails validation becomes ``Unscored(reason)`` — never a score of 0. Totals, grade points and
pass are computed here from the dimension scores; a total the model reports is kept as ``model_total``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from benger.judge._grades import grade_points, passed
from benger.judge._rubric import Rubric
from benger.schema import Answer, normalise_answer

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_DIMENSION_KEYS = ("dimensionen", "dimensions", "kriterien", "scores")
_SCORE_KEYS = ("punkte", "score", "points")
_JUSTIFICATION_KEYS = ("begruendung", "begründung", "justification", "reason")
_TOTAL_KEYS = ("gesamtpunkte", "total", "total_score", "gesamt")


class MalformedOutput(ValueError):
    """A model reply that does not contain the JSON object we asked for; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in ``text``; tolerates code fences and text around the object.

    Raises MalformedOutput when no complete JSON object can be decoded.
    """
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder(strict=False)  # raw newlines inside strings are common in free-form replies
    for chunk in candidates:
        start = chunk.find("{")
        while start != -1:
            try:
                value, _ = decoder.raw_decode(chunk, start)
            except json.JSONDecodeError:
                start = chunk.find("{", start + 1)
                continue
            if isinstance(value, dict):
                return value
            start = chunk.find("{", start + 1)
    if "{" not in text:
        raise MalformedOutput("malformed JSON: no JSON object in the reply")
    raise MalformedOutput("malformed JSON: the reply's JSON object could not be decoded")


@dataclass(frozen=True)
class Unscored:
    """A judge reply that could not be turned into a valid score; it is stored with ``reason``, never as 0."""

    reason: str


@dataclass
class ParsedJudgement:
    """A validated judge reply with the totals benger computes itself."""

    dimensions: dict[str, float]
    justifications: dict[str, str]
    total: float
    grade_points: int | None
    passed: bool | None
    model_total: float | None
    total_mismatch: bool
    answer: Answer | None = None
    overall: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _first(mapping: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in mapping:
            return mapping[key]
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _fmt(value: float) -> str:
    return f"{value:g}"


def validate_judgement(data: dict[str, Any], rubric: Rubric) -> ParsedJudgement | Unscored:
    """Validate an already decoded judge object against ``rubric`` (see ``parse_judgement``)."""
    dims = _first(data, _DIMENSION_KEYS)
    if not isinstance(dims, dict):
        return Unscored("missing 'dimensionen' object")
    known = set(rubric.keys)
    misplaced = {k: dims[k] for k in ("antwort_kandidat", "gesamtpunkte", "gesamtwuerdigung") if k in dims}
    if misplaced:  # top-level fields a model nested inside the dimensions: move them out, do not fail
        dims = {k: v for k, v in dims.items() if k not in misplaced}
        data = {**misplaced, **data}
    unknown = sorted(k for k in dims if k not in known)
    if unknown:
        return Unscored(f"unknown dimension {unknown[0]!r}")
    scores: dict[str, float] = {}
    justifications: dict[str, str] = {}
    for dim in rubric.dimensions:
        if dim.key not in dims:
            return Unscored(f"missing dimension {dim.key!r}")
        entry = dims[dim.key]
        if not isinstance(entry, dict):
            return Unscored(f"dimension {dim.key!r}: expected an object with 'punkte' and 'begruendung'")
        raw = _first(entry, _SCORE_KEYS)
        if raw is None:
            return Unscored(f"dimension {dim.key!r}: missing score")
        score = _number(raw)
        if score is None:
            return Unscored(f"dimension {dim.key!r}: score {raw!r} is not a number")
        if score < 0 or score > dim.max:
            return Unscored(f"dimension {dim.key!r}: score {_fmt(score)} outside 0..{_fmt(dim.max)}")
        steps = score / rubric.step
        if abs(steps - round(steps)) > 1e-9:
            return Unscored(f"dimension {dim.key!r}: score {_fmt(score)} is not a multiple of {_fmt(rubric.step)}")
        text = _first(entry, _JUSTIFICATION_KEYS)
        if not isinstance(text, str) or not text.strip():
            return Unscored(f"dimension {dim.key!r}: missing justification")
        scores[dim.key] = score
        justifications[dim.key] = text.strip()
    total = math.fsum(scores.values())
    model_total = _number(_first(data, _TOTAL_KEYS))
    mismatch = model_total is not None and abs(model_total - total) > 1e-9
    answer: Answer | None = None
    raw_answer = data.get("antwort_kandidat")
    if isinstance(raw_answer, str):
        try:
            answer = normalise_answer(raw_answer)
        except ValueError:
            answer = None
    overall = data.get("gesamtwuerdigung")
    graded = rubric.graded and rubric.max_total == 100
    return ParsedJudgement(
        dimensions=scores,
        justifications=justifications,
        total=total,
        grade_points=grade_points(total) if graded else None,
        passed=passed(total) if graded else None,
        model_total=model_total,
        total_mismatch=mismatch,
        answer=answer,
        overall=overall if isinstance(overall, str) else None,
    )


def parse_judgement(text: str, rubric: Rubric) -> ParsedJudgement | Unscored:
    """Parse and validate a judge reply.

    Outcomes: malformed JSON, a missing/unknown dimension, a score outside 0..max, a score off the
    rubric's step (0.5) or a missing justification -> ``Unscored`` with a precise reason. Otherwise a
    ``ParsedJudgement`` whose total is the sum of the dimensions (a differing model total is recorded in
    ``model_total`` and flagged, not trusted).
    """
    try:
        data = extract_json_object(text)
    except MalformedOutput as exc:
        return Unscored(exc.reason)
    if _first(data, _DIMENSION_KEYS) is None and any(f'"{key}"' in text for key in _DIMENSION_KEYS):
        # only an inner object decoded: the outer one is broken, typically cut off at the token limit
        return Unscored("malformed JSON: the object with the dimensions could not be decoded (cut off?)")
    return validate_judgement(data, rubric)

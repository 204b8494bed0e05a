"""Validate a judge reply against its rubric: every dimension, 0..max in steps, a justification each.

A reply that fails validation becomes ``Unscored(reason)`` — never a score of 0. Totals, grade points and
pass are computed here from the dimension scores; a total the model reports is kept as ``model_total``.
Which object of a reply is the judgement is decided by ``benger.llm.read_json_reply`` (reasoning apart,
the last valid object, format echoes and quotations of the prompt ignored, several different valid
objects -> ``Unscored(kind="ambiguous")``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from benger.judge._rubric import Rubric
from benger.llm._reply import AmbiguousOutput, MalformedOutput, find_json_objects, first_json_object, read_json_reply
from benger.schema import Answer, normalise_answer

_DIMENSION_KEYS = ("dimensionen", "dimensions", "kriterien", "scores")
_SCORE_KEYS = ("punkte", "score", "points")
_JUSTIFICATION_KEYS = ("begruendung", "begründung", "justification", "reason")
_TOTAL_KEYS = ("gesamtpunkte", "total", "total_score", "gesamt")


def extract_json_object(text: str) -> dict[str, Any]:
    """The first top-level JSON object in ``text`` (no validation; see ``benger.llm.first_json_object``).

    Raises MalformedOutput when no complete JSON object can be decoded. Replies are read with
    ``parse_judgement`` / ``benger.llm.read_json_reply``, which take the last valid object instead.
    """
    return first_json_object(text)


UnscoredKind = Literal["malformed", "ambiguous"]


@dataclass(frozen=True)
class Unscored:
    """A judge reply that could not be turned into a valid score; it is stored with ``reason``, never as 0.

    ``kind``: ``malformed`` (re-asked within the budget) or ``ambiguous`` (several different valid objects;
    final)."""

    reason: str
    kind: UnscoredKind = "malformed"


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
    #: prose after the judgement object that corrects it ("Korrektur: …"): the reply contradicts itself
    correction_after: str | None = None


def _first(mapping: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in mapping:
            return mapping[key]
    return None


def read_number(value: Any) -> float | None:
    """A score as a judge or a reviewer writes it (int, float, or text with a decimal comma) as a float; None
    for booleans, non-finite values and anything else."""
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
        score = read_number(raw)
        if score is None:
            return Unscored(f"dimension {dim.key!r}: score {raw!r} is not a number")
        if score < 0 or score > dim.max:
            return Unscored(f"dimension {dim.key!r}: score {_fmt(score)} outside 0..{_fmt(dim.max)}")
        step = rubric.step if dim.step is None else dim.step
        steps = score / step
        if abs(steps - round(steps)) > 1e-9:
            return Unscored(f"dimension {dim.key!r}: score {_fmt(score)} is not a multiple of {_fmt(step)}")
        text = _first(entry, _JUSTIFICATION_KEYS)
        if not isinstance(text, str) or not text.strip():
            return Unscored(f"dimension {dim.key!r}: missing justification")
        scores[dim.key] = score
        justifications[dim.key] = text.strip()
    total = math.fsum(scores.values())
    model_total = read_number(_first(data, _TOTAL_KEYS))
    mismatch = model_total is not None and abs(model_total - total) > 1e-9
    answer: Answer | None = None
    raw_answer = data.get("antwort_kandidat")
    if isinstance(raw_answer, str):
        try:
            answer = normalise_answer(raw_answer)
        except ValueError:
            answer = None
    overall = data.get("gesamtwuerdigung")
    return ParsedJudgement(
        dimensions=scores,
        justifications=justifications,
        total=total,
        grade_points=rubric.grade_points(total),
        passed=rubric.passed(total),
        model_total=model_total,
        total_mismatch=mismatch,
        answer=answer,
        overall=overall if isinstance(overall, str) else None,
    )


def _validated(rubric: Rubric) -> Callable[[dict[str, Any]], ParsedJudgement]:
    def validate(data: dict[str, Any]) -> ParsedJudgement:
        result = validate_judgement(data, rubric)
        if isinstance(result, Unscored):
            raise MalformedOutput(result.reason)
        return result

    return validate


def parse_judgement(
    text: str, rubric: Rubric, *, reasoning: str | None = None, quoted: Iterable[str] = ()
) -> ParsedJudgement | Unscored:
    """Parse and validate a judge reply.

    ``reasoning``: reasoning the provider returned in its own field (kept apart, never parsed);
    ``quoted``: the texts the judge was shown (its prompt) — an object equal to one in them is a
    quotation (e.g. of the candidate), never the score. Outcomes: malformed JSON, a missing/unknown
    dimension, a score outside 0..max, a score off the rubric's step (0.5), a missing justification or a
    format echo (placeholders) -> ``Unscored`` with a precise reason (that of the last object);
    several different valid objects -> ``Unscored(kind="ambiguous")``. Otherwise a ``ParsedJudgement``
    whose total is the sum of the dimensions (a differing model total is recorded in ``model_total`` and
    flagged, not trusted). A key stated twice with different values (``"punkte": 14, "punkte": 0``) makes the
    reply ``Unscored`` with ``duplicate key '<path>' …``; a prose correction after the object
    (``Korrektur: …``) is kept in ``correction_after`` (stored in the judgement's meta).
    """
    try:
        reply = read_json_reply(text, _validated(rubric), reasoning=reasoning, quoted=quoted)
        if reply.correction_after is not None:
            reply.value.correction_after = reply.correction_after
        return reply.value
    except AmbiguousOutput as exc:
        return Unscored(exc.reason, kind="ambiguous")
    except MalformedOutput as exc:
        objects = find_json_objects(text)
        has_dims = any(_first(o.value, _DIMENSION_KEYS) is not None for o in objects)
        if objects and not has_dims and any(f'"{key}"' in text for key in _DIMENSION_KEYS):
            # only inner objects decoded: the outer one is broken, typically cut off at the token limit
            return Unscored("malformed JSON: the object with the dimensions could not be decoded (cut off?)")
        return Unscored(exc.reason)

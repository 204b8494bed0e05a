"""Ja/Nein answers of Grundprinzipien items: robust German answer parsing, accuracy, balanced accuracy.

``parse_answer`` reads „Ja.“, "ja", "Nein, weil …", "**Antwort:** Nein", JSON ({"antwort": "Ja", ...}) and
free text whose first decision word is ja/nein. It returns None when it cannot decide (no decision word, or
both "Antwort: Ja" and "Antwort: Nein"); such answers are counted separately, never as right or wrong.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from benger.schema import normalise_answer

Answer = Literal["Ja", "Nein"]
_JSON_KEYS = ("antwort", "answer", "entscheidung", "decision", "ergebnis", "result", "gold_answer")
_WORD_RE = re.compile(r"(?<![\w-])(ja|nein)(?![\w-])", re.IGNORECASE)
_LABELLED_RE = re.compile(
    r"(?:antwort|entscheidung|ergebnis|answer|decision|result)\s*[*_]*\s*[:=]\s*[*_\"'„“”«»\s]*(ja|nein)\b",
    re.IGNORECASE,
)
_STRIP = " \t\r\n\"'„“”‚‘’«»*_`#>-–—:.()[]"


def _from_json(text: str) -> Answer | None:
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        return None
    try:
        data: Any = json.loads(match.group(0))
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    lowered = {str(k).lower(): v for k, v in data.items()}
    for key in _JSON_KEYS:
        value = lowered.get(key)
        if isinstance(value, bool):
            return "Ja" if value else "Nein"
        if isinstance(value, str):
            return parse_answer(value)
    return None


def parse_answer(text: str | None) -> Answer | None:
    """Map a model's answer to "Ja" / "Nein", or None when it does not decide unambiguously."""
    if not text or not text.strip():
        return None
    stripped = text.strip()
    if "{" in stripped:
        from_json = _from_json(stripped)
        if from_json is not None:
            return from_json
    try:
        return normalise_answer(stripped.strip(_STRIP))
    except ValueError:
        pass
    labelled = {m.group(1).lower() for m in _LABELLED_RE.finditer(stripped)}
    if len(labelled) == 1:
        return "Ja" if labelled.pop() == "ja" else "Nein"
    if len(labelled) > 1:
        return None
    first = _WORD_RE.search(stripped[:200])
    if first is None:
        return None
    return "Ja" if first.group(1).lower() == "ja" else "Nein"


@dataclass(frozen=True)
class AccuracyReport:
    """Accuracy over all items (unparseable = wrong), over parsed items, balanced accuracy, and counts."""

    n: int
    n_parsed: int
    n_unparseable: int
    accuracy: float
    accuracy_parsed: float | None
    balanced_accuracy: float | None
    recall_ja: float | None
    recall_nein: float | None


def _check(pred: Sequence[Answer | None], gold: Sequence[Answer]) -> None:
    if len(pred) != len(gold):
        raise ValueError(f"{len(pred)} predictions but {len(gold)} gold answers")
    for g in gold:
        if g not in ("Ja", "Nein"):
            raise ValueError(f"gold answer must be 'Ja' or 'Nein', got {g!r}")


def accuracy(pred: Sequence[Answer | None], gold: Sequence[Answer]) -> float:
    """Share of items whose parsed answer equals gold; an unparseable answer (None) counts as not correct."""
    _check(pred, gold)
    if not gold:
        raise ValueError("accuracy of zero items")
    return sum(p == g for p, g in zip(pred, gold, strict=True)) / len(gold)


def balanced_accuracy(pred: Sequence[Answer | None], gold: Sequence[Answer]) -> float | None:
    """Mean of the per-class recalls over the gold classes present (None-answers count as misses)."""
    _check(pred, gold)
    recalls = [r for r in (_recall(pred, gold, "Ja"), _recall(pred, gold, "Nein")) if r is not None]
    return sum(recalls) / len(recalls) if recalls else None


def _recall(pred: Sequence[Answer | None], gold: Sequence[Answer], label: Answer) -> float | None:
    idx = [i for i, g in enumerate(gold) if g == label]
    return sum(pred[i] == label for i in idx) / len(idx) if idx else None


def accuracy_report(pred: Sequence[Answer | None], gold: Sequence[Answer]) -> AccuracyReport:
    """All accuracy numbers at once, with the unparseable answers counted separately."""
    _check(pred, gold)
    parsed = [(p, g) for p, g in zip(pred, gold, strict=True) if p is not None]
    return AccuracyReport(
        n=len(gold),
        n_parsed=len(parsed),
        n_unparseable=len(gold) - len(parsed),
        accuracy=accuracy(pred, gold) if gold else float("nan"),
        accuracy_parsed=sum(p == g for p, g in parsed) / len(parsed) if parsed else None,
        balanced_accuracy=balanced_accuracy(pred, gold),
        recall_ja=_recall(pred, gold, "Ja"),
        recall_nein=_recall(pred, gold, "Nein"),
    )

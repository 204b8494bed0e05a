"""The Ja/Nein accuracy of benger: correct / all items, a missing answer counts as wrong (issue 11, item 5).

Apart from :mod:`benger.metrics._answers` (the answer parser and its many patterns), so that the leaderboard's
accuracy column loads no parser (issue 26); ``_answers`` re-exports these names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Answer = Literal["Ja", "Nein"]


@dataclass(frozen=True)
class AccuracyReport:
    """THE Ja/Nein accuracy of benger (issue 11, item 5): ``n_correct / n`` over *all* items — an item
    without an answer (None: unparseable, refused, excluded) counts as wrong — always shown together with
    ``n_answered / n`` (``label``). Balanced accuracy and per-class recalls use the same denominator rule
    (a missing answer is a miss). There is deliberately no accuracy over answered items only."""

    n: int
    n_answered: int
    n_correct: int
    accuracy: float | None
    balanced_accuracy: float | None
    recall_ja: float | None
    recall_nein: float | None

    @property
    def n_parsed(self) -> int:
        """Alias of ``n_answered``."""
        return self.n_answered

    @property
    def n_unparseable(self) -> int:
        return self.n - self.n_answered

    @property
    def label(self) -> str:
        """``"46.2 % (6/13 correct, 6/13 answered)"``; ``"– (0 items)"`` without items."""
        if self.accuracy is None:
            return "– (0 items)"
        return f"{100 * self.accuracy:.1f} % ({self.n_correct}/{self.n} correct, {self.n_answered}/{self.n} answered)"


def _check(pred: Sequence[Answer | None], gold: Sequence[Answer]) -> None:
    if len(pred) != len(gold):
        raise ValueError(f"{len(pred)} predictions but {len(gold)} gold answers")
    for g in gold:
        if g not in ("Ja", "Nein"):
            raise ValueError(f"gold answer must be 'Ja' or 'Nein', got {g!r}")


def accuracy(pred: Sequence[Answer | None], gold: Sequence[Answer]) -> float:
    """Correct / all items; an item without an answer (None) counts as wrong. Raises on zero items."""
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
    """The one accuracy definition with its counts (see ``AccuracyReport``); zero items -> accuracy None.

    ``pred[i]`` is the system's answer to item i (None when it gave none), ``gold[i]`` the gold answer."""
    _check(pred, gold)
    correct = sum(p == g for p, g in zip(pred, gold, strict=True))
    return AccuracyReport(
        n=len(gold),
        n_answered=sum(p is not None for p in pred),
        n_correct=correct,
        accuracy=correct / len(gold) if gold else None,
        balanced_accuracy=balanced_accuracy(pred, gold),
        recall_ja=_recall(pred, gold, "Ja"),
        recall_nein=_recall(pred, gold, "Nein"),
    )

"""Stored judge validations (issue 24): what ``benger validate-judge`` found for a judge configuration, so that
the leaderboard, the report and the viewer can name the judge's status beside its scores."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from benger.store._tables import utcnow

Verdict = Literal["passes", "fails", "undefined"]


class JudgeValidation(BaseModel):
    """One validation of a judge configuration on a set of picks.

    ``judge_config_hash`` / ``rubric_id``: the judgements' key columns (the validated judge under that rubric);
    ``picks``: what it was validated on (e.g. "BenGER release picks"); ``pearson`` / ``kappa`` / ``icc``: judge vs
    the mean blind pool on the human picks (r, Cohen's kappa of pass/fail, ICC(2,k) with the judge in a
    reviewer's place); ``omega`` and ``verdict``: the Calderon alt-test (blind pool, epsilon 0.15; ``undefined``
    when no annotator shares enough picks); ``source``: ``validate-judge`` or ``release`` (the paper's judges)."""

    model_config = ConfigDict(frozen=True)

    judge: str
    judge_config_hash: str
    rubric_id: str
    picks: str
    n_picks: int
    pearson: float | None = None
    kappa: float | None = None
    icc: float | None = None
    omega: float | None = None
    verdict: Verdict
    source: str = "validate-judge"
    validated_at: datetime = Field(default_factory=utcnow)
    details: dict[str, Any] | None = None


#: The key of a stored validation (one per judge configuration, rubric and picks).
VALIDATION_KEY = ["judge_config_hash", "rubric_id", "picks"]


class ValidationsMixin:
    """``Store`` methods that write :class:`JudgeValidation` records (``judge_validations`` reads them:
    :class:`benger.store._reads.StoreReads`)."""

    def save_judge_validation(self, record: JudgeValidation) -> None:
        """Insert or replace the validation of (judge config hash, rubric id, picks): one transaction."""
        from benger.store._models import JudgeValidationRow  # the Store's module has loaded it already

        values = record.model_dump()
        with self._write() as session, session.begin():  # type: ignore[attr-defined]
            self._upsert(session, JudgeValidationRow, [self._stamped(values)], VALIDATION_KEY, keep=["created_at"])  # type: ignore[attr-defined]

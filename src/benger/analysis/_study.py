"""StudyData: the dataset every analysis reads (:class:`~benger.analysis._records.StudyContents`) with its two
constructors, ``StudyData.from_release`` and ``StudyData.from_store``.

Layering inside ``benger.analysis``: ``_records`` (the records and StudyContents) <- ``_from_release`` /
``_from_store`` (build a StudyContents) <- this module. Nothing below imports it, so there is no cycle and no
registration at import time; the records are re-exported here for the callers that import them from this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from benger.analysis._from_release import study_from_release
from benger.analysis._from_store import study_from_store
from benger.analysis._records import (
    POOLS,
    CorpusSummary,
    GenScore,
    HumanAnnotation,
    ReviewRow,
    Solution,
    StudyContents,
    SystemMeta,
    short_grader,
)

__all__ = [
    "POOLS",
    "CorpusSummary",
    "GenScore",
    "HumanAnnotation",
    "ReviewRow",
    "Solution",
    "StudyContents",
    "StudyData",
    "SystemMeta",
    "short_grader",
]


class StudyData(StudyContents):
    """Everything RQ1-RQ5 need (the fields and views of :class:`StudyContents`), built from a release or a store."""

    @classmethod
    def of(cls, contents: StudyContents) -> StudyData:
        """The same fields (shared, not copied) as a StudyData."""
        return cls(**{f.name: getattr(contents, f.name) for f in fields(StudyContents)})

    @classmethod
    def from_release(cls, path: str | Path) -> StudyData:
        """Build the dataset from the official release folder (see ``benger.corpora.load_release``).

        Raises whatever the release loader raises (``benger.errors`` input errors for a missing or malformed
        release)."""
        return cls.of(study_from_release(path))

    @classmethod
    def from_store(
        cls,
        store: Any,
        *,
        corpus: str = "benchathon",
        primary_judge: str | None = None,
        metric_signatures: Mapping[str, str] | None = None,
        rubrics: Mapping[str, Any] | None = None,
        leaderboard_options: Mapping[str, Any] | None = None,
    ) -> StudyData:
        """Build the dataset from a ``benger.store.Store`` (one Falllösung corpus plus ZJS/GP summaries); one
        signature per metric (``metric_signatures`` or each metric's most frequent one); ``rubrics``: corpus ->
        Rubric for tasks without their own Bewertungsbogen (as a run config's ``rubrics:``);
        ``leaderboard_options``: the options the analysis will call ``leaderboard`` with, whose board is then
        computed first (see ``study_from_store``)."""
        contents = study_from_store(
            store,
            corpus=corpus,
            primary_judge=primary_judge,
            metric_signatures=metric_signatures,
            rubrics=rubrics,
            leaderboard_options=leaderboard_options,
        )
        return cls.of(contents)

"""StudyData and its records, the names the analyses import (defined in :mod:`benger.analysis._records` and
:mod:`benger.analysis._study`), and the two loaders behind ``StudyData.from_release`` / ``from_store``."""

from __future__ import annotations

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
from benger.analysis._study import StudyData

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
    "study_from_release",
    "study_from_store",
]

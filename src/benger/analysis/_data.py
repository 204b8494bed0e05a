"""StudyData and its records (defined in :mod:`benger.analysis._study`), with both constructors wired in.

``StudyData.from_release(path)`` and ``StudyData.from_store(store, ...)`` run
:func:`benger.analysis._from_release.study_from_release` and :func:`benger.analysis._from_store.study_from_store`.
Those modules import the records from ``_study``; this module sits above all three, so no import cycle remains.
"""

from __future__ import annotations

from benger.analysis._from_release import study_from_release
from benger.analysis._from_store import study_from_store
from benger.analysis._study import (
    POOLS,
    CorpusSummary,
    GenScore,
    HumanAnnotation,
    ReviewRow,
    Solution,
    StudyData,
    SystemMeta,
    set_loaders,
    short_grader,
)

set_loaders(release=study_from_release, store=study_from_store)

__all__ = [
    "POOLS",
    "CorpusSummary",
    "GenScore",
    "HumanAnnotation",
    "ReviewRow",
    "Solution",
    "StudyData",
    "SystemMeta",
    "short_grader",
    "study_from_release",
    "study_from_store",
]

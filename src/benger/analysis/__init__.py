"""benger.analysis: the leaderboard and the RQ1-RQ5 computations over a StudyData.

Each name loads its module on first use (PEP 562 ``__getattr__``), so ``benger leaderboard`` imports the
leaderboard and not the RQ computations (and their scipy). ``benger.analysis.leaderboard`` is the leaderboard
package; its function of the same name is ``benger.leaderboard`` (``benger.analysis.leaderboard.leaderboard``)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.analysis._compute import compute_all
    from benger.analysis._data import StudyData
    from benger.analysis._records import GenScore, SystemMeta
    from benger.analysis.leaderboard import (
        Leaderboard,
        LeaderboardRow,
        SystemRank,
        leaderboard_from_store,
    )

_LAZY = {
    "compute_all": "benger.analysis._compute",
    "StudyData": "benger.analysis._data",
    "GenScore": "benger.analysis._records",
    "SystemMeta": "benger.analysis._records",
    "Leaderboard": "benger.analysis.leaderboard",
    "LeaderboardRow": "benger.analysis.leaderboard",
    "SystemRank": "benger.analysis.leaderboard",
    "leaderboard_from_store": "benger.analysis.leaderboard",
}


#: subpackages, imported on first use as attributes too (``benger.analysis.leaderboard.judge_status``)
_SUBPACKAGES = ("leaderboard", "results")


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")  # the import binds it here
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benger.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "GenScore",
    "Leaderboard",
    "LeaderboardRow",
    "StudyData",
    "SystemMeta",
    "SystemRank",
    "compute_all",
    "leaderboard_from_store",
]

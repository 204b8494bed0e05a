"""benger.analysis: the leaderboard and the RQ1-RQ5 computations over a StudyData."""

from benger.analysis._compute import compute_all
from benger.analysis._data import StudyData
from benger.analysis.leaderboard import (
    Leaderboard,
    LeaderboardRow,
    SystemRank,
    leaderboard,
    leaderboard_from_store,
)

__all__ = [
    "Leaderboard",
    "LeaderboardRow",
    "StudyData",
    "SystemRank",
    "compute_all",
    "leaderboard",
    "leaderboard_from_store",
]

"""The one statistics stack of benger (numpy / scipy / statsmodels)."""

from benger.stats._intervals import Interval, bootstrap_mean_ci, normal_mean_ci

__all__ = ["Interval", "bootstrap_mean_ci", "normal_mean_ci"]

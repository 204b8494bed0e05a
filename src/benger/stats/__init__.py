"""The one statistics stack of benger (numpy / scipy): intervals, agreement, alt-test, calibration.

Each name loads its module on first use (PEP 562 ``__getattr__``): the leaderboard's intervals need numpy
only, and ``scipy.stats`` (about 2 CPU-s to import on a laptop) is imported by the statistics that use it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.stats._agreement import (
        ICCResult,
        bootstrap_pearson_ci,
        cohen_kappa,
        complete_pairs,
        icc2,
        kappa_undefined_reason,
        kendall_tau_b,
        krippendorff_alpha_interval,
        mae,
        pearson,
        spearman,
        undefined_reason,
    )
    from benger.stats._alt_test import (
        AltTestResult,
        AnnotatorTest,
        alt_test,
        blind_pool_outcomes,
        omega_from_counts,
        single_expert_outcomes,
    )
    from benger.stats._calibration import (
        TIERS,
        CalibrationFit,
        apply_calibration,
        calibration_offsets,
        fit_calibration,
        fit_calibration_batch,
    )
    from benger.stats._compare import PairComparison, paired_system_comparisons
    from benger.stats._intervals import (
        Interval,
        TostResult,
        bootstrap_diff_ci,
        bootstrap_mean_ci,
        bootstrap_mean_cis,
        bootstrap_means,
        bootstrap_tost,
        cluster_bootstrap_diff_ci,
        cluster_bootstrap_mean_ci,
        named_rng,
        normal_ci_from_summary,
        normal_mean_ci,
        paired_bootstrap_ci,
    )
    from benger.stats._mean_ci import (
        CI_METHODS,
        COVERAGE,
        MIN_INTERVAL_N,
        NO_INTERVAL,
        CiMethod,
        bca_mean_ci,
        bca_mean_cis,
        best_method,
        mean_ci,
        t_mean_ci,
    )
    from benger.stats._proportions import ProportionMethod, proportion_ci

_HOMES: dict[str, tuple[str, ...]] = {
    "benger.stats._agreement": (
        "ICCResult",
        "bootstrap_pearson_ci",
        "cohen_kappa",
        "complete_pairs",
        "icc2",
        "kappa_undefined_reason",
        "kendall_tau_b",
        "krippendorff_alpha_interval",
        "mae",
        "pearson",
        "spearman",
        "undefined_reason",
    ),
    "benger.stats._alt_test": (
        "AltTestResult",
        "AnnotatorTest",
        "alt_test",
        "blind_pool_outcomes",
        "omega_from_counts",
        "single_expert_outcomes",
    ),
    "benger.stats._calibration": (
        "TIERS",
        "CalibrationFit",
        "apply_calibration",
        "calibration_offsets",
        "fit_calibration",
        "fit_calibration_batch",
    ),
    "benger.stats._compare": (
        "PairComparison",
        "paired_system_comparisons",
    ),
    "benger.stats._intervals": (
        "Interval",
        "TostResult",
        "bootstrap_diff_ci",
        "bootstrap_mean_ci",
        "bootstrap_mean_cis",
        "bootstrap_means",
        "bootstrap_tost",
        "cluster_bootstrap_diff_ci",
        "cluster_bootstrap_mean_ci",
        "named_rng",
        "normal_ci_from_summary",
        "normal_mean_ci",
        "paired_bootstrap_ci",
    ),
    "benger.stats._mean_ci": (
        "CI_METHODS",
        "COVERAGE",
        "MIN_INTERVAL_N",
        "NO_INTERVAL",
        "CiMethod",
        "bca_mean_ci",
        "bca_mean_cis",
        "best_method",
        "mean_ci",
        "t_mean_ci",
    ),
    "benger.stats._proportions": (
        "ProportionMethod",
        "proportion_ci",
    ),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benger.stats' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CI_METHODS",
    "COVERAGE",
    "MIN_INTERVAL_N",
    "NO_INTERVAL",
    "TIERS",
    "AltTestResult",
    "AnnotatorTest",
    "CalibrationFit",
    "CiMethod",
    "ICCResult",
    "Interval",
    "PairComparison",
    "ProportionMethod",
    "TostResult",
    "alt_test",
    "apply_calibration",
    "bca_mean_ci",
    "bca_mean_cis",
    "best_method",
    "blind_pool_outcomes",
    "bootstrap_diff_ci",
    "bootstrap_mean_ci",
    "bootstrap_mean_cis",
    "bootstrap_means",
    "bootstrap_pearson_ci",
    "bootstrap_tost",
    "calibration_offsets",
    "cluster_bootstrap_diff_ci",
    "cluster_bootstrap_mean_ci",
    "cohen_kappa",
    "complete_pairs",
    "fit_calibration",
    "fit_calibration_batch",
    "icc2",
    "kappa_undefined_reason",
    "kendall_tau_b",
    "krippendorff_alpha_interval",
    "mae",
    "mean_ci",
    "named_rng",
    "normal_ci_from_summary",
    "normal_mean_ci",
    "omega_from_counts",
    "paired_bootstrap_ci",
    "paired_system_comparisons",
    "pearson",
    "proportion_ci",
    "single_expert_outcomes",
    "spearman",
    "t_mean_ci",
    "undefined_reason",
]

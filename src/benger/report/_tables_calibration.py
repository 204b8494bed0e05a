"""RQ5 calibration tables: the direct offset and pool substitution (Tables 15/16), agreement per rubric dimension,
and the alt-test after creator-based calibration (Appendix M), each from its validated ``rq5`` block."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.analysis.results._models import Meta
from benger.analysis.results._models_rq5 import Calibration, CreatorCalibration, PerDimension
from benger.analysis.results._rows import DimensionAgreement
from benger.report._fmt import ci, dash, f, integer, judge_label, pool_label, provenance, pval, signed
from benger.report._model import Cell, Missing, Table
from benger.report._tables_agreement import scale_note


def calibration_table(cal: Calibration, meta: Meta) -> Table | Missing:
    """Tables 15/16: direct offset and pool-substitution shift per judge (and primary-judge pass) and pool."""
    if not cal.rows:
        return Missing("rq5_calibration", "Judge calibration (RQ5)", "results.json has no rq5.calibration rows")
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    last = None
    for r in sorted(cal.rows, key=lambda r: str(r.pool)):
        if r.pool != last:
            groups[len(rows)] = pool_label(str(r.pool))
            last = r.pool
        label = r.label or judge_label(str(r.judge), meta.judge_labels)
        rows.append(
            [
                label,
                integer(r.n),
                f"{signed(r.judge_minus_pool_mean, 2) or '—'} (sd {dash(f(r.judge_minus_pool_sd, 2))})",
                f"{f(r.judge_pool_ttest_t, 2) or '—'} ({pval(r.judge_pool_ttest_p)})",
                f"{signed(r.diff_mean, 2) or '—'} (sd {dash(f(r.diff_sd, 2))})",
                f(r.sw_diff_p, 2),
                f"{f(r.ttest_t, 2) or '—'} ({pval(r.ttest_p)})",
            ]
        )
    inputs, method = provenance(cal)
    unit = " % points" if scale_note(cal) else ""
    return Table(
        "rq5_calibration",
        "Judge calibration per judge and pool (Tables 15/16 layout)",
        ["Configuration", "n", f"Δdir{unit} (sd)", "t (p)", f"Δsub{unit} (sd)", "SW p", "t_sub (p)"],
        rows,
        caption="Δdir: mean(judge − mean blind); Δsub: mean(pool with the judge substituted − full pool), "
        "attenuated by 1/k; SW: Shapiro-Wilk on the paired differences." + scale_note(cal),
        inputs=inputs,
        method=method,
        group_rows=groups,
    )


def per_dimension_pools(pd: PerDimension) -> dict[str, dict[str, DimensionAgreement]]:
    """``{pool: {dimension: {n, pearson, spearman, mae, ...}}}`` of ``rq5.per_dimension`` (pools with judge
    dimension scores only; the others are in ``pd.unavailable``)."""
    return {p: dict(dims) for p, dims in pd.pools.items()}


def per_dimension_table(pd: PerDimension) -> Table | Missing:
    """Primary judge vs mean blind per rubric dimension, for each pool."""
    pools = per_dimension_pools(pd)
    if not any(pools.values()):
        return Missing("rq5_dimensions", "Agreement per dimension (RQ5)", "results.json has no rq5.per_dimension")
    dims = list(dict.fromkeys(d for p in pools.values() for d in p))
    rows: list[list[Cell]] = []
    for d in dims:
        row: list[Cell] = [d]
        for p in pools.values():
            v = p.get(d)
            row += [integer(v.n), f(v.pearson, 2), f(v.mae, 2)] if v is not None else [None, None, None]
        rows.append(row)
    cols = ["Dimension"] + [c for p in pools for c in (f"{p} n", f"{p} r", f"{p} MAE")]
    notes = [f"No per-dimension judge scores for the {pool_label(p)}." for p in ("human", "llm") if p not in pools]
    inputs, method = provenance(pd)
    return Table(
        "rq5_dimensions",
        "Primary judge vs mean blind reviewer per rubric dimension (RQ5)",
        cols,
        rows,
        caption="Pearson r and mean absolute error on each dimension's points.",
        inputs=inputs or "human reviews, primary-judge dimension scores",
        method=method,
        notes=notes,
    )


def _omega_cell(b: Any) -> str | None:
    if not isinstance(b, Mapping) or b.get("omega") is None:
        return None
    cp = b.get("ci_clopper") or [None, None]
    boot: Mapping[str, Any] = b["boot"] if isinstance(b.get("boot"), Mapping) else {}
    interval = ci(boot.get("low"), boot.get("high"), 2) or ci(cp[0], cp[1], 2)
    return f"{dash(f(b.get('omega'), 2))} (ρ {dash(f(b.get('rho'), 2))}) {interval or ''}".rstrip()


def creator_calibration_table(cc: CreatorCalibration, meta: Meta) -> Table | Missing:
    """ω after creator-based calibration (pooled LOO, GLOO, pure creator) per judge and pool, one column per tier
    (the first ε of each cell; the others are in results.json)."""
    tiers = ("raw", "scalar", "affine")
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    eps_seen: set[str] = set()
    for scheme, judges in (("pooled_loo", cc.pooled_loo), ("gloo", cc.gloo), ("pure_creator", cc.pure_creator)):
        groups[len(rows)] = scheme.replace("_", " ")
        for judge, pools in judges.items():
            for pool, by_tier in (pools or {}).items():
                if not isinstance(by_tier, Mapping) or pool == "params":  # fitted parameters, not a pool
                    continue
                cells: list[Cell] = []
                for tier in tiers:
                    tb = by_tier.get(tier)
                    if isinstance(tb, Mapping) and "omega" not in tb:  # nested by epsilon: show the first
                        eps = next((e for e in tb if isinstance(tb[e], Mapping)), None)
                        eps_seen.add(str(eps))
                        tb = tb.get(eps) if eps is not None else None
                    cells.append(_omega_cell(tb))
                rows.append([judge_label(judge, meta.judge_labels), pool, *cells])
    if not rows:
        return Missing("rq5_creator", "Creator-calibrated alt-test (RQ5)", "rq5.creator_calibration is empty")
    eps_note = f" at ε={', '.join(sorted(eps_seen))}" if eps_seen else ""
    inputs, method = provenance(cc)
    return Table(
        "rq5_creator",
        "Alt-test after creator-based calibration (RQ5)",
        ["Judge", "Pool", "raw ω (ρ) [CI]", "scalar ω (ρ) [CI]", "affine ω (ρ) [CI]"],
        rows,
        caption=f"Winning rate ω{eps_note} after mapping judge scores onto creator grades (raw: none; "
        "scalar shift; affine map); CI: stacked bootstrap where computed, else Clopper-Pearson. Other "
        "ε values are in results.json.",
        inputs=inputs,
        method=method,
        group_rows=groups,
    )

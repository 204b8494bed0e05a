"""Tables for RQ5 (judge validity) and the extras: Tables 13, 15-18 layouts, IRR, per dimension, calibration."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.report._fmt import (
    block,
    ci,
    display_names,
    f,
    integer,
    judge_label,
    pool_label,
    provenance,
    pval,
    signed,
)
from benger.report._model import Cell, Missing, Table


def _primary(results: Mapping[str, Any]) -> str | None:
    p = block(results, "meta", "primary_judge")
    if isinstance(p, str):
        return p
    jvp = block(results, "rq5", "judge_vs_pool")
    return next(iter(jvp), None) if isinstance(jvp, Mapping) and jvp else None


def _alt_row(label: str, a: Any) -> list[Cell] | None:
    if not isinstance(a, Mapping):
        return None
    eps = f(a.get("epsilon"), 2)
    sample = f"m={integer(a.get('m_annotators')) or '—'}, {integer(a.get('n_instances_total')) or '—'} instances"
    verdict = None if a.get("passes") is None else ("passes" if a.get("passes") else "fails")
    return [
        label,
        sample,
        f"ω={f(a.get('omega'), 2) or '—'} (ε={eps or '—'})",
        f"ρ={f(a.get('rho'), 2) or '—'}",
        verdict,
    ]


def agreement_table(results: Mapping[str, Any]) -> Table | Missing:
    """Table 13: the headline judge-human and human-human agreement numbers."""
    rq5 = block(results, "rq5")
    judge = _primary(results)
    if not isinstance(rq5, Mapping) or judge is None:
        return Missing("rq5_agreement", "Agreement (RQ5, Table 13)", "results.json has no rq5 block")
    rows: list[list[Cell]] = []
    for pool in ("human", "llm"):
        b = block(rq5, "judge_vs_pool", judge, pool)
        if isinstance(b, Mapping):
            rows.append(
                [
                    f"Judge vs mean blind ({pool_label(pool)})",
                    f"n={integer(b.get('n'))}",
                    f"r={f(b.get('pearson'), 2)}, ρ={f(b.get('spearman'), 2)}",
                    f"MAE raw {f(b.get('mae_raw'))}, gp {f(b.get('mae_grade_points'), 2)}",
                    f"κ={f(b.get('kappa'), 2)}",
                ]
            )
    irr: Mapping[str, Any] = rq5["irr"] if isinstance(rq5.get("irr"), Mapping) else {}
    k = irr.get("k", 3)
    subs = [("Human IRR pooled", irr.get("pooled"))]
    subs += [(f"· {t}", v) for t, v in (irr.get("by_solution_type") or {}).items()]
    for label, b in subs:
        if isinstance(b, Mapping):
            rows.append(
                [
                    label,
                    f"n={integer(b.get('n'))}×{k}",
                    f"ICC(2,1) raw {f(b.get('icc_2_1_raw'), 2)}",
                    f"ICC(2,k) raw {f(b.get('icc_2_k_raw'), 2)}",
                    f"ICC(2,k) gp {f(b.get('icc_2_k_gp'), 2)}",
                ]
            )
    for pool in ("human", "llm"):
        r = _alt_row(f"Alt-test, blind pool ({pool_label(pool)})", block(rq5, "alt_test", judge, pool))
        if r:
            rows.append(r)
    for pool in ("human", "llm"):
        r = _alt_row(
            f"Alt-test, creator reference ({pool_label(pool)})", block(rq5, "single_expert", judge, pool, "0.2")
        )
        if r:
            rows.append(r)
    if not rows:
        return Missing("rq5_agreement", "Agreement (RQ5, Table 13)", "no agreement statistics in results.json")
    inputs, method = provenance(block(rq5, "judge_vs_pool", judge, "human"))
    return Table(
        "rq5_agreement",
        f"Agreement on the validation picks, judge {judge_label(judge)} (Table 13 layout)",
        ["Comparison", "Sample", "Stat 1", "Stat 2", "Stat 3"],
        rows,
        caption="Judge vs the mean of three blind reviewers; human inter-rater reliability (ICC); "
        "alt-test winning rate ω (pass: ω ≥ 0.5) with blind-pool and creator references.",
        inputs=inputs,
        method="; ".join(m for m in (method, provenance(irr)[1]) if m),
    )


def judge_pool_table(results: Mapping[str, Any]) -> Table | Missing:
    """Every judge against every pool: correlation, error, κ and offset."""
    jvp = block(results, "rq5", "judge_vs_pool")
    if not isinstance(jvp, Mapping) or not jvp:
        return Missing("rq5_judges", "Judges vs human pools (RQ5)", "results.json has no rq5.judge_vs_pool")
    meta = block(results, "meta")
    rows: list[list[Cell]] = []
    for judge, pools in jvp.items():
        for pool, b in (pools or {}).items():
            rows.append(
                [
                    judge_label(judge, meta),
                    pool,
                    integer(b.get("n")),
                    f(b.get("pearson"), 2),
                    f(b.get("spearman"), 2),
                    f(b.get("kendall"), 2),
                    f(b.get("mae_raw")),
                    f(b.get("mae_grade_points"), 2),
                    f(b.get("kappa"), 2),
                    signed(b.get("offset_raw"), 2),
                    f(b.get("mae_bias_corrected")),
                ]
            )
    first = next(iter(next(iter(jvp.values())).values()), None)
    method = provenance(first)[1]
    inputs = f"blind human reviews; per-pick scores of {len(jvp)} judges ({', '.join(jvp)})"
    return Table(
        "rq5_judges",
        "Every judge against the blind human pools (RQ5)",
        ["Judge", "Pool", "n", "r", "ρ", "τ", "MAE raw", "MAE gp", "κ", "Offset raw", "MAE bias-corr."],
        rows,
        caption="Offset = mean(judge − mean blind); κ on pass/fail.",
        inputs=inputs,
        method=method,
    )


def irr_table(results: Mapping[str, Any]) -> Table | Missing:
    """Human inter-rater reliability: pooled, per solution type, balanced subset."""
    irr = block(results, "rq5", "irr")
    if not isinstance(irr, Mapping) or not isinstance(irr.get("pooled"), Mapping):
        return Missing("rq5_irr", "Human inter-rater reliability (RQ5)", "results.json has no rq5.irr")
    rows: list[list[Cell]] = []
    subs = [("pooled", irr["pooled"]), *list((irr.get("by_solution_type") or {}).items())]
    for label, b in subs:
        rows.append(
            [
                label,
                integer(b.get("n")),
                f(b.get("icc_2_1_raw"), 2),
                f(b.get("icc_2_k_raw"), 2),
                f(b.get("icc_2_1_gp"), 2),
                f(b.get("icc_2_k_gp"), 2),
                f(b.get("spread_raw")),
                f(b.get("krippendorff_alpha_raw"), 2),
            ]
        )
    bal = irr.get("balanced_subset")
    notes = []
    if isinstance(bal, Mapping):
        raw, gp = bal.get("raw") or {}, bal.get("grade_points") or {}
        notes.append(
            f"Balanced subset (raters {', '.join(bal.get('raters') or [])}; n={integer(bal.get('n'))}): "
            f"ICC(2,1) raw {f(raw.get('icc_2_1'), 2)}, ICC(2,k) raw {f(raw.get('icc_2_k'), 2)}, "
            f"ICC(2,k) gp {f(gp.get('icc_2_k'), 2)}."
        )
    inputs, method = provenance(irr)
    return Table(
        "rq5_irr",
        f"Human inter-rater reliability, k={irr.get('k', 3)} blind reviewers (RQ5)",
        [
            "Picks",
            "n",
            "ICC(2,1) raw",
            "ICC(2,k) raw",
            "ICC(2,1) gp",
            "ICC(2,k) gp",
            "Spread raw",
            "Krippendorff α raw",
        ],
        rows,
        caption="Spread: mean within-pick max − min of the blind grades.",
        inputs=inputs,
        method=method,
        notes=notes,
    )


def alt_test_table(results: Mapping[str, Any], pool: str) -> Table | Missing:
    """Tables 17/18: the per-annotator alt-test detail of every judge on one pool."""
    alt = block(results, "rq5", "alt_test")
    tid = f"rq5_alt_{pool}"
    title = f"Alt-test per annotator, {pool_label(pool)} (Table {17 if pool == 'human' else 18} layout)"
    blocks = {j: p[pool] for j, p in (alt or {}).items() if isinstance(p, Mapping) and isinstance(p.get(pool), Mapping)}
    if not blocks:
        return Missing(tid, title, f"results.json has no rq5.alt_test for pool '{pool}'")
    meta = block(results, "meta")
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    for judge, a in blocks.items():
        verdict = "passes" if a.get("passes") else "fails"
        cp = a.get("omega_ci95") or [None, None]
        groups[len(rows)] = (
            f"{judge_label(judge, meta)}: ω={f(a.get('omega'), 2)} {verdict}, "
            f"CP 95% CI {ci(cp[0], cp[1], 2) or '—'}, ρ={f(a.get('rho'), 2)}, "
            f"ε={f(a.get('epsilon'), 2)}"
        )
        for p in a.get("per_annotator") or []:
            rows.append(
                [
                    p.get("grader"),
                    integer(p.get("n_j")),
                    f"{f(p.get('rho_f'), 2)} / {f(p.get('rho_h'), 2)}",
                    f(p.get("d_bar"), 3),
                    p.get("test"),
                    pval(p.get("p_value")),
                    "★" if p.get("rejected_BY") else "",
                ]
            )
    method = provenance(next(iter(blocks.values())))[1]
    inputs = f"blind human reviews of the {pool_label(pool)}; per-pick scores of {len(blocks)} judges"
    return Table(
        tid,
        title,
        ["Annotator", "n_j", "ρf / ρh", "d̄", "Test", "p", "BY rej."],
        rows,
        caption="ρf: share of items where the judge agrees with the other annotators at least as well as "
        "the held-out annotator; ρh the reverse; ★: rejected by Benjamini-Yekutieli at q=0.05.",
        inputs=inputs,
        method=method,
        group_rows=groups,
    )


def calibration_table(results: Mapping[str, Any]) -> Table | Missing:
    """Tables 15/16: direct offset and pool-substitution shift per judge (and primary-judge pass) and pool."""
    cal = block(results, "rq5", "calibration")
    if not isinstance(cal, Mapping) or not cal.get("rows"):
        return Missing("rq5_calibration", "Judge calibration (RQ5)", "results.json has no rq5.calibration rows")
    meta = block(results, "meta")
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    last = None
    for r in sorted(cal["rows"], key=lambda r: str(r.get("pool"))):
        if r.get("pool") != last:
            groups[len(rows)] = pool_label(str(r.get("pool")))
            last = r.get("pool")
        label = r.get("label") or judge_label(str(r.get("judge")), meta)
        rows.append(
            [
                label,
                integer(r.get("n")),
                f"{signed(r.get('judge_minus_pool_mean'), 2) or '—'} (sd {f(r.get('judge_minus_pool_sd'), 2)})",
                f"{f(r.get('judge_pool_ttest_t'), 2) or '—'} ({pval(r.get('judge_pool_ttest_p'))})",
                f"{signed(r.get('diff_mean'), 2) or '—'} (sd {f(r.get('diff_sd'), 2)})",
                f(r.get("sw_diff_p"), 2),
                f"{f(r.get('ttest_t'), 2) or '—'} ({pval(r.get('ttest_p'))})",
            ]
        )
    inputs, method = provenance(cal)
    return Table(
        "rq5_calibration",
        "Judge calibration per judge and pool (Tables 15/16 layout)",
        ["Configuration", "n", "Δdir (sd)", "t (p)", "Δsub (sd)", "SW p", "t_sub (p)"],
        rows,
        caption="Δdir: mean(judge − mean blind); Δsub: mean(pool with the judge substituted − full pool), "
        "attenuated by 1/k; SW: Shapiro-Wilk on the paired differences.",
        inputs=inputs,
        method=method,
        group_rows=groups,
    )


def per_dimension_pools(results: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """``{pool: {dimension: {n, pearson, mae}}}`` from rq5.per_dimension (pools directly or under ``pools``)."""
    pd = block(results, "rq5", "per_dimension")
    if not isinstance(pd, Mapping):
        return {}
    src = pd["pools"] if isinstance(pd.get("pools"), Mapping) else pd
    return {
        p: {d: v for d, v in dims.items() if isinstance(v, Mapping)}
        for p, dims in src.items()
        if isinstance(dims, Mapping)
    }


def per_dimension_table(results: Mapping[str, Any]) -> Table | Missing:
    """Primary judge vs mean blind per rubric dimension, for each pool."""
    pools = per_dimension_pools(results)
    if not any(pools.values()):
        return Missing("rq5_dimensions", "Agreement per dimension (RQ5)", "results.json has no rq5.per_dimension")
    dims = list(dict.fromkeys(d for p in pools.values() for d in p))
    rows: list[list[Cell]] = []
    for d in dims:
        row: list[Cell] = [d]
        for p in pools.values():
            v = p.get(d) or {}
            row += [integer(v.get("n")), f(v.get("pearson"), 2), f(v.get("mae"), 2)]
        rows.append(row)
    cols = ["Dimension"] + [c for p in pools for c in (f"{p} n", f"{p} r", f"{p} MAE")]
    notes = [f"No per-dimension judge scores for the {pool_label(p)}." for p in ("human", "llm") if p not in pools]
    inputs, method = provenance(block(results, "rq5", "per_dimension"))
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
    return f"{f(b.get('omega'), 2)} (ρ {f(b.get('rho'), 2)}) {interval or ''}".rstrip()


def creator_calibration_table(results: Mapping[str, Any]) -> Table | Missing:
    """ω after creator-based calibration (pooled LOO, GLOO, pure creator) per judge and pool, one column per tier."""
    cc = block(results, "rq5", "creator_calibration")
    if not isinstance(cc, Mapping):
        return Missing("rq5_creator", "Creator-calibrated alt-test (RQ5)", "no rq5.creator_calibration")
    meta = block(results, "meta")
    tiers = ("raw", "scalar", "affine")
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    eps_seen: set[str] = set()
    for scheme in ("pooled_loo", "gloo", "pure_creator"):
        judges = cc.get(scheme)
        if not isinstance(judges, Mapping):
            continue
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
                rows.append([judge_label(judge, meta), pool, *cells])
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


def checks_table(results: Mapping[str, Any]) -> Table | Missing:
    """Further judge checks: creator vs blind, intra-judge repeats, inter-judge rank agreement."""
    rq5 = block(results, "rq5")
    if not isinstance(rq5, Mapping):
        return Missing("rq5_checks", "Further judge checks (RQ5)", "results.json has no rq5 block")
    rows: list[list[Cell]] = []
    cvb = rq5.get("creator_vs_blind")
    if isinstance(cvb, Mapping):
        rows.append(
            [
                "Creator vs mean blind",
                integer(cvb.get("n")),
                f"r={f(cvb.get('pearson'), 2)}",
                f"MAE {f(cvb.get('mae_raw'))}, offset {signed(cvb.get('offset_raw'))}",
            ]
        )
    ij = rq5.get("intra_judge")
    if isinstance(ij, Mapping):
        rows.append(
            [
                "Primary judge repeats (within-generation SD)",
                integer(ij.get("n_generations")),
                f"mean {f(ij.get('mean_within_sd'), 2)}, median {f(ij.get('median_within_sd'), 2)}",
                f"max {f(ij.get('max_within_sd'), 2)}",
            ]
        )
    primary = block(rq5, "inter_judge_rank", "primary")
    for judge, b in (block(rq5, "inter_judge_rank", "judges") or {}).items():
        if judge == primary or not isinstance(b, Mapping):
            continue
        rows.append(
            [
                f"System ranking: {judge_label(judge, block(results, 'meta'))} vs primary",
                integer(b.get("n_systems")),
                f"ρ={f(b.get('spearman'), 2)}",
                f"τ={f(b.get('kendall'), 2)}",
            ]
        )
    if not rows:
        return Missing("rq5_checks", "Further judge checks (RQ5)", "none of the checks is in results.json")
    methods = "; ".join(provenance(rq5.get(k))[1] for k in ("intra_judge", "inter_judge_rank") if rq5.get(k))
    return Table(
        "rq5_checks",
        "Further judge checks (RQ5)",
        ["Check", "n", "Stat 1", "Stat 2"],
        rows,
        inputs="human reviews, judge repeats, released per-judge system aggregates",
        method=methods,
    )


def paired_systems_table(results: Mapping[str, Any]) -> Table | Missing:
    """Paired system comparisons on shared tasks with Holm-adjusted p-values."""
    ps = block(results, "extras", "paired_systems")
    if not isinstance(ps, Mapping) or not ps.get("pairs"):
        return Missing("paired_systems", "Paired system comparisons", "results.json has no extras.paired_systems")
    names = display_names(results)
    rows: list[list[Cell]] = [
        [
            f"{names.get(str(p.get('a')), p.get('a'))} − {names.get(str(p.get('b')), p.get('b'))}",
            integer(p.get("n")),
            signed(p.get("delta")),
            ci(p.get("low"), p.get("high"), sign=True),
            pval(p.get("p_value")),
            pval(p.get("p_holm")),
            "yes" if p.get("significant") else "no",
        ]
        for p in ps["pairs"]
    ]
    inputs, method = provenance(ps)
    return Table(
        "paired_systems",
        "Paired system comparisons on shared Benchathon tasks",
        ["Pair", "n", "Δ raw", "95% CI", "p", "p (Holm)", "Significant"],
        rows,
        inputs=inputs,
        method=method,
    )

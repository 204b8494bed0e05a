"""RQ5 agreement tables: the headline numbers (Table 13), every judge against every blind pool, the human
inter-rater reliability and the per-annotator alt-test (Tables 17/18), each from its validated ``rq5`` block."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.analysis._percent import PERCENT_SCALE
from benger.analysis.results._models import Meta
from benger.analysis.results._models_rq5 import AltTest, Irr, JudgeVsPool
from benger.analysis.results._rows import IccPair, IrrStats
from benger.analysis.results._top import RQ5
from benger.report._fmt import ci, dash, f, integer, judge_label, pool_label, provenance, pval, signed
from benger.report._model import Cell, Missing, Table


def irr_k(irr: Irr) -> Any:
    """The number of blind reviewers per pick as results.json gives it (3 where the block does not say)."""
    return irr.k if "k" in irr.model_fields_set else 3


def _scale_word(block: JudgeVsPool) -> str:
    """``%`` for a comparison on percent of the rubric total (a user's own rubric), else ``raw``."""
    return "%" if block.unit == PERCENT_SCALE else "raw"


def scale_note(block: Any) -> str:
    """The caption's sentence on the scale of an own-rubric block (any RQ5 block with a ``unit``; '' on the
    paper's raw 0-100)."""
    return f" Judge and reviewers on {PERCENT_SCALE}." if block is not None and block.unit == PERCENT_SCALE else ""


def _verdict(a: AltTest) -> str | None:
    """passes / fails; "undefined" where omega is (too few picks per annotator: no verdict, never "fails")."""
    if a.omega is None:
        return "undefined (too few picks per annotator)"
    return None if a.passes is None else ("passes" if a.passes else "fails")


def _alt_row(label: str, a: AltTest | None) -> list[Cell] | None:
    if a is None:
        return None
    eps = f(a.epsilon, 2)
    sample = f"m={integer(a.m_annotators) or '—'}, {integer(a.n_instances_total) or '—'} instances"
    verdict = _verdict(a)
    return [label, sample, f"ω={f(a.omega, 2) or '—'} (ε={eps or '—'})", f"ρ={f(a.rho, 2) or '—'}", verdict]


def agreement_table(rq5: RQ5, meta: Meta) -> Table | Missing:
    """Table 13: the primary judge's agreement with the blind pools, the human IRR and the alt-tests (blind-pool
    reference at ε 0.15, creator reference at ε 0.2)."""
    judge = meta.primary_judge
    rows: list[list[Cell]] = []
    by_pool: Mapping[str, JudgeVsPool] = rq5.judge_vs_pool.get(judge, {})
    for pool in ("human", "llm"):
        b = by_pool.get(pool)
        if b is not None:
            rows.append(
                [
                    f"Judge vs mean blind ({pool_label(pool)})",
                    f"n={dash(integer(b.n))}",
                    f"r={dash(f(b.pearson, 2))}, ρ={dash(f(b.spearman, 2))}",
                    f"MAE {_scale_word(b)} {dash(f(b.mae_raw))}, gp {dash(f(b.mae_grade_points, 2))}",
                    f"κ={dash(f(b.kappa, 2))}",
                ]
            )
    irr = rq5.irr
    k = irr_k(irr)
    word = "%" if scale_note(irr) else "raw"
    subs: list[tuple[str, IrrStats | None]] = [("Human IRR pooled", irr.pooled)]
    subs += [(f"· {t}", v) for t, v in irr.by_solution_type.items()]
    for label, s in subs:
        if s is not None:
            rows.append(
                [
                    label,
                    f"n={dash(integer(s.n))}×{k}",
                    f"ICC(2,1) {word} {dash(f(s.icc_2_1_raw, 2))}",
                    f"ICC(2,k) {word} {dash(f(s.icc_2_k_raw, 2))}",
                    f"ICC(2,k) gp {dash(f(s.icc_2_k_gp, 2))}",
                ]
            )
    for pool in ("human", "llm"):
        r = _alt_row(f"Alt-test, blind pool ({pool_label(pool)})", rq5.alt_test.get(judge, {}).get(pool))
        if r:
            rows.append(r)
    for pool in ("human", "llm"):
        creator = rq5.single_expert.get(judge, {}).get(pool, {}).get("0.2")
        r = _alt_row(f"Alt-test, creator reference ({pool_label(pool)})", creator)
        if r:
            rows.append(r)
    if not rows:
        return Missing("rq5_agreement", "Agreement (RQ5, Table 13)", "no agreement statistics in results.json")
    inputs, method = provenance(by_pool.get("human"))
    return Table(
        "rq5_agreement",
        f"Agreement on the validation picks, judge {judge_label(judge)} (Table 13 layout)",
        ["Comparison", "Sample", "Stat 1", "Stat 2", "Stat 3"],
        rows,
        caption="Judge vs the mean of three blind reviewers; human inter-rater reliability (ICC); "
        "alt-test winning rate ω (pass: ω ≥ 0.5) with blind-pool and creator references."
        + scale_note(by_pool.get("human") or by_pool.get("llm")),
        inputs=inputs,
        method="; ".join(m for m in (method, provenance(irr)[1]) if m),
    )


def judge_pool_table(jvp: Mapping[str, Mapping[str, JudgeVsPool]], meta: Meta) -> Table | Missing:
    """Every judge against every pool (``rq5.judge_vs_pool``): correlation, error, κ and offset."""
    if not jvp:
        return Missing("rq5_judges", "Judges vs human pools (RQ5)", "results.json has no rq5.judge_vs_pool")
    rows: list[list[Cell]] = []
    for judge, pools in jvp.items():
        for pool, b in pools.items():
            rows.append(
                [
                    judge_label(judge, meta.judge_labels),
                    pool,
                    integer(b.n),
                    f(b.pearson, 2),
                    f(b.spearman, 2),
                    f(b.kendall, 2),
                    f(b.mae_raw),
                    f(b.mae_grade_points, 2),
                    f(b.kappa, 2),
                    signed(b.offset_raw, 2),
                    f(b.mae_bias_corrected),
                ]
            )
    first = next(iter(next(iter(jvp.values())).values()), None)
    word = _scale_word(first) if first is not None else "raw"
    method = provenance(first)[1]
    inputs = f"blind human reviews; per-pick scores of {len(jvp)} judges ({', '.join(jvp)})"
    return Table(
        "rq5_judges",
        "Every judge against the blind human pools (RQ5)",
        ["Judge", "Pool", "n", "r", "ρ", "τ", f"MAE {word}", "MAE gp", "κ", f"Offset {word}", "MAE bias-corr."],
        rows,
        caption="Offset = mean(judge − mean blind); κ on pass/fail." + scale_note(first),
        inputs=inputs,
        method=method,
    )


def irr_table(irr: Irr) -> Table | Missing:
    """Human inter-rater reliability (``rq5.irr``): pooled, per solution type, balanced subset (in the notes)."""
    if irr.pooled is None:
        return Missing("rq5_irr", "Human inter-rater reliability (RQ5)", "results.json has no rq5.irr")
    rows: list[list[Cell]] = []
    for label, b in [("pooled", irr.pooled), *irr.by_solution_type.items()]:
        rows.append(
            [
                label,
                integer(b.n),
                f(b.icc_2_1_raw, 2),
                f(b.icc_2_k_raw, 2),
                f(b.icc_2_1_gp, 2),
                f(b.icc_2_k_gp, 2),
                f(b.spread_raw),
                f(b.krippendorff_alpha_raw, 2),
            ]
        )
    bal = irr.balanced_subset
    notes = []
    word = "%" if scale_note(irr) else "raw"
    if bal is not None:
        raw, gp = bal.raw or IccPair(), bal.grade_points or IccPair()
        notes.append(
            f"Balanced subset (raters {', '.join(bal.raters)}; n={dash(integer(bal.n))}): "
            f"ICC(2,1) {word} {dash(f(raw.icc_2_1, 2))}, ICC(2,k) {word} {dash(f(raw.icc_2_k, 2))}, "
            f"ICC(2,k) gp {dash(f(gp.icc_2_k, 2))}."
        )
    inputs, method = provenance(irr)
    return Table(
        "rq5_irr",
        f"Human inter-rater reliability, k={irr_k(irr)} blind reviewers (RQ5)",
        [
            "Picks",
            "n",
            f"ICC(2,1) {word}",
            f"ICC(2,k) {word}",
            "ICC(2,1) gp",
            "ICC(2,k) gp",
            f"Spread {word}",
            f"Krippendorff α {word}",
        ],
        rows,
        caption="Spread: mean within-pick max − min of the blind grades." + scale_note(irr),
        inputs=inputs,
        method=method,
        notes=notes,
    )


def alt_test_table(alt: Mapping[str, Mapping[str, AltTest]], pool: str, meta: Meta) -> Table | Missing:
    """Tables 17/18 from ``rq5.alt_test``: the per-annotator alt-test detail of every judge on one pool."""
    tid = f"rq5_alt_{pool}"
    title = f"Alt-test per annotator, {pool_label(pool)} (Table {17 if pool == 'human' else 18} layout)"
    blocks = {j: p[pool] for j, p in alt.items() if pool in p}
    if not blocks:
        return Missing(tid, title, f"results.json has no rq5.alt_test for pool '{pool}'")
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    for judge, a in blocks.items():
        verdict = _verdict(a)
        cp = a.omega_ci95 or [None, None]
        groups[len(rows)] = (
            f"{judge_label(judge, meta.judge_labels)}: ω={dash(f(a.omega, 2))} {verdict}, "
            f"CP 95% CI {ci(cp[0], cp[1], 2) or '—'}, ρ={dash(f(a.rho, 2))}, "
            f"ε={dash(f(a.epsilon, 2))}"
        )
        for p in a.per_annotator:
            rows.append(
                [
                    p.grader,
                    integer(p.n_j),
                    f"{dash(f(p.rho_f, 2))} / {dash(f(p.rho_h, 2))}",
                    f(p.d_bar, 3),
                    p.test,
                    pval(p.p_value),
                    "★" if p.rejected_BY else "",
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

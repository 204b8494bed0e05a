"""Further judge checks (creator vs blind, intra-judge repeats, inter-judge rank agreement) and the paired system
comparisons, each from its validated block."""

from __future__ import annotations

from collections.abc import Mapping

from benger.analysis.results._models import Meta, PairedSystems
from benger.analysis.results._top import RQ5
from benger.report._fmt import ci, dash, f, integer, judge_label, provenance, pval, signed
from benger.report._model import Cell, Missing, Table
from benger.report._tables_agreement import scale_note


def checks_table(rq5: RQ5, meta: Meta) -> Table | Missing:
    """Further judge checks: creator vs blind, intra-judge repeats, inter-judge rank agreement."""
    cvb, ij, ijr = rq5.creator_vs_blind, rq5.intra_judge, rq5.inter_judge_rank
    rows: list[list[Cell]] = [
        [
            "Creator vs mean blind",
            integer(cvb.n),
            f"r={dash(f(cvb.pearson, 2))}",
            f"MAE{' %' if scale_note(cvb) else ''} {dash(f(cvb.mae_raw))}, offset {dash(signed(cvb.offset_raw))}",
        ],
        [
            "Primary judge repeats (within-generation SD)",
            integer(ij.n_generations),
            f"mean {dash(f(ij.mean_within_sd, 2))}, median {dash(f(ij.median_within_sd, 2))}",
            f"max {dash(f(ij.max_within_sd, 2))}",
        ],
    ]
    for judge, b in ijr.judges.items():
        if judge == ijr.primary:
            continue
        rows.append(
            [
                f"System ranking: {judge_label(judge, meta.judge_labels)} vs primary",
                integer(b.n_systems),
                f"ρ={dash(f(b.spearman, 2))}",
                f"τ={dash(f(b.kendall, 2))}",
            ]
        )
    return Table(
        "rq5_checks",
        "Further judge checks (RQ5)",
        ["Check", "n", "Stat 1", "Stat 2"],
        rows,
        inputs="human reviews, judge repeats, released per-judge system aggregates",
        method="; ".join(provenance(b)[1] for b in (ij, ijr)),
    )


def paired_systems_table(ps: PairedSystems, names: Mapping[str, str]) -> Table | Missing:
    """Paired system comparisons on shared tasks with Holm-adjusted p-values (``extras.paired_systems``)."""
    if not ps.pairs:
        return Missing("paired_systems", "Paired system comparisons", "results.json has no extras.paired_systems")
    rows: list[list[Cell]] = [
        [
            f"{names.get(str(p.a), p.a)} − {names.get(str(p.b), p.b)}",
            integer(p.n),
            signed(p.delta),
            ci(p.low, p.high, sign=True),
            pval(p.p_value),
            pval(p.p_holm),
            "yes" if p.significant else "no",
        ]
        for p in ps.pairs
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

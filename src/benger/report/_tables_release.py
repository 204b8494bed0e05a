"""Report tables of the release-only blocks: the operational table (paper Table 8), the judge swap (Tables 19-20),
Appendix A (Tables 2 and 5), the departures and the Gutachtenstil analyser's validity; each from its validated
block (``names``: system id -> display name, from the leaderboard)."""

from __future__ import annotations

from collections.abc import Mapping

from benger.analysis.results._models import AppendixA, Departures, GutachtenValidity, Operational
from benger.analysis.results._models_rq5 import JudgeSwap
from benger.analysis.results._rows import FeatureRho, MeanCell
from benger.report._fmt import dash, f, integer, pct, provenance
from benger.report._model import Cell, Missing, Table


def operational_table(op: Operational, names: Mapping[str, str]) -> Table | Missing:
    """Per system: settings, Benchathon generations, truncated count, latency, cost, output words."""
    title = "Systems and operational data (Table 8)"
    if not op.rows:
        return Missing("rq1_operational", title, op.reason or "results.json has no rq1.operational rows")
    rows: list[list[Cell]] = []
    for r in op.rows:
        total, trunc = integer(r.generations), integer(r.truncated)
        rows.append(
            [
                names.get(r.system, r.system),
                r.provider,
                r.tier,
                r.weights,
                f(r.temperature, 1),
                integer(r.max_output_tokens),
                total,
                f"{trunc}/{total}" if trunc is not None and total is not None else None,
                f(r.mean_latency_s, 1),
                f(r.mean_cost_usd, 4),
                f(r.mean_words, 0),
            ]
        )
    inputs, method = provenance(op)
    return Table(
        "rq1_operational",
        title,
        ["System", "Provider", "Tier", "Weights", "T", "Max out", "Gens", "Trunc.", "Latency s", "Cost $", "Words"],
        rows,
        caption="Gens: Benchathon generations including superseded ones; latency and cost: mean per call from the "
        "per-call log (blank where the log has no entry for the model id); words: mean output words per generation.",
        inputs=inputs,
        method=method,
    )


def judge_swap_table(js: JudgeSwap, names: Mapping[str, str]) -> Table | Missing:
    """Per system and judge: mean raw and pass rate (raw >= 50) on the shared cells; rank agreement in the notes."""
    title = "Judge swap: per-system means under six judges (Tables 19-20)"
    if not js.judges:
        return Missing("rq5_judge_swap", title, js.reason or "results.json has no rq5.judge_swap")
    judges = js.judges
    order = list(judges)
    systems = list(dict.fromkeys(s for j in judges.values() for s in j.systems))
    rows: list[list[Cell]] = []
    for s in systems:
        row: list[Cell] = [names.get(s, s)]
        for j in order:
            cell = judges[j].systems.get(s)
            parts = (f(cell.mean_raw), pct(cell.pass_rate), pct(cell.pass_rate_offset_corrected)) if cell else ()
            row.append(" / ".join(p or "—" for p in parts) if cell else None)
        rows.append(row)
    ranks: list[Cell] = [f"{dash(f(judges[j].spearman, 3))} / {dash(f(judges[j].kendall, 3))}" for j in order]
    offsets: list[Cell] = [f(judges[j].offset_raw, 2) for j in order]
    rows.append(["Spearman ρ / Kendall τ-b vs primary", *ranks])
    rows.append(["Offset Δ_dir (LLM picks)", *offsets])
    inputs, method = provenance(js)
    notes = [js.reason] if js.reason else []
    return Table(
        "rq5_judge_swap",
        title,
        ["System", *order],
        rows,
        caption="Cells: mean raw / pass rate (raw ≥ 50) / offset-corrected pass rate, on the generations scored by "
        "all six judges.",
        inputs=inputs,
        method=method,
        notes=notes,
    )


def _pmc(cell: MeanCell | None, scale: float = 1.0, digits: int = 1) -> str | None:
    """``mean ± half-width`` of a cell (scaled, e.g. 100 for a rate); the ± is left out where undefined."""
    if cell is None or cell.mean is None:
        return None
    half = cell.halfwidth
    mean = f(scale * cell.mean, digits)
    return mean if half is None else f"{mean} ± {dash(f(scale * half, digits))}"


def appendix_table2(a: AppendixA | None, names: Mapping[str, str]) -> Table | Missing:
    """Table 2 from ``rq1.appendix_a.with_superseded``: per-system judge raw / grade points / pass and the human
    graders' columns, as printed."""
    title = "Benchathon per system: judge and human-grader columns (Table 2, as printed)"
    if a is None or not a.table2:
        return Missing("rq1_table2", title, "results.json has no rq1.appendix_a")
    rows: list[list[Cell]] = []
    for r in a.table2:
        label = r.row.replace("_", " ").capitalize() if r.kind == "human" else r.row
        rows.append(
            [
                names.get(r.row, label),
                integer(r.n),
                integer(r.n_h),
                _pmc(r.raw),
                _pmc(r.grade_points, digits=2),
                _pmc(r.pass_rate, 100),
                _pmc(r.h_raw),
                _pmc(r.h_grade_points, digits=2),
                _pmc(r.h_pass_rate, 100),
            ]
        )
    inputs, method = provenance(a)
    return Table(
        "rq1_table2",
        title,
        ["System", "n", "n_H", "Judge raw", "Gr. pts", "Pass %", "H. raw", "H. gr. pts", "H. pass %"],
        rows,
        caption="Mean ± half the 95% bootstrap CI; includes the superseded April generations as the paper prints "
        "(results.json also holds the final-generations version); H.: every human review of the system's picks.",
        inputs=inputs,
        method=method,
    )


def appendix_table5(a: AppendixA | None, names: Mapping[str, str]) -> Table | Missing:
    """Table 5 from ``rq1.appendix_a.with_superseded``: per-system automatic metric means with CIs, as printed
    (the metric columns are the block's ``inputs.metrics``)."""
    title = "Benchathon per system: automatic metrics (Table 5, as printed)"
    if a is None or not a.table5:
        return Missing("rq1_table5", title, "results.json has no rq1.appendix_a")
    metrics = list((a.inputs.get("metrics") if isinstance(a.inputs, dict) else None) or [])
    rows: list[list[Cell]] = []
    for r in a.table5:
        label = r.row.replace("_", " ").capitalize() if r.kind == "human" else r.row
        cells = [_pmc(r.metrics.get(m), digits=3) for m in metrics]
        rows.append([names.get(r.row, label), integer(r.n), *cells])
    inputs, method = provenance(a)
    return Table(
        "rq1_table5",
        title,
        ["System", "n", *metrics],
        rows,
        caption="Mean ± half the 95% bootstrap CI; a dash: no value in the data (the release has no BERTScore for "
        "human solutions and MoverScore / semantic similarity for 44 / 45 of them only).",
        inputs=inputs,
        method=method,
    )


def departures_table(dep: Departures) -> Table | Missing:
    """Every departure from the printed paper and every unavailable block, with the cause."""
    title = "Departures from the printed paper and unavailable inputs"
    if not dep.items:
        return Missing("departures", title, "results.json has no departures block")
    rows: list[list[Cell]] = [[i.kind, i.item, integer(i.printed), integer(i.benger), i.cause] for i in dep.items]
    inputs, method = provenance(dep)
    return Table(
        "departures",
        title,
        ["Kind", "Where", "Printed", "benger", "Cause"],
        rows,
        caption="Printed / benger: the two counts where they differ; unavailable: the release lacks the input.",
        inputs=inputs,
        method=method,
    )


def gutachten_validity_table(val: GutachtenValidity | None) -> Table | Missing:
    """Analyser features vs the judge's and the blind human pool's raw scores on the released picks."""
    title = "Gutachtenstil analyser: validity on the released picks"
    if val is None or not val.rows:
        return Missing("gutachten_validity", title, "computed from the release only (benger reproduce)")

    def rho(c: FeatureRho | None) -> str | None:
        if c is None or c.rho is None:
            return None
        ci = f" [{c.low:+.2f}, {c.high:+.2f}]" if c.low is not None and c.high is not None else ""
        return f"{c.rho:+.2f}{ci} (n={c.n})"

    plain = {(c.feature, c.target): c for c in val.rows}
    partial = {(c.feature, c.target): c for c in val.partial_on_words}
    features = list(dict.fromkeys(c.feature for c in val.rows))
    rows: list[list[Cell]] = [
        [
            feature,
            rho(plain.get((feature, "human_raw"))),
            rho(partial.get((feature, "human_raw"))),
            rho(plain.get((feature, "judge_raw"))),
            rho(partial.get((feature, "judge_raw"))),
        ]
        for feature in features
    ]
    inputs, method = provenance(val)
    return Table(
        "gutachten_validity",
        title,
        ["Feature", "Human raw", "Human raw, partial (words)", "Judge raw", "Judge raw, partial (words)"],
        rows,
        caption="Spearman rho [95% bootstrap CI] (n complete pairs); a dash: undefined (a constant feature). "
        "Per-dimension matrices: benger gutachten-validity.",
        inputs=inputs,
        method=method,
    )

"""Can a judge stand in for a blind human reviewer on BenGER? (issue 13, ``benger validate-judge``).

A candidate judge's raw scores (0-100) on the 45 released validation picks are put beside the paper's six
judges (GPT-5.4-mini, Opus-4.7, Gemini-3.1-Pro, DeepSeek-V4-Pro, Qwen3.5-397B-A17B, Sonnet-4.6; their
scores come from the release's ``creator_calibration_anchors.csv``) and every judge goes through the same
RQ5 functions as ``benger reproduce`` (``benger.analysis._rq5``): agreement with the mean blind pool, the
calibration offset, the Calderon alt-test (blind pool at epsilon 0.15, single expert vs the creator at 0.20
and 0.15; Benjamini-Yekutieli q = 0.05) and, new here, where the judge falls in the ICC(2,k) pool (paper §5.5,
§6.5, Tables 13, 15, 17, 18).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from benger.analysis import _rq5
from benger.analysis._data import POOLS, StudyData
from benger.stats import icc2

#: The paper's six judges, as keyed in the release's anchor file (primary first).
PAPER_JUDGES: tuple[str, ...] = ("gpt54mini", "cfgB_opus", "cfgB_gemini", "deepseek", "qwen", "sonnet")
CANDIDATE = "candidate"
BLIND_EPSILON = 0.15
SINGLE_EXPERT_EPSILONS = ("0.2", "0.15")


def _icc_placement(data: StudyData, scores: Mapping[str, float]) -> dict[str, Any]:
    """ICC(2,k) of the k blind reviewers, and with the judge put in each reviewer's place in turn.

    Rows are the picks with exactly k (the modal number) blind reviews and a judge score; columns are the
    reviews in source order. ``at_least_human_icc`` is true when replacing a reviewer by the judge leaves the mean
    ICC(2,k) at or above the all-human value: the judge then disagrees with the pool no more than a reviewer.
    """
    blind: dict[str, list[float]] = {}
    for r in sorted(data.blind_reviews(), key=lambda r: r.position):
        blind.setdefault(r.solution_id, []).append(r.raw)
    sizes = [len(v) for v in blind.values()]
    if not sizes:
        return {"n": 0, "reason": "no blind reviews"}
    k = max(set(sizes), key=sizes.count)
    ids = [s for s, v in blind.items() if len(v) == k and s in scores]
    if len(ids) < 2 or k < 2:
        return {"n": len(ids), "k": k, "reason": "fewer than 2 picks with a judge score and k blind reviews"}
    human = np.asarray([blind[s] for s in ids])
    judge = np.asarray([scores[s] for s in ids])
    base = icc2(human).icc_2_k
    swapped = []
    for col in range(k):
        m = human.copy()
        m[:, col] = judge
        swapped.append(icc2(m).icc_2_k)
    valid = [x for x in swapped if x is not None]
    mean_swapped = float(np.mean(valid)) if valid else None
    spread = float(np.mean(np.ptp(human, axis=1)))
    mae = float(np.mean(np.abs(judge - human.mean(axis=1))))
    return {
        "method": "ICC(2,k) (Shrout & Fleiss, absolute agreement) of the k blind reviews per pick; then with the "
        "judge in place of the j-th review (j = 1..k, source order), averaged; MAE to the pool mean over half "
        "the mean within-pick range",
        "n": len(ids),
        "k": k,
        "icc_2_k_human": base,
        "icc_2_k_judge_in_place": swapped,
        "icc_2_k_judge_in_place_mean": mean_swapped,
        "delta": None if mean_swapped is None or base is None else mean_swapped - base,
        "at_least_human_icc": None if mean_swapped is None or base is None else mean_swapped >= base,
        "mae_over_half_spread": mae / (spread / 2) if spread else None,
    }


def _judge_block(data: StudyData, judge: str, calibration: list[dict[str, Any]]) -> dict[str, Any]:
    alt = _rq5.alt_tests(_only(data, judge), epsilon=BLIND_EPSILON).get(judge, {})
    single = _rq5.single_expert_tests(_only(data, judge)).get(judge, {})
    return {
        "label": data.judge_labels.get(judge, judge),
        "n_scored": len(data.judge_scores[judge]),
        "agreement": {p: _rq5.judge_vs_pool(data, judge, p) for p in POOLS},
        "calibration": {r["pool"]: r for r in calibration if r["judge"] == judge},
        "alt_test_blind": alt,
        "alt_test_single_expert": {p: {e: v.get(e) for e in SINGLE_EXPERT_EPSILONS} for p, v in single.items()},
        "icc_placement": _icc_placement(data, data.judge_scores[judge]),
    }


def _only(data: StudyData, judge: str) -> StudyData:
    return dataclasses.replace(data, judge_scores={judge: data.judge_scores[judge]}, primary_judge=judge)


def validate_judge(
    data: StudyData,
    scores: Mapping[str, float],
    *,
    label: str,
    provenance: Mapping[str, Any],
    paper_judges: tuple[str, ...] = PAPER_JUDGES,
) -> dict[str, Any]:
    """Validate ``scores`` (pick id -> judge raw 0-100) against the released human reviews.

    Returns ``{"candidate": block, "paper_judges": {key: block}, "coverage": ..., "provenance": ...}``; each
    block holds ``agreement`` (per pool: Pearson, Spearman, MAE raw/grade points, kappa, offset), ``calibration``
    (per pool: Delta_dir/Delta_sub rows), ``alt_test_blind`` (per pool at epsilon 0.15: omega, rho,
    per-annotator p-values, ``passes``), ``alt_test_single_expert`` (per pool, per epsilon "0.2"/"0.15") and
    ``icc_placement``. Scores for ids that are not picks raise ``ValueError`` naming them; picks without a
    score are listed in ``coverage.missing`` (never counted as 0).
    """
    unknown = sorted(set(scores) - set(data.solutions))
    if unknown:
        raise ValueError(f"{len(unknown)} scored id(s) are not released validation picks, e.g. {unknown[0]!r}")
    bad = [s for s, v in scores.items() if not (isinstance(v, int | float) and 0 <= float(v) <= 100)]
    if bad:
        raise ValueError(f"score of pick {bad[0]!r} is {scores[bad[0]]!r}; expected a raw score in 0..100")
    judges = {j: data.judge_scores[j] for j in paper_judges if j in data.judge_scores}
    merged = dataclasses.replace(
        data,
        judge_scores={CANDIDATE: {s: float(v) for s, v in scores.items()}, **judges},
        judge_labels={**data.judge_labels, CANDIDATE: label},
        primary_judge=CANDIDATE,
        repeats={},
    )
    calibration = _rq5.calibration_table(merged)["rows"]
    missing = sorted(s for s in data.solutions if s not in scores)
    return {
        "method": "every judge through the RQ5 analysis of `benger reproduce` on the released picks and the "
        "blind/creator reviews; alt-test: blind pool at epsilon 0.15, single expert (creator) at 0.20 and 0.15, "
        "Benjamini-Yekutieli q = 0.05, pass = omega >= 0.5",
        "provenance": dict(provenance),
        "coverage": {
            "n_picks": len(data.solutions),
            "n_scored": len(scores),
            "missing": missing,
            "by_pool": {p: sum(1 for s in scores if data.solutions[s].pool == p) for p in POOLS},
            "n_reviews": len(data.reviews),
        },
        "candidate": _judge_block(merged, CANDIDATE, calibration),
        "paper_judges": {j: _judge_block(merged, j, calibration) for j in judges},
    }


def _f(x: Any, nd: int = 2) -> str:
    """``x`` with ``nd`` decimals, "–" for None; a value that rounds to zero is "0.0", never "-0.0" (an offset of
    -0.01 was shown as "-0.0")."""
    if x is None:
        return "–"
    text = f"{x:.{nd}f}"
    return text.removeprefix("-") if float(text) == 0 else text


def _verdict(alt: Mapping[str, Any]) -> str:
    """``passes`` / ``fails`` for an alt-test with an omega; ``undefined`` when no annotator shares enough picks
    with the judge (omega is then undefined: no verdict, never "fails")."""
    if alt.get("omega") is None:
        return "undefined (too few picks per annotator)"
    return "passes" if alt["passes"] else "fails"


def _row(key: str, block: Mapping[str, Any], n_human: int | None = None, suffix: str = " (paper)") -> list[str]:
    """One table row; ``n_human``: the human picks the judge scored (the agreement block is absent below 3);
    ``suffix`` follows the name of every judge but the candidate."""
    h = block["agreement"].get("human") or {}
    llm = block["agreement"].get("llm") or {}
    alt = block["alt_test_blind"].get("human") or {}
    alt_llm = block["alt_test_blind"].get("llm") or {}
    se = block["alt_test_single_expert"].get("human") or {}
    icc = block["icc_placement"]
    verdict = _verdict(alt) if alt.get("omega") is not None else "–"
    return [
        block["label"] if key == CANDIDATE else f"{block['label']}{suffix}",
        str(h.get("n", n_human if n_human is not None else 0)),
        _f(h.get("pearson")),
        _f(h.get("spearman")),
        _f(h.get("mae_raw"), 1),
        _f(h.get("mae_grade_points")),
        _f(h.get("kappa")),
        _f(h.get("offset_raw"), 1),
        _f(llm.get("offset_raw"), 1),
        _f(alt.get("omega")),
        verdict,
        _f(alt_llm.get("omega")),
        _f((se.get("0.2") or {}).get("omega")),
        _f((se.get("0.15") or {}).get("omega")),
        _f(icc.get("icc_2_k_judge_in_place_mean")),
    ]


HEADER = [
    "judge",
    "n human",
    "r",
    "rho",
    "MAE raw",
    "MAE gp",
    "kappa",
    "offset human",
    "offset LLM",
    "omega blind (human, eps .15)",
    "verdict",
    "omega blind (LLM)",
    "omega creator eps .20",
    "omega creator eps .15",
    "ICC(2,k) judge in place",
]


#: The columns :data:`HEADER` renames on :data:`benger.analysis._percent.PERCENT_SCALE` (a user's own rubric).
_ON_PERCENT = {"MAE raw": "MAE %", "offset human": "offset human (% points)", "offset LLM": "offset LLM (% points)"}


def headers(result: Mapping[str, Any]) -> list[str]:
    """:data:`HEADER` naming the scale of ``result``: raw 0-100 points, or percent of each solution's rubric
    total when the provenance says so (``validate-judge --corpus``, the viewer under an own rubric)."""
    from benger.analysis._percent import PERCENT_SCALE

    if result.get("provenance", {}).get("scale") != PERCENT_SCALE:
        return list(HEADER)
    return [_ON_PERCENT.get(h, h) for h in HEADER]


def table_rows(result: Mapping[str, Any], suffix: str = " (paper)") -> list[list[str]]:
    """The side-by-side table: the candidate first, then the other judges (columns: :data:`HEADER`), each name
    followed by ``suffix``: the paper's judges beside a candidate are " (paper)"; a caller whose other judges
    are a store's own (the viewer) passes ""."""
    rows = [_row(CANDIDATE, result["candidate"], n_human=result["coverage"]["by_pool"].get("human", 0))]
    rows += [_row(k, v, suffix=suffix) for k, v in result["paper_judges"].items()]
    return rows


def to_markdown(result: Mapping[str, Any]) -> str:
    """Markdown report: provenance, coverage, the side-by-side table, the candidate's per-annotator alt-test."""
    prov = result["provenance"]
    cov = result["coverage"]
    corpus = prov.get("corpus")
    title = (
        f"# Judge validation on the reviewed solutions of {corpus}"
        if corpus
        else ("# Judge validation on the released BenGER picks")
    )
    lines = [title, ""]
    lines += [f"- {k}: {v}" for k, v in prov.items()]
    lines += [
        f"- picks scored: {cov['n_scored']} of {cov['n_picks']} (human {cov['by_pool'].get('human', 0)}, "
        f"LLM {cov['by_pool'].get('llm', 0)}); human reviews: {cov['n_reviews']}",
    ]
    if cov["missing"]:
        lines.append(f"- not scored (left out, never counted as 0): {', '.join(cov['missing'])}")
    icc = result["candidate"]["icc_placement"]
    lines += [
        f"- ICC(2,k) of the {icc.get('k', '–')} blind reviewers on the {icc.get('n', 0)} picks the judge scored: "
        f"{_f(icc.get('icc_2_k_human'), 3)}; with the judge in a reviewer's place: "
        f"{_f(icc.get('icc_2_k_judge_in_place_mean'), 3)}",
        "",
        f"Method: {result['method']}.",
        "",
        "| " + " | ".join(headers(result)) + " |",
        "|" + "---|" * len(HEADER),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in table_rows(result)]
    if corpus:  # your own reviews: the agreement of each pool the reviewed solutions fall in
        for pool, agreement in result["candidate"]["agreement"].items():
            if agreement and agreement.get("n"):
                lines.append(
                    f"\nAgreement with the mean blind review, {pool} solutions (n = {agreement['n']}): "
                    f"r {_f(agreement.get('pearson'))}, rho {_f(agreement.get('spearman'))}, MAE "
                    f"{_f(agreement.get('mae_raw'), 1)} (percent), MAE gp {_f(agreement.get('mae_grade_points'))}, "
                    f"kappa {_f(agreement.get('kappa'))}, offset {_f(agreement.get('offset_raw'), 1)}"
                )
    for pool, title in (("human", "human picks"), ("llm", "LLM picks")):
        alt = result["candidate"]["alt_test_blind"].get(pool)
        if not alt:
            continue
        lines += [
            "",
            f"## Alt-test, blind pool, {title} (epsilon {alt['epsilon']}): omega {_f(alt['omega'])}, "
            f"rho {_f(alt['rho'])}, {_verdict(alt)}",
            "",
            "| annotator | n_j | rho_f | rho_h | d_bar | test | p | rejected (BY q=0.05) |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for a in alt["per_annotator"]:
            lines.append(
                f"| {a['grader']} | {a['n_j']} | {_f(a['rho_f'])} | {_f(a['rho_h'])} | {_f(a['d_bar'])} | "
                f"{a['test']} | {a['p_value']:.4g} | {'yes' if a['rejected_BY'] else 'no'} |"
            )
    return "\n".join(lines) + "\n"


def validation_record(
    result: Mapping[str, Any], *, judge: str, judge_config_hash: str, rubric_id: str, source: str = "validate-judge"
) -> Any:
    """The :class:`benger.store._validations.JudgeValidation` of a :func:`validate_judge` result's candidate
    (human picks vs the mean blind pool: r, kappa; ICC(2,k) with the judge in a reviewer's place; the blind-pool
    alt-test at epsilon 0.15), to store so that the judge's rows carry its status."""
    from benger.store._validations import JudgeValidation

    block = result["candidate"]
    human = block["agreement"].get("human") or {}
    alt = block["alt_test_blind"].get("human") or {}
    omega = alt.get("omega")
    verdict = "undefined" if omega is None else ("passes" if alt.get("passes") else "fails")
    return JudgeValidation(
        judge=judge,
        judge_config_hash=judge_config_hash,
        rubric_id=rubric_id,
        picks="BenGER picks",
        n_picks=int(result["coverage"]["n_scored"]),
        pearson=human.get("pearson"),
        kappa=human.get("kappa"),
        icc=block["icc_placement"].get("icc_2_k_judge_in_place_mean"),
        omega=omega,
        verdict=verdict,
        source=source,
        details={
            "coverage": {k: v for k, v in result["coverage"].items() if k != "missing"},
            "provenance": dict(result.get("provenance", {})),
        },
    )

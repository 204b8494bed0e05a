"""The ``rq1.leaderboard`` block of results.json (paper Table 1 layout) from a finished leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.analysis.leaderboard.model import Leaderboard


def table1(board: Leaderboard, *, group: str | None = None, bench_corpus: str = "benchathon") -> dict[str, Any]:
    """The ``rq1.leaderboard`` block of results.json (paper Table 1 layout) for one judge group of ``board``.

    ``group`` defaults to the group with the most scored generations. Rows are system configurations (a name
    with several configurations is shown as ``name [config id]``); corpora map to the blocks ``bench``
    (``bench_corpus``), ``zjs`` and ``gp`` (``grundprinzipien``). Ranked as in the board's group.
    """
    groups = [g for g in board.groups() if any(r.n for r in board.rows if r.group == g)]
    if group is None:
        group = max(groups, key=lambda g: sum(r.n for r in board.rows if r.group == g)) if groups else None
    rows = [r for r in board.rows if r.group == group and r.rank is not None]
    names: dict[str, set[str]] = {}
    for r in rows:
        names.setdefault(r.system, set()).add(r.config_hash)
    slots = {bench_corpus: "bench", "zjs": "zjs", "grundprinzipien": "gp"}
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        label = r.system if len(names[r.system]) == 1 else f"{r.system} [{r.config_id}]"
        entry = out.setdefault(
            (r.system, r.config_hash),
            {"system": label, "display": label, "tier": r.tier, "config_id": r.config_id, "judge": r.judge,
             "rubric": r.rubric, "kind": "system", "rank": r.rank, "bench": None, "zjs": None, "gp": None,
             "judge_status": r.judge_status, "scores_meaningful": r.scores_meaningful},
        )  # fmt: skip
        slot = slots.get(r.corpus)
        if slot is None or r.n == 0:
            continue
        half = (r.ci_high - r.ci_low) / 2 if r.ci_low is not None and r.ci_high is not None else None
        entry[slot] = {
            "n": r.n, "raw": r.mean, "low": r.ci_low, "high": r.ci_high, "halfwidth": half,
            "pass_rate": r.pass_rate, "grade_points": r.mean_grade_points, "source": "store",
        }  # fmt: skip
        if r.pass_note:
            entry[slot]["pass_note"] = r.pass_note
        if slot == "gp":
            entry[slot]["acc"] = r.accuracy
    ranked = sorted(out.values(), key=lambda e: e["rank"])
    return {
        "method": f"benger leaderboard, judge group {group}: {board.aggregation}; CI {board.ci_method}",
        "inputs": {
            "judge_group": group,
            "seed": board.seed,
            "n_boot": board.n_resamples,
            "benger_version": board.benger_version,
        },
        "rows": ranked,
    }


def table1_from_study(data: Any, *, seed: int = 0, n_boot: int = 2000) -> dict[str, Any] | None:
    """``rq1.leaderboard`` for a StudyData read from a store: :func:`table1` of the store's leaderboard (the
    one definition; a new study's default interval, ``auto``, with ``seed`` / ``n_boot``) for the primary judge;
    None for release data (reproduction keeps the paper's rule: :mod:`benger.analysis._rq12`)."""
    if getattr(data, "leaderboard", None) is None:
        return None
    board = data.leaderboard(ci="auto", seed=seed, n_resamples=n_boot)
    groups = [
        g for g in board.groups() if any(r.judge == data.primary_judge and r.n for r in board.rows if r.group == g)
    ]
    bench = str((data.inputs or {}).get("corpus") or "benchathon")
    # the primary judge configuration's group (judge, config and rubric: a task's own Bewertungsbogen makes its own)
    key = (data.inputs or {}).get("primary_judge_config") or {}
    mine = [g for g in groups if any(r.group == g and r.rubric == key.get("rubric") for r in board.rows)]
    chosen = (mine or groups or [None])[0]
    block = table1(board, group=chosen, bench_corpus=bench)
    task_rubrics = (data.inputs or {}).get("task_rubrics") or {}
    return {**block, "left_out": left_out_groups(board, chosen, [g for g in groups if g != chosen], task_rubrics)}


def left_out_groups(
    board: Leaderboard, chosen: str | None, others: list[str], task_rubrics: dict[str, str]
) -> list[dict[str, Any]]:
    """The primary judge's scored groups that Table 1 (the group ``chosen``) leaves out, each named with its
    rubric, its generations and why: a task's own Bewertungsbogen (``task_rubrics``: task id -> rubric id) or
    another rubric or judge configuration scores on its own scale, which one mean over both would mix (the
    project's rule: a left-out row is named; ``Leaderboard.left_out`` names the validation-only ones)."""
    table = next((r for r in board.rows if r.group == chosen), None)
    out = []
    for group in others:
        rows = [r for r in board.rows if r.group == group and r.n]
        rubric = rows[0].rubric if rows else None
        cases = sorted(t for t, rid in task_rubrics.items() if rid == rubric)
        if cases:
            what = f"the own Bewertungsbogen of {'case' if len(cases) == 1 else 'cases'} {', '.join(cases)}"
        elif table is not None and rubric == table.rubric:
            what = "another judge configuration"
        else:
            what = "another rubric"
        n = sum(r.n for r in rows)
        out.append(
            {
                "judge_group": group,
                "rubric": rubric,
                "tasks": cases,
                "n": n,
                "reason": f"{n} scored generation(s) of judge group {group} (rubric {rubric}, {what}): left out of "
                f"Table 1 (judge group {chosen}, rubric {table.rubric if table else None}), a mean over both would "
                "mix two scales; `benger leaderboard` shows the group",
            }
        )
    return out

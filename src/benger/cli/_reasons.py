"""Why a run is incomplete: the stored reasons of its failed generations and unscored judgements
(``cli._execute._execute_then`` collects them before the exit code 3)."""

from __future__ import annotations

from typing import Any


def failure_reasons(store: Any, result: Any, limit: int = 5) -> list[str]:
    """Why the run is incomplete, one place for both stages: the stored reasons of the failed generations of
    its systems on its corpora and of its judges' unscored judgements of them, the first ``limit`` of each and
    how many in all. A provider failure and a judge reply that is no valid score ("score 999 outside 0..10")
    are saved with their reason, not raised (2026-12-04 attack, item 7: "judge: 6/6 (unscored 6)", no why)."""
    generations = [
        (system, corpus, g)
        for system in result.systems or [None]
        for corpus in result.corpora
        for g in store.generations(corpus=corpus, system=system)
    ]
    failed = [(f"{g.system} on {corpus}/{g.task_id}", g.reason) for _, corpus, g in generations if g.status == "failed"]
    lines = _reason_lines("failed", failed, "failed generation(s)", limit) if result.generation is not None else []
    if result.judgement is not None and result.judges:
        # the targets a judge stage judges: the generations, and the human solutions of the run's corpora
        # (``judge_human_solutions``), whose unscored judgements were not listed ("unscored 2", no why)
        of = {("generation", g.generation_id): f"{g.system} on {corpus}/{g.task_id}" for _, corpus, g in generations}
        for corpus in result.corpora:
            for h in store.human_solutions(corpus=corpus):
                of[("human_solution", h.solution_id)] = f"human solution {h.solution_id} on {corpus}/{h.task_id}"
        judges = set(result.judges)
        unscored = []
        for kind in ("generation", "human_solution"):
            ids = sorted(t for k, t in of if k == kind)
            found = store.judgements(target_kind=kind, target_ids=ids, status="unscored") if ids else []
            unscored += [(f"{j.judge} judging {of[(kind, j.target_id)]}", j.reason) for j in found if j.judge in judges]
        lines += _reason_lines("unscored", unscored, "unscored judgement(s)", limit)
    return lines


def _reason_lines(word: str, items: list[tuple[str, str | None]], what: str, limit: int) -> list[str]:
    """``word: what: reason`` of the first ``limit`` items, then how many there are in all."""
    lines = [f"{word}: {label}: {reason or 'no reason stored'}" for label, reason in items[:limit]]
    if len(items) > limit:
        lines.append(f"... {len(items)} {what} in all")
    return lines

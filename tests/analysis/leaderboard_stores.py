"""Tiny stores for leaderboard tests whose every number can be computed by hand.

:func:`tiny_store` writes one Falllösung corpus ``fall`` of tasks ``t0``, ``t1``, ... and, per system, one ok
generation per task; ``scores[system][judge]`` lists that judge's total per task (None: the judge did not judge
that generation). Each judge has one configuration (hash ``h-JUDGE``) and one rubric; one repeat per judgement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from benger.schema import Corpus, FalloesungTask, Generation, HumanReview, Judgement, SystemConfig
from benger.store import Store, open_store

RUBRIC = "falloesung@1"
Scores = Mapping[str, Mapping[str, Sequence[float | None]]]


def tiny_store(path: Path, scores: Scores, *, reviewed: Sequence[tuple[str, int]] = ()) -> Store:
    """A store at ``path`` holding ``scores`` (see the module); ``reviewed``: (system, task index) pairs whose
    generation gets a human review (a validation pick)."""
    n_tasks = max(len(v) for judges in scores.values() for v in judges.values())
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="fall", area="Zivilrecht", facts="SV", reference="ML")
        for i in range(n_tasks)
    ]
    store = open_store(path)
    store.add_corpus(Corpus(name="fall", tasks=tasks))
    for system, judges in scores.items():
        store.upsert_system(SystemConfig(name=system, provider="local", model=system, tier="local"))
        for i, task in enumerate(tasks):
            gid = f"{system}-{task.task_id}"
            store.save_generation(
                Generation(
                    generation_id=gid,
                    task_id=task.task_id,
                    system=system,
                    config_hash=f"cfg-{system}",
                    status="ok",
                    text="T",
                )
            )
            for judge, totals in judges.items():
                total = totals[i] if i < len(totals) else None
                if total is None:
                    continue
                store.save_judgement(
                    Judgement(
                        judgement_id=f"{gid}-{judge}",
                        target_kind="generation",
                        target_id=gid,
                        judge=judge,
                        judge_config_hash=f"h-{judge}",
                        rubric_id=RUBRIC,
                        repeat_index=0,
                        status="scored",
                        total=total,
                        grade_points=int(total) % 19,
                        passed=total >= 50,
                    )
                )
    for k, (system, i) in enumerate(reviewed):
        store.add_human_review(
            HumanReview(
                review_id=f"r{k}",
                target_kind="generation",
                target_id=f"{system}-t{i}",
                task_id=f"t{i}",
                grader_id="h",
                role="blind",
                dimensions={},
                raw_score=50.0,
                grade_points=None,
                passed=None,
            )
        )
    return store

"""A judge run takes the judgements of one task back to back: every judge prompt of a task starts with the same
rubric, Sachverhalt and Musterlösung (7-11k tokens on the release), which an embedded llama.cpp judge then
evaluates once per task. In the store's order (system by system) each judgement followed one of another task,
so the local judge evaluated that prefix again for every judgement."""

from __future__ import annotations

from pathlib import Path

from benger.pipeline import default_prompts, judge_targets, plan_judgements
from benger.schema import Corpus, FalloesungTask, Generation, HumanSolution, SystemConfig
from benger.store import open_store


def _task(task_id: str) -> FalloesungTask:
    return FalloesungTask(task_id=task_id, corpus="c", area="Zivilrecht", facts=f"Sachverhalt {task_id}.",
                          reference=f"Musterlösung {task_id}.")  # fmt: skip


def test_the_targets_of_one_task_come_together(tmp_path: Path) -> None:
    prompts = default_prompts()
    systems = [SystemConfig(name=n, provider="openai-compatible", model=n, base_url="http://127.0.0.1:1")
               for n in ("sys-a", "sys-b")]  # fmt: skip
    tasks = [_task(t) for t in ("t2", "t1", "t3")]
    with open_store(tmp_path / "s.db") as store:
        store.add_corpus(Corpus(name="c", tasks=tasks))
        for system in systems:
            config_hash = prompts.generation_config_hash(system, "falloesung")
            for task in tasks:
                for run in (0, 1):
                    store.save_generation(Generation(
                        generation_id=f"{system.name}-{task.task_id}-{run}", task_id=task.task_id, corpus="c",
                        system=system.name, config_hash=config_hash, run_index=run, text="Gutachten."))  # fmt: skip
        for task in tasks[:2]:
            store.add_human_solution(HumanSolution(solution_id=f"h-{task.task_id}", task_id=task.task_id,
                                                   participant_id="p", corpus="c", condition="traditional",
                                                   text="Lösung."))  # fmt: skip
        targets = judge_targets(store, tasks, systems, prompts, human_solutions=True)
        judges = [systems[0].model_copy(update={"name": "judge"})]
        units = plan_judgements(store, targets, judges, prompts, repeats=2)
    expected = [
        f"{kind}-{task}" if kind == "h" else f"{kind}-{task}-{run}"
        for task in ("t1", "t2", "t3")
        for kind, run in [("sys-a", 0), ("sys-a", 1), ("sys-b", 0), ("sys-b", 1), *([("h", 0)] if task != "t3" else [])]
    ]
    assert [t[1] for t in targets] == expected
    # the units keep that order; the repeats of one target come one after the other
    assert [(u.target_id, u.repeat_index) for u in units] == [(t, r) for t in expected for r in (0, 1)]


def test_validate_judge_judges_the_release_picks_case_by_case() -> None:
    """``validate-judge --release``: the picks in solution id order interleave the cases; ``--limit`` still takes
    the first picks in that order, which are then judged grouped by case."""
    from types import SimpleNamespace

    from benger.analysis._validate_run import release_targets

    cases = {"s1": "c2", "s2": "c1", "s3": "c2", "s4": "c3", "s5": "c1", "s6": "c1"}
    pools = {"s1": "human", "s2": "llm", "s3": "llm", "s4": "human", "s5": "human", "s6": "llm"}
    data = SimpleNamespace(
        solutions={sid: SimpleNamespace(task_id=task, pool=pools[sid]) for sid, task in cases.items()}
    )
    store = SimpleNamespace(get_human_solution=lambda sid: object())
    assert [t[1] for t in release_targets(store, data, Path("release"))] == ["s2", "s5", "s6", "s1", "s3", "s4"]
    assert [t[1] for t in release_targets(store, data, Path("release"), limit=4)] == ["s2", "s1", "s3", "s4"]
    assert {t[1]: t[0] for t in release_targets(store, data, Path("release"))}["s2"] == "generation"

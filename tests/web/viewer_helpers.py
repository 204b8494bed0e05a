"""A small store for the viewer tests, written through the public Store API, with hand-known numbers.

Corpus ``vcase``: two Falllösung tasks (Zivilrecht, Strafrecht); corpus ``vitem``: two Grundprinzipien items.
Systems ``alpha`` and ``beta`` each answer every task; judge ``judge-x`` scores every generation twice
(repeats), ``judge-y`` once; alpha's generation of task c1 is truncated and has an unscored third judgement.
A human solution ``hs-1`` of c1 has three blind reviews and one creator review; ``hs-live`` (with its review)
belongs to a study that is still a draft, so it must not show without the organiser role.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benger.judge import grade_points, passed
from benger.schema import (
    Corpus,
    FalloesungTask,
    Generation,
    HumanReview,
    HumanSolution,
    Judgement,
    PrincipleItem,
    SystemConfig,
)
from benger.store import Store, open_store
from benger.study import create_study

DIMS = (
    "ergebnisrichtigkeit",
    "vollstaendigkeit",
    "rechtsgrundlagen",
    "rechtskenntnis",
    "subsumtion",
    "schwerpunktsetzung",
    "methodischer_stil",
    "gliederung",
    "sprache",
    "formalia",
)
MAXIMA = (20, 10, 10, 15, 15, 10, 10, 5, 3, 2)
SOLUTION = """A. Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB

K könnte gegen V einen Anspruch auf Übereignung des Fahrrads aus § 433 Abs. 1 S. 1 BGB haben.
Dazu müsste ein Kaufvertrag vorliegen. Ein Kaufvertrag liegt vor, wenn zwei übereinstimmende
Willenserklärungen gegeben sind. Hier haben K und V sich über Ware und Preis geeinigt.
Somit besteht der Anspruch. SUCHWORT-BLAU

B. Ergebnis

K hat gegen V einen Anspruch aus § 433 I 1 BGB."""


def share_dims(share: float) -> dict[str, float]:
    """Every dimension at ``share`` of its maximum, on the 0.5 grid."""
    return {k: round(m * share * 2) / 2 for k, m in zip(DIMS, MAXIMA, strict=True)}


@dataclass
class ViewerWorld:
    store: Store
    live_study: int
    pick_reviews: dict[str, float]  # grader -> raw score of hs-1's reviews


def _judgement(target_kind: str, target_id: str, judge: str, repeat: int, share: float) -> Judgement:
    dims = share_dims(share)
    total = sum(dims.values())
    return Judgement(
        judgement_id=f"j-{target_id}-{judge}-{repeat}",
        target_kind=target_kind,  # type: ignore[arg-type]
        target_id=target_id,
        judge=judge,
        judge_config_hash=f"cfg-{judge}",
        rubric_id="falloesung@1",
        repeat_index=repeat,
        status="scored",
        dimensions=dims,
        justifications={k: f"Begründung {k} von {judge} #{repeat}" for k in DIMS},
        total=total,
        grade_points=grade_points(total),
        passed=passed(total),
        meta={"overall": f"Gesamtwürdigung von {judge} #{repeat}"},
    )


def build(path: Path, location: str | None = None) -> ViewerWorld:
    """The world in ``path``/viewer.db, or at ``location`` (a database URL) when given."""
    store = open_store(location or path / "viewer.db")
    cases = [
        FalloesungTask(
            task_id=f"c{i}",
            corpus="vcase",
            area=area,
            facts=f"Sachverhalt {i}: K kauft von V ein Rad.",
            reference=SOLUTION,
            title=f"Fall {i}",
        )
        for i, area in ((1, "Zivilrecht"), (2, "Strafrecht"))
    ]
    items = [
        PrincipleItem(
            task_id=f"i{i}",
            corpus="vitem",
            area="Öffentliches Recht",
            case=f"Fall {i}",
            question=f"Frage {i}?",
            gold_answer="Ja",
            gold_reasoning="Weil.",
        )
        for i in (1, 2)
    ]
    store.add_corpora([Corpus(name="vcase", tasks=cases), Corpus(name="vitem", tasks=items)])
    systems = {
        name: SystemConfig(name=name, provider="openai-compatible", model=f"m-{name}", tier=tier)
        for name, tier in (("alpha", "flagship"), ("beta", "efficiency"))
    }
    for s in systems.values():
        store.upsert_system(s)
    shares = {("alpha", "c1"): 0.8, ("alpha", "c2"): 0.6, ("beta", "c1"): 0.5, ("beta", "c2"): 0.3}
    for (system, task), share in shares.items():
        gid = f"g-{system}-{task}"
        store.save_generation(
            Generation(
                generation_id=gid,
                task_id=task,
                corpus="vcase",
                system=system,
                config_hash=systems[system].config_hash(),
                text=SOLUTION if system == "alpha" else "Kurz.",
                finish_reason="length" if (system, task) == ("alpha", "c1") else "stop",
                truncated=(system, task) == ("alpha", "c1"),
                input_tokens=1200,
                output_tokens=345,
            )
        )
        store.save_judgement(_judgement("generation", gid, "judge-x", 0, share))
        store.save_judgement(_judgement("generation", gid, "judge-x", 1, share - 0.1))
        store.save_judgement(_judgement("generation", gid, "judge-y", 0, share + 0.1))
    unscored = _judgement("generation", "g-alpha-c1", "judge-x", 2, 0.5).model_copy(
        update={
            "status": "unscored",
            "dimensions": None,
            "total": None,
            "grade_points": None,
            "passed": None,
            "reason": "no JSON object in the reply",
        }
    )
    store.save_judgement(unscored)
    for system in systems:
        for item, answer in (("i1", "Ja"), ("i2", "Nein")):
            gid = f"g-{system}-{item}"
            store.save_generation(
                Generation(
                    generation_id=gid,
                    task_id=item,
                    corpus="vitem",
                    system=system,
                    config_hash=systems[system].config_hash(),
                    text=f"{answer}, weil.",
                    answer=answer,
                )
            )  # type: ignore[arg-type]
    store.add_human_solution(
        HumanSolution(
            solution_id="hs-1",
            task_id="c1",
            corpus="vcase",
            participant_id="u-1",
            condition="traditional",
            text=SOLUTION,
        )
    )
    store.save_judgement(_judgement("human_solution", "hs-1", "judge-x", 0, 0.7))
    reviews = {"grader_01": 0.5, "grader_02": 0.6, "grader_03": 0.4, "creator_01": 0.9}
    for pos, (grader, share) in enumerate(reviews.items()):
        dims = share_dims(share)
        total = sum(dims.values())
        store.add_human_review(
            HumanReview(
                review_id=f"r-{grader}",
                target_kind="human_solution",
                target_id="hs-1",
                task_id="c1",
                grader_id=grader,
                role="creator" if grader.startswith("creator") else "blind",
                dimensions=dims,
                raw_score=total,
                grade_points=grade_points(total),
                passed=passed(total),
                position=pos,
                meta={"justifications": {"subsumtion": f"Kommentar von {grader}"}},
            )
        )
    live = create_study(store, "Laufend", "vcase", 1, 600)
    store.add_human_solution(
        HumanSolution(
            solution_id="hs-live",
            task_id="c2",
            corpus="vcase",
            participant_id="u-2",
            condition="co_creation",
            text="GEHEIM-LAUFEND",
            meta={"study_id": live},
        )
    )
    dims = share_dims(0.5)
    store.add_human_review(
        HumanReview(
            review_id="r-live",
            target_kind="human_solution",
            target_id="hs-live",
            task_id="c2",
            grader_id="grader_09",
            role="blind",
            dimensions=dims,
            raw_score=sum(dims.values()),
            grade_points=grade_points(sum(dims.values())),
            passed=True,
            meta={"study_id": live},
        )
    )
    return ViewerWorld(store, live, {g: sum(share_dims(s).values()) for g, s in reviews.items()})

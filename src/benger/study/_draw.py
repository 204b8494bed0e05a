"""The validation picks and the review assignment of a study, on the study platform's tables: drawn once before
reviews begin (redrawing clears the assignments, and the picks too, while no review has started)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benger.store import Store
from benger.study._assign import PickSpec, assign_reviews
from benger.study._bounds import SEED
from benger.study._errors import StudyError, WrongState
from benger.study._models import (
    Pick,
    Review,
    ReviewAssignment,
    StudyUser,
    Submission,
)
from benger.study._picks import DEFAULT_TIERS, Expertise, HumanCandidate, LlmCandidate, pick_humans, pick_llm
from benger.study._scope import account_scope
from benger.study._service import study_tasks
from benger.study._state import require_state

PROVENANCES: tuple[str, ...] = ("traditional", "co_creation", "llm")


def _reviews_started(session: Session, study_id: int) -> bool:
    started = session.scalar(
        select(Review.id)
        .join(ReviewAssignment, ReviewAssignment.id == Review.assignment_id)
        .where(ReviewAssignment.study_id == study_id)
        .limit(1)
    )
    return started is not None


def _clear(session: Session, study_id: int, picks: bool) -> None:
    """Drop the review assignments (and the picks) of a study whose reviews have not started."""
    if _reviews_started(session, study_id):
        raise WrongState(
            "Die Bewertungen haben begonnen; Picks und Zuweisungen können nicht mehr geändert werden.", field="state"
        )
    session.execute(delete(ReviewAssignment).where(ReviewAssignment.study_id == study_id))
    if picks:
        session.execute(delete(Pick).where(Pick.study_id == study_id))


def run_picks(store: Store, study_id: int, tiers: tuple[str, ...] = DEFAULT_TIERS, *, llm_only: bool = False) -> int:
    """Select the validation picks of a closed study; returns how many were stored.

    Allowed once submissions have ended (state closed) and again (re-picking replaces the picks and any
    review assignments) until the first review is saved. The study moves to ``picked``. Without a submission
    with text it is refused (WrongState, nothing changed) unless ``llm_only``: a study that validates the judge
    on LLM generations alone (one LLM pick per task; human submissions, if any, are not picked).
    """
    try:
        return _run_picks(store, study_id, tiers, llm_only)
    except IntegrityError as exc:  # a concurrent run stored them first
        raise StudyError("Die Picks wurden gerade gleichzeitig ausgewählt; bitte neu laden.", field="study_id") from exc


def _run_picks(store: Store, study_id: int, tiers: tuple[str, ...], llm_only: bool) -> int:
    with store.session() as session:
        study = require_state(session, study_id, "closed", "picked", "in_review", lock=True)
        _clear(session, study_id, picks=True)
        study.state = "picked"
        tasks = study_tasks(session, study_id)
        area = {t.task_id: t.area for t in tasks}
        subs = list(session.scalars(select(Submission).filter_by(study_id=study_id)))
        users = {u.id: u for u in session.scalars(select(StudyUser).where(StudyUser.id.in_({s.user_id for s in subs})))}
        candidates = [
            HumanCandidate(s.id, users[s.user_id].pseudonym, s.task_id, area[s.task_id], s.arm)
            for s in subs
            if s.text.strip() and not llm_only
        ]
        if not candidates and not llm_only:  # picked by mistake before anyone submitted: the study stays closed
            raise WrongState(
                "Die Studie hat keine abgegebene Lösung; Picks brauchen mindestens eine Abgabe mit Text "
                "(eine geschlossene Studie ohne Picks kann wieder geöffnet werden; nur LLM-Lösungen: --llm-only).",
                field="state",
            )
        expertise = {
            u.pseudonym: Expertise(u.pseudonym, dict(u.competence or {}), u.exam_grade) for u in users.values()
        }
        humans = pick_humans(candidates, expertise)
        tier_of = {s.name: s.tier for s in store.systems()}
        generations = store.generations(corpus=study.corpus, task_ids=list(area), status="ok")
        llm = pick_llm(
            [t.task_id for t in tasks],
            [
                LlmCandidate(
                    g.generation_id, g.task_id, g.system, tier_of.get(g.system), g.output_tokens, bool(g.text.strip())
                )
                for g in generations
            ],
            tiers,
        )
        rows: list[tuple[str, str, str, str, dict[str, Any]]] = [
            (h.task_id, h.arm, "human_solution", h.solution_id, {"expertise_score": h.score, "median": h.median})
            for h in humans
        ]
        rows += [(p.task_id, "llm", "generation", p.generation_id, {"system": p.system, "tier": p.tier}) for p in llm]
        position = {t.task_id: t.position for t in tasks}
        rows.sort(key=lambda r: (position[r[0]], PROVENANCES.index(r[1])))
        for index, (task_id, provenance, kind, target, meta) in enumerate(rows, start=1):
            session.add(
                Pick(
                    study_id=study_id,
                    code=f"P{index:02d}",
                    task_id=task_id,
                    provenance=provenance,
                    target_kind=kind,
                    target_id=target,
                    meta=meta,
                )
            )
        return len(rows)


def run_assignment(store: Store, study_id: int, seed: int | None = None) -> int:
    """Assign 1 creator and 3 blind reviews per pick; returns the number of assignments.

    Allowed after the picks (state picked) and again until the first review is saved (the assignments
    are replaced). The study moves to ``in_review``.
    """
    if seed is not None:
        SEED.check(seed)
    try:
        return _run_assignment(store, study_id, seed)
    except IntegrityError as exc:  # a concurrent run stored them first
        raise StudyError(
            "Die Bewertungen wurden gerade gleichzeitig zugewiesen; bitte neu laden.", field="study_id"
        ) from exc


def _run_assignment(store: Store, study_id: int, seed: int | None) -> int:
    with store.session() as session:
        study = require_state(session, study_id, "picked", "in_review", lock=True)
        _clear(session, study_id, picks=False)
        study.state = "in_review"
        tasks = {t.task_id: t for t in study_tasks(session, study_id)}
        picks = list(session.scalars(select(Pick).filter_by(study_id=study_id).order_by(Pick.code)))
        if not picks:
            raise StudyError("Es gibt keine Picks; bitte zuerst die Picks auswählen.", field="picks")
        active = session.scalars(account_scope(session, study_id).accounts().where(StudyUser.active.is_(True)))
        graders = [str(u.id) for u in active if u.has("grader") and not u.has("admin")]  # admins see provenance
        authors = {t.task_id: str(t.author_id) for t in tasks.values() if t.author_id is not None}
        specs = [
            PickSpec(p.code, p.task_id, tasks[p.task_id].area, p.provenance, tasks[p.task_id].difficulty) for p in picks
        ]
        human = [p.target_id for p in picks if p.target_kind == "human_solution"]
        submitted_by = {
            s.id: str(s.user_id) for s in session.scalars(select(Submission).where(Submission.id.in_(human)))
        }
        submitters = {p.code: submitted_by[p.target_id] for p in picks if p.target_id in submitted_by}
        seed = study.seed if seed is None else seed
        slots = assign_reviews(specs, authors, graders, seed, submitters=submitters)
        random.Random(f"{seed}:rows").shuffle(slots)  # row ids must not reveal the pick order (provenance)
        pick_id = {p.code: p.id for p in picks}
        for slot in slots:
            session.add(
                ReviewAssignment(
                    study_id=study_id,
                    pick_id=pick_id[slot.pick_id],
                    grader_id=int(slot.grader),
                    role=slot.role,
                    slot=slot.slot,
                )
            )
        return len(slots)

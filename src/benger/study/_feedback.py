"""Formative feedback: after a study's submissions close, a participant may read a judge's rubric feedback on
their own solution, when the organiser switched it on for that study.

The switch is a row of the platform's key-value settings (``study_settings``, key ``study:<id>:feedback``), so it
needs no column of its own. It can be switched on only once submissions have closed (state ``closed`` or later);
reopening the study removes it (benger.study._lifecycle.open_study), so closing again does not show feedback by
itself. Whether a participant sees a page is decided here and nowhere else (the web layer asks
:func:`own_feedback` through benger.web.access): the study is past ``open``, the switch is on, and the submission
is the participant's own; otherwise the answer is None, which the web layer shows as 404 — the same answer as for
a submission that does not exist, so a participant learns nothing of anyone else's.

What is shown is the most recently stored scored judgement of the submission (the store's ``judgements`` rows with
``target_kind`` ``human_solution``; ``benger run`` with ``judge_human_solutions`` writes them): per dimension the
points, the maximum and the judge's justification, the total, grade points and pass, with its judge, judge config
hash and rubric id. The database holds one submission per participant and task, so "the latest submission" of a
task is that one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.judge import Rubric, falloesung_rubric
from benger.schema import Judgement
from benger.store import Store
from benger.store._convert import judgement as judgement_record
from benger.store._models import JudgementRow
from benger.study._accounts import aware
from benger.study._models import Study, StudySetting, StudyTask, Submission
from benger.study._review import task_rubric
from benger.study._state import require_state

#: The states in which submissions have closed: the only ones in which feedback may be switched on or shown.
CLOSED_STATES: tuple[str, ...] = ("closed", "picked", "in_review", "done")
_ON = "on"


def setting_key(study_id: int) -> str:
    """The ``study_settings`` key of a study's feedback switch."""
    return f"study:{study_id}:feedback"


def set_feedback(store: Store, study_id: int, on: bool) -> None:
    """Switch formative feedback on (only once submissions have closed: WrongState before) or off (any state)."""
    with store.session() as session:
        if on:
            require_state(session, study_id, *CLOSED_STATES, lock=True)
        else:
            require_state(session, study_id, lock=True)
        row = session.get(StudySetting, setting_key(study_id))
        if on and row is None:
            session.add(StudySetting(key=setting_key(study_id), value=_ON))
        elif not on and row is not None:
            session.delete(row)


def clear_feedback(session: Session, study_id: int) -> None:
    """Remove a study's feedback switch in ``session`` (reopening the study calls it)."""
    row = session.get(StudySetting, setting_key(study_id))
    if row is not None:
        session.delete(row)


def feedback_shown(session: Session, study: Study) -> bool:
    """Whether participants of ``study`` may read feedback now: submissions have closed and the switch is on."""
    if study.state not in CLOSED_STATES:
        return False
    row = session.get(StudySetting, setting_key(study.id))
    return row is not None and row.value == _ON


def feedback_submissions(session: Session, study_id: int, user_id: int) -> dict[str, str]:
    """Task id -> id of the participant's own submission in ``study_id``, for those whose feedback they may read
    now (empty while it is not shown)."""
    study = session.get(Study, study_id)
    if study is None or not feedback_shown(session, study):
        return {}
    rows = session.execute(select(Submission.task_id, Submission.id).filter_by(study_id=study_id, user_id=user_id))
    return {task_id: sid for task_id, sid in rows}


def judged_submissions(session: Session, study_id: int) -> tuple[int, int]:
    """(submissions of the study with a scored judgement, submissions of the study), for the organiser's page."""
    ids = set(session.scalars(select(Submission.id).filter_by(study_id=study_id)))
    if not ids:
        return 0, 0
    judged = session.scalars(
        select(JudgementRow.target_id)
        .where(JudgementRow.target_kind == "human_solution", JudgementRow.status == "scored")
        .where(JudgementRow.target_id.in_(sorted(ids)))
        .distinct()
    )
    return len(set(judged)), len(ids)


@dataclass(frozen=True)
class DimensionFeedback:
    key: str
    label: str
    label_en: str
    points: float
    max: float | None
    justification: str


@dataclass(frozen=True)
class Feedback:
    """A participant's view of the judgement of one of their submissions (``judgement`` None: none stored yet)."""

    study_id: int
    study_name: str
    task_id: str
    task_title: str | None
    position: int
    submission_id: str
    submitted_at: datetime
    text: str
    judgement: Judgement | None
    dimensions: tuple[DimensionFeedback, ...]
    rubric_total: float | None


def own_feedback(store: Store, study_id: int, user_id: int, submission_id: str) -> Feedback | None:
    """The feedback on ``submission_id`` for participant ``user_id``, or None when they may not read it (not
    their submission or not of this study, submissions still open, or the switch off)."""
    with store.session() as session:
        study = session.get(Study, study_id)
        submission = session.get(Submission, submission_id)
        if study is None or submission is None or not feedback_shown(session, study):
            return None
        if submission.study_id != study_id or submission.user_id != user_id:
            return None
        task = session.scalar(select(StudyTask).filter_by(study_id=study_id, task_id=submission.task_id))
        row = session.scalar(
            select(JudgementRow)
            .filter_by(target_kind="human_solution", target_id=submission.id, status="scored")
            .order_by(JudgementRow.updated_at.desc(), JudgementRow.judgement_id.desc())
            .limit(1)
        )
        judgement = judgement_record(row) if row is not None else None
        study_name, submitted_at, corpus = study.name, aware(submission.submitted_at), study.corpus
        text = submission.text
        task_id, title, position = submission.task_id, task.title if task else None, task.position if task else 0
    rubric = _rubric_of(store, task_id, corpus, judgement)
    return Feedback(
        study_id=study_id,
        study_name=study_name,
        task_id=task_id,
        task_title=title,
        position=position,
        submission_id=submission_id,
        submitted_at=submitted_at,
        text=text,
        judgement=judgement,
        dimensions=_dimensions(judgement, rubric),
        rubric_total=rubric.total if rubric is not None else None,
    )


def _rubric_of(store: Store, task_id: str, corpus: str, judgement: Judgement | None) -> Rubric | None:
    """The rubric the judgement was scored with, when it is the task's own or the built-in one (labels, maxima)."""
    if judgement is None:
        return None
    for rubric in (task_rubric(store.get_task(task_id, corpus)), falloesung_rubric()):
        if rubric.id == judgement.rubric_id:
            return rubric
    return None


def _dimensions(judgement: Judgement | None, rubric: Rubric | None) -> tuple[DimensionFeedback, ...]:
    if judgement is None or judgement.dimensions is None:
        return ()
    points, notes = judgement.dimensions, judgement.justifications
    if rubric is None:  # a rubric this study does not know: its keys, without labels or maxima
        return tuple(DimensionFeedback(k, k, k, v, None, notes.get(k, "")) for k, v in points.items())
    return tuple(
        DimensionFeedback(d.key, d.label, d.label_en, points[d.key], d.max, notes.get(d.key, ""))
        for d in rubric.dimensions
        if d.key in points
    )

"""The Benchathon flow on the store: studies, enrolment with balanced arms, timed attempts, submissions.

Every function opens its own transaction on ``store.session()``; the server clock decides every deadline.
Participants act only while the study is ``open`` (benger.study._state): each step reads the study row FOR
SHARE in its transaction, so a close (FOR UPDATE) and a submission never interleave.
A submission row is unique per (study, participant, task), so a second submit (a double click, two tabs,
the sweep racing the participant) fails in the database and is reported as already submitted. Each
submission is mirrored into the core store as a ``HumanSolution`` (participant id = the pseudonym).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benger.schema import AREAS, FalloesungTask, HumanSolution
from benger.store import Store
from benger.study._accounts import aware, now_utc
from benger.study._assign import assign_arms
from benger.study._bounds import SEED, TIME_LIMIT
from benger.study._errors import AlreadySubmitted, DraftConflict, StudyError
from benger.study._models import EXPERTISE_LEVELS, Attempt, Enrolment, Study, StudyTask, StudyUser, Submission
from benger.study._scope import account_scope
from benger.study._state import parse_groups, require_state, visible

DEFAULT_TIME_LIMIT_S = 2 * 60 * 60
#: Requests that left the browser just before the deadline are still accepted for this long.
GRACE = timedelta(seconds=2)
_DONE = {"submitted": "abgegeben", "skipped": "übersprungen", "started": "gestartet"}
__all__ = ["AlreadySubmitted"]


def create_study(
    store: Store,
    name: str,
    corpus: str,
    seed: int,
    time_limit_s: int = DEFAULT_TIME_LIMIT_S,
    authors: dict[str, int] | None = None,
    on_created: Callable[[Session, int], None] | None = None,
) -> int:
    """Create a study (state ``draft``) over the Falllösung tasks of ``corpus``; returns its id.

    ``on_created(session, study_id)`` runs in the same transaction (the workbench records the study's
    organisation there: a failure stores neither)."""
    SEED.check(seed)
    TIME_LIMIT.check(time_limit_s)
    if not name.strip():
        raise StudyError("Bitte einen Namen für die Studie angeben.", field="name")
    if corpus not in store.corpus_names():
        raise StudyError("Den Korpus {corpus} gibt es im Speicher nicht.", field="corpus", corpus=corpus)
    tasks = [t for t in store.load_corpus(corpus).tasks if isinstance(t, FalloesungTask)]
    if not tasks:
        raise StudyError("Der Korpus {corpus} hat keine Falllösungsaufgaben.", field="corpus", corpus=corpus)
    try:
        with store.session() as session:
            study = Study(
                name=name.strip(),
                corpus=corpus,
                seed=seed,
                time_limit_s=time_limit_s,
                created_at=now_utc(),
                state="draft",
            )
            session.add(study)
            session.flush()
            for position, task in enumerate(tasks):
                session.add(
                    StudyTask(
                        study_id=study.id,
                        task_id=task.task_id,
                        position=position,
                        area=task.area,
                        difficulty=task.difficulty,
                        title=task.title,
                        author_id=(authors or {}).get(task.task_id),
                    )
                )
            if on_created is not None:
                on_created(session, study.id)
            return study.id
    except IntegrityError as exc:
        raise StudyError("Eine Studie namens {name} gibt es bereits.", field="name", name=name) from exc


def set_author(store: Store, study_id: int, task_id: str, user_id: int | None) -> None:
    """Record the creator (author) of a study task; they review its picks un-blind (before reviews start)."""
    set_authors(store, study_id, {task_id: user_id})


def set_authors(store: Store, study_id: int, authors: Mapping[str, int | None]) -> None:
    """Record the authors of several tasks (task id -> account id, None for none) in one transaction: an
    author must hold the role ``creator`` and be an account the study may name (benger.study._scope: a
    member of the organisation holding the study); one refused author stores none of them."""
    with store.session() as session:
        require_state(session, study_id, "draft", "open", "closed", "picked", lock=True)
        scope = account_scope(session, study_id)
        for task_id, user_id in authors.items():
            task = session.scalar(select(StudyTask).filter_by(study_id=study_id, task_id=task_id))
            if task is None:
                raise StudyError("Aufgabe {task} gehört nicht zu dieser Studie.", field="task_id", task=task_id)
            if user_id is not None:
                user = session.get(StudyUser, user_id) if scope.admits(user_id) else None
                if user is None:  # no such account, or one of another organisation: the same answer
                    raise StudyError(
                        "Das Konto {account} gibt es für diese Studie nicht.", field="author", account=user_id
                    )
                if not user.has("creator"):
                    raise StudyError(
                        "Eine Aufgabenautorin / ein Aufgabenautor braucht die Rolle creator.", field="author"
                    )
            task.author_id = user_id


def set_study_groups(store: Store, study_id: int, groups: list[str] | str) -> None:
    """Make a study visible only to participants in ``groups`` (empty: to everyone)."""
    with store.session() as session:
        require_state(session, study_id, lock=True).groups = parse_groups(groups)


def study_tasks(session: Session, study_id: int) -> list[StudyTask]:
    return list(session.scalars(select(StudyTask).filter_by(study_id=study_id).order_by(StudyTask.position)))


def save_expertise(
    store: Store, user_id: int, level: str, competence: dict[str, int], exam_grade: float | None
) -> None:
    """Record a participant's expertise: level, Likert 1-5 competence per area, optional exam grade (0-18)."""
    if level not in EXPERTISE_LEVELS:
        raise StudyError("Bitte einen Ausbildungsstand wählen.", field="expertise_level")
    for area in AREAS:
        value = competence.get(area)
        if value is None or not 1 <= value <= 5:
            raise StudyError("Die Kompetenz in {area} muss 1 bis 5 sein.", field="competence", area=area)
    if exam_grade is not None and not (math.isfinite(exam_grade) and 0 <= exam_grade <= 18):
        raise StudyError("Die Examensnote muss zwischen 0 und 18 Punkten liegen.", field="exam_grade")
    with store.session() as session:
        user = session.get(StudyUser, user_id)
        if user is None:
            raise StudyError("Dieses Konto gibt es nicht.", field="user_id")
        user.expertise_level = level
        user.competence = {a: int(competence[a]) for a in AREAS}
        user.exam_grade = exam_grade


def enrol(store: Store, study_id: int, user_id: int, tries: int = 20, consent: bool = True) -> None:
    """Enrol a participant in an open study (idempotent): next free position, one attempt per task with its arm.

    ``consent`` records that the participant accepted the consent and privacy notice (the web start page
    requires it; the time is stored as ``consent_at``).
    """
    for _ in range(tries):
        try:
            with store.session() as session:
                if session.scalar(select(Enrolment).filter_by(study_id=study_id, user_id=user_id)) is not None:
                    return
                # lock the study row: enrolments of one study queue up for the next position (PostgreSQL)
                study = require_state(session, study_id, "open", lock=True)
                user = session.get(StudyUser, user_id)
                if user is None or not visible(session, study, user):
                    raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
                position = session.scalar(select(func.count()).select_from(Enrolment).filter_by(study_id=study_id))
                now = now_utc()
                session.add(
                    Enrolment(
                        study_id=study_id,
                        user_id=user_id,
                        position=int(position or 0),
                        enrolled_at=now,
                        consent_at=now if consent else None,
                    )
                )
                tasks = [t.task_id for t in study_tasks(session, study_id)]
                for task_id, arm in assign_arms(tasks, int(position or 0), study.seed).items():
                    session.add(
                        Attempt(study_id=study_id, user_id=user_id, task_id=task_id, arm=arm, status="open", draft="")
                    )
            return
        except IntegrityError:
            continue  # another enrolment took the position; count again
    raise StudyError("Die Anmeldung ist gerade überlastet; bitte erneut versuchen.", field="study_id")


def attempts(session: Session, study_id: int, user_id: int) -> list[Attempt]:
    order = {t.task_id: t.position for t in study_tasks(session, study_id)}
    rows = session.scalars(select(Attempt).filter_by(study_id=study_id, user_id=user_id))
    return sorted(rows, key=lambda a: order.get(a.task_id, 0))


def get_attempt(session: Session, study_id: int, user_id: int, task_id: str) -> Attempt | None:
    return session.scalar(select(Attempt).filter_by(study_id=study_id, user_id=user_id, task_id=task_id))


def remaining_s(attempt: Attempt, now: datetime | None = None) -> float | None:
    """Seconds left on the timer (None before the start)."""
    if attempt.deadline is None:
        return None
    return max(0.0, (aware(attempt.deadline) - (now or now_utc())).total_seconds())


def start(store: Store, study_id: int, user_id: int, task_id: str, now: datetime | None = None) -> None:
    """Start the timer of an open attempt (a started one keeps its deadline)."""
    now = now or now_utc()
    with store.session() as session:
        study = require_state(session, study_id, "open", share=True)
        attempt = _attempt(session, study_id, user_id, task_id)
        if attempt.status == "open":
            attempt.status = "started"
            attempt.started_at = now
            attempt.deadline = now + timedelta(seconds=study.time_limit_s)


def _attempt(session: Session, study_id: int, user_id: int, task_id: str) -> Attempt:
    attempt = get_attempt(session, study_id, user_id, task_id)
    if attempt is None:
        raise StudyError("Aufgabe {task} ist Ihnen nicht zugeordnet.", field="task_id", task=task_id)
    return attempt


def _overdue(attempt: Attempt, now: datetime) -> bool:
    return attempt.deadline is not None and now > aware(attempt.deadline) + GRACE


def submit(
    store: Store,
    study_id: int,
    user_id: int,
    task_id: str,
    text: str,
    now: datetime | None = None,
    ai_tools: str | None = None,
    base_version: int | None = None,
) -> Submission:
    """Submit ``text``; after the deadline the last autosaved draft is submitted instead.

    ``ai_tools`` (co-creation arm only, at most 500 characters) names the AI tool(s) the participant used.
    ``base_version``: the draft version the submitting page last saw; when another tab saved a different text
    since, DraftConflict is raised and nothing is submitted (benger.study._drafts).
    """
    return _finish(store, study_id, user_id, task_id, text, now or now_utc(), ai_tools, base_version)


def _finish(
    store: Store,
    study_id: int,
    user_id: int,
    task_id: str,
    text: str | None,
    now: datetime,
    ai_tools: str | None = None,
    base_version: int | None = None,
) -> Submission:
    try:
        with store.session() as session:
            corpus = require_state(session, study_id, "open", share=True).corpus
            attempt = _attempt(session, study_id, user_id, task_id)
            stale = base_version is not None and base_version != attempt.draft_version and attempt.draft != text
            if text is not None and stale and attempt.status == "started" and not _overdue(attempt, now):
                raise DraftConflict(
                    "In einem anderen Fenster wurde zu Aufgabe {task} neuerer Text gespeichert; bitte die Seite neu "
                    "laden und entscheiden, welcher Text gilt.",
                    field="version",
                    task=task_id,
                )
            submission = submit_attempt(session, attempt, text, now, ai_tools)
            pseudonym = session.get(StudyUser, user_id).pseudonym  # type: ignore[union-attr]
    except IntegrityError as exc:
        raise AlreadySubmitted("Aufgabe {task} ist bereits abgegeben.", field="status", task=task_id) from exc
    mirror_submission(store, submission, pseudonym, corpus)
    return submission


def submit_attempt(
    session: Session, attempt: Attempt, text: str | None, now: datetime, ai_tools: str | None = None
) -> Submission:
    """Add the submission of a started attempt in ``session`` (``text`` None: the last draft, automatically)."""
    if attempt.status in ("submitted", "skipped"):
        raise AlreadySubmitted(
            "Aufgabe {task} ist bereits {status}.", field="status", task=attempt.task_id, status=_DONE[attempt.status]
        )
    if attempt.status != "started":
        raise StudyError("Aufgabe {task} wurde noch nicht gestartet.", field="status", task=attempt.task_id)
    auto = text is None or _overdue(attempt, now)
    final = attempt.draft if auto else (text or "")
    tools = (ai_tools or "").strip()[:500] or None
    submission = Submission(
        id=uuid.uuid4().hex,
        study_id=attempt.study_id,
        user_id=attempt.user_id,
        task_id=attempt.task_id,
        arm=attempt.arm,
        text=final,
        auto_submitted=auto,
        started_at=attempt.started_at,
        submitted_at=now,
        ai_tools=tools if attempt.arm == "co_creation" else None,
    )
    session.add(submission)
    attempt.status = "submitted"
    attempt.draft = final
    session.flush()
    return submission


def mirror_submission(store: Store, submission: Submission, pseudonym: str, corpus: str | None = None) -> None:
    """Write the submission into the core store as a HumanSolution of the study's ``corpus`` (idempotent)."""
    meta: dict[str, Any] = {
        "study_id": submission.study_id,
        "auto_submitted": submission.auto_submitted,
        "submitted_at": aware(submission.submitted_at).isoformat(),
    }
    if submission.started_at is not None:
        meta["started_at"] = aware(submission.started_at).isoformat()
    store.add_human_solution(
        HumanSolution(
            solution_id=submission.id,
            task_id=submission.task_id,
            corpus=corpus,
            participant_id=pseudonym,
            condition=submission.arm,
            text=submission.text,
            meta=meta,
        )
    )


def skip(store: Store, study_id: int, user_id: int, task_id: str, reason: str = "") -> None:
    """Skip a task before starting it (status "skipped", with the participant's reason, at most 500 characters).

    A started task runs to its submission. Skips are kept with their arm, so skipping by arm is measured
    (the dashboard and the export count skips per arm) rather than hidden.
    """
    with store.session() as session:
        require_state(session, study_id, "open", share=True)
        attempt = _attempt(session, study_id, user_id, task_id)
        if attempt.status in ("submitted", "started"):
            raise AlreadySubmitted(
                "Aufgabe {task} ist bereits {status} und kann nicht mehr übersprungen werden.",
                field="status",
                task=task_id,
                status=_DONE[attempt.status],
            )
        attempt.status = "skipped"
        attempt.skip_reason = reason.strip()[:500] or None


def expire_overdue(
    store: Store, now: datetime | None = None, study_id: int | None = None, user_id: int | None = None
) -> int:
    """Auto-submit the last draft of every started attempt past its deadline; returns how many it submitted.

    ``benger serve`` runs this periodically; pages call it for the participant they show.
    """
    now = now or now_utc()
    stmt = (
        select(Attempt)
        .join(Study, Study.id == Attempt.study_id)
        .where(Attempt.status == "started", Attempt.deadline.is_not(None), Study.state == "open")
    )
    if study_id is not None:
        stmt = stmt.where(Attempt.study_id == study_id)
    if user_id is not None:
        stmt = stmt.where(Attempt.user_id == user_id)
    with store.session() as session:
        due = [(a.study_id, a.user_id, a.task_id) for a in session.scalars(stmt) if _overdue(a, now)]
    count = 0
    for sid, uid, task_id in due:
        try:
            _finish(store, sid, uid, task_id, None, now)
            count += 1
        except StudyError:  # submitted meanwhile, or the study closed (the close submitted it)
            continue
    return count

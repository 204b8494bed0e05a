"""Autosave as a protocol: versioned drafts with optimistic concurrency.

Every attempt's draft carries ``draft_version``. A save names the version it was based on and is accepted
only while the server still holds that version (one ``UPDATE ... WHERE draft_version = :base``, atomic on
SQLite and PostgreSQL); the version then goes up by one. A save based on an older version (a second tab, a
laptop that comes back online after another window saved) is refused as a *conflict* carrying the server's
newer text and version, so the browser can show it and ask; it never silently overwrites. A repeated save
whose text the server already holds (the reply to the first was lost) is acknowledged, not a conflict.

After the deadline nothing more is accepted: the answer is ``submitted`` with the version, time and length of
what the server last acknowledged, which is what was (automatically) submitted and what counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from benger.store import Store
from benger.study._accounts import aware, now_utc
from benger.study._errors import AlreadySubmitted
from benger.study._models import Attempt, Submission
from benger.study._service import _DONE, _attempt, _finish, _overdue
from benger.study._state import require_state


@dataclass(frozen=True)
class DraftState:
    """The server's answer to a save.

    ``status``: ``saved`` (accepted; ``version`` is the new one), ``conflict`` (refused: ``version`` and
    ``text`` are the newer draft the server holds) or ``submitted`` (the attempt is over: ``text`` is the
    submitted solution, ``saved_at`` when the server last acknowledged it). ``auto``: submitted by the timer.
    """

    status: str
    version: int
    saved_at: datetime | None
    text: str | None = None
    auto: bool = False


def save_draft(
    store: Store,
    study_id: int,
    user_id: int,
    task_id: str,
    text: str,
    base_version: int | None = None,
    now: datetime | None = None,
) -> DraftState:
    """Autosave ``text`` on top of ``base_version`` (None: on whatever the server holds; the web form always
    names one). Raises AlreadySubmitted when the task was skipped or not started."""
    now = now or now_utc()
    with store.session() as session:
        require_state(session, study_id, "open", share=True)
        attempt = _attempt(session, study_id, user_id, task_id)
        if attempt.status == "submitted":
            return _submitted(session, attempt)
        if attempt.status != "started":
            raise AlreadySubmitted(
                "Aufgabe {task} ist nicht in Bearbeitung ({status}).",
                field="status",
                task=task_id,
                status=_DONE.get(attempt.status, attempt.status),
            )
        expired = _overdue(attempt, now)
        if not expired:
            stmt = update(Attempt).where(Attempt.id == attempt.id, Attempt.status == "started")
            if base_version is not None:
                stmt = stmt.where(Attempt.draft_version == base_version)
            done = session.execute(
                stmt.values(draft=text, draft_version=Attempt.draft_version + 1, draft_saved_at=now),
                execution_options={"synchronize_session": False},
            )
            session.refresh(attempt)
            if done.rowcount == 1:  # type: ignore[attr-defined]
                return DraftState("saved", attempt.draft_version, now)
            if attempt.status == "started":
                if attempt.draft == text:  # a repeat of an acknowledged save whose answer was lost
                    return DraftState("saved", attempt.draft_version, _at(attempt.draft_saved_at))
                return DraftState("conflict", attempt.draft_version, _at(attempt.draft_saved_at), attempt.draft)
    if expired:
        _finish(store, study_id, user_id, task_id, None, now)
    with store.session() as session:
        return _submitted(session, _attempt(session, study_id, user_id, task_id))


def _at(value: datetime | None) -> datetime | None:
    return aware(value) if value is not None else None


def _submitted(session: Session, attempt: Attempt) -> DraftState:
    sub = session.scalar(
        select(Submission).filter_by(study_id=attempt.study_id, user_id=attempt.user_id, task_id=attempt.task_id)
    )
    return DraftState(
        "submitted",
        attempt.draft_version,
        _at(attempt.draft_saved_at),
        sub.text if sub is not None else attempt.draft,
        bool(sub.auto_submitted) if sub is not None else False,
    )

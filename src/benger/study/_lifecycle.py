"""Lifecycle steps of a study: open, close (submissions end), finish; picks and assignment guard themselves.

draft -> open -> closed -> picked -> in_review -> done (see benger.study._state). A closed study with no
picks may be reopened (which switches formative feedback off again, benger.study._feedback). Closing submits
every running attempt's last autosaved draft (marked automatic, as when its timer runs out), in the same
transaction that changes the state.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from benger.store import Store
from benger.study._accounts import now_utc
from benger.study._errors import WrongState
from benger.study._feedback import clear_feedback
from benger.study._models import Attempt, Pick, StudyUser, Submission
from benger.study._service import mirror_submission, submit_attempt
from benger.study._state import require_state


def open_study(store: Store, study_id: int) -> None:
    """draft -> open (participants may enrol and submit); also reopens a closed study that has no picks (its
    feedback switch goes off: feedback is never shown while submissions are open)."""
    with store.session() as session:
        study = require_state(session, study_id, "draft", "closed", lock=True)
        if session.scalar(select(Pick.id).filter_by(study_id=study_id).limit(1)) is not None:
            raise WrongState("Die Studie hat bereits Picks und kann nicht wieder geöffnet werden.", field="state")
        study.state = "open"
        clear_feedback(session, study_id)


def close_study(store: Store, study_id: int, now: datetime | None = None) -> int:
    """open -> closed: submissions end; running attempts submit their last draft. Returns how many."""
    now = now or now_utc()
    with store.session() as session:
        study = require_state(session, study_id, "open", lock=True)
        running = list(session.scalars(select(Attempt).filter_by(study_id=study_id, status="started")))
        done: list[tuple[Submission, str]] = []
        for attempt in running:
            submission = submit_attempt(session, attempt, None, now)
            user = session.get(StudyUser, attempt.user_id)
            assert user is not None
            done.append((submission, user.pseudonym))
        study.state = "closed"
    for submission, pseudonym in done:
        mirror_submission(store, submission, pseudonym, study.corpus)
    return len(done)


def finish_study(store: Store, study_id: int) -> None:
    """in_review -> done: no further reviews or corrections are saved."""
    with store.session() as session:
        require_state(session, study_id, "in_review", lock=True).state = "done"

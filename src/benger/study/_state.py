"""The lifecycle state of a study and the guard every step calls (no imports of the flow modules).

States in order: ``draft`` (being set up, invisible to participants) -> ``open`` (enrolment and
submissions) -> ``closed`` (submissions end; running drafts were submitted) -> ``picked`` (validation
picks made; re-picking allowed) -> ``in_review`` (reviews assigned; re-picking and re-assigning allowed
until the first review is saved) -> ``done`` (reviews end).
"""

from __future__ import annotations

import re

from sqlalchemy.orm import Session

from benger.study._errors import StudyError, WrongState
from benger.study._models import STATES, Study, StudyUser
from benger.study._scope import account_scope

#: German labels of the states (translated by the web UI's table).
STATE_LABELS: dict[str, str] = {
    "draft": "Entwurf",
    "open": "geöffnet",
    "closed": "geschlossen",
    "picked": "Picks ausgewählt",
    "in_review": "in Bewertung",
    "done": "abgeschlossen",
}
assert tuple(STATE_LABELS) == STATES


_GROUP = re.compile(r"[\w-]{1,40}")


def parse_groups(groups: list[str] | str) -> str:
    """Group names (letters, digits, ``_``, ``-``; 1-40 characters) as a sorted space-separated string."""
    names = groups.replace(",", " ").split() if isinstance(groups, str) else [g.strip() for g in groups if g.strip()]
    bad = [g for g in names if not _GROUP.fullmatch(g)]
    if bad:
        raise StudyError(
            "Ungültiger Gruppenname {name} (Buchstaben, Ziffern, _ und -; bis 40 Zeichen).",
            field="groups",
            name=bad[0],
        )
    joined = " ".join(sorted(set(names)))
    if len(joined) > 200:
        raise StudyError("Zu viele Gruppen (höchstens 200 Zeichen).", field="groups")
    return joined


def visible(session: Session, study: Study, user: StudyUser) -> bool:
    """Whether a participant may see (and enrol in) the study: it has no groups, or shares one with them, and
    the study names them (benger.study._scope: a study an organisation holds, its members only)."""
    mine = set(study.groups.split())
    grouped = not mine or bool(mine & set(user.groups.split()))
    return grouped and account_scope(session, study.id).admits(user.id)


def require_state(session: Session, study_id: int, *states: str, lock: bool = False, share: bool = False) -> Study:
    """The study if its state is one of ``states``; WrongState otherwise, StudyError when it does not exist.

    ``lock`` takes the study row FOR UPDATE (state changes), ``share`` FOR SHARE (steps that must not race
    a state change, e.g. a submission racing the close); SQLite serialises writers anyway.
    """
    if lock or share:
        study = session.get(Study, study_id, with_for_update={"read": share and not lock})
    else:
        study = session.get(Study, study_id)
    if study is None:
        raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
    if states and study.state not in states:
        raise WrongState(
            "Das ist im Zustand „{state}“ der Studie nicht möglich (erlaubt: {allowed}).",
            field="state",
            state=STATE_LABELS.get(study.state, study.state),
            allowed=", ".join(STATE_LABELS[s] for s in states),
        )
    return study

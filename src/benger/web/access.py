"""The access layer of the read-only pages: who asks, what they may read, which study data stays hidden.

Every read-only router (the results viewer now; a workbench for organisations later) takes its reader from
:func:`results_access` as a router dependency, never from a check of its own: the dependency finds the
:class:`Principal` (the logged-in account under ``benger serve``, or the fixed principal that ``benger view`` and
``benger view --bundle`` install on the app), asks :data:`POLICY` whether it holds the capability, and hands the
route an :class:`Access` object whose :meth:`Access.hidden_studies` every query applies.

The workbench (``/orgs/...``) takes an :class:`OrgScope` from :func:`org_access` the same way: its
capabilities (:class:`OrgCap`) are held by a member's role in one organisation (:data:`ORG_POLICY`), and every
query of the scope is confined to that organisation (``benger.web._orgscope``; docs/workbench.md).

Rules (docs/viewer.md):

* ``results:read`` — organisers (``admin``) under ``benger serve``; the local reader of ``benger view``: every
  corpus of the store. A member of a workbench organisation whose role there holds ``OrgCap.RESULTS_READ``
  (:data:`ORG_POLICY`: owner, organiser) reads the results of their organisations' corpora only: the Access
  carries those corpora (:attr:`Access.corpora`) and every viewer query is confined to them, so another
  organisation's solution or task is 404 and its systems are on no page. Anyone else (a blind reviewer
  ``grader``/``creator``, a participant, an organisation's grader) gets 403, an anonymous visitor the login page.
* ``orgs:create`` — organisers (``admin``) may create a workbench organisation (and become its owner).
* ``studies:running`` — the solutions and reviews of a study that is not ``done`` (still running or in review)
  are shown only to a principal with this capability (organisers; ``benger view --organiser``). Everyone else
  sees nothing of such a study: its human solutions, and every review it produced, are left out of every page.
* ``feedback:own`` — participants, for the formative feedback page of a submission: a judge's rubric feedback
  on the participant's own solution, once submissions have closed and the organiser switched it on for the
  study (benger.study._feedback decides). Every other request for such a page — another participant's
  submission, one of another study, a study still open, the switch off — is 404, as for a submission that
  does not exist; a role without the capability gets 403.
* studies of organisations — a study's admin pages (``/admin/studies/ID/...``) open for the platform's
  organisers and for the owners and organisers of the organisation that holds the study
  (:func:`study_admin_access`, ``benger.web._orgstudies``); an organisation's pages list its studies only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import select
from starlette.exceptions import HTTPException

from benger.store import Store
from benger.study._feedback import Feedback, feedback_submissions, own_feedback
from benger.web._orgcore import ORG_POLICY, Member, NotFound, OrgCap, OrgInfo, OrgRole
from benger.web._orgscope import (
    OrgScope,
    accept_invitation,
    create_organisation,
    invitation_info,
    join_with_new_account,
    org_access,
    organisations_of,
    results_corpora,
)
from benger.web._orgstudies import study_admin_access
from benger.web._security import Forbidden, LoginRequired, store_of, user_of

__all__ = [
    "ORG_POLICY",
    "POLICY",
    "Access",
    "Capability",
    "Member",
    "NotFound",
    "OrgCap",
    "OrgInfo",
    "OrgRole",
    "OrgScope",
    "OwnFeedback",
    "Principal",
    "accept_invitation",
    "create_organisation",
    "feedback_access",
    "invitation_info",
    "join_with_new_account",
    "org_access",
    "org_creator",
    "organisations_of",
    "principal_of",
    "reads_results",
    "results_access",
    "study_admin_access",
]

#: The role of the study platform that organises studies (``benger study create-user NAME --role admin``).
ORGANISER_ROLE = "admin"
#: The role of the local reader of ``benger view`` (no account: whoever may open the store file).
LOCAL_READER_ROLE = "reader"
#: The role of the study platform that takes part in studies (and may read its own feedback).
PARTICIPANT_ROLE = "participant"


class Capability(StrEnum):
    """What a principal may do on the read-only pages."""

    RESULTS = "results:read"
    RUNNING_STUDIES = "studies:running"
    ORGS_CREATE = "orgs:create"
    OWN_FEEDBACK = "feedback:own"


#: capability -> the roles that hold it (one table; a route never checks a role itself)
POLICY: dict[Capability, frozenset[str]] = {
    Capability.RESULTS: frozenset({ORGANISER_ROLE, LOCAL_READER_ROLE}),
    Capability.RUNNING_STUDIES: frozenset({ORGANISER_ROLE}),
    Capability.ORGS_CREATE: frozenset({ORGANISER_ROLE}),
    Capability.OWN_FEEDBACK: frozenset({PARTICIPANT_ROLE}),
}


@dataclass(frozen=True)
class Principal:
    """Who asks: the roles of a study account, or of the local reader (``user_id`` None)."""

    roles: frozenset[str]
    user_id: int | None = None
    name: str = ""
    organisations: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def local(cls, *, organiser: bool = False) -> Principal:
        """The reader of ``benger view``: may read results; sees running studies only as ``organiser``."""
        roles = {LOCAL_READER_ROLE} | ({ORGANISER_ROLE} if organiser else set())
        return cls(frozenset(roles), name="local")

    @classmethod
    def of_roles(cls, roles: Iterable[str], user_id: int | None = None, name: str = "") -> Principal:
        return cls(frozenset(roles), user_id, name)

    def can(self, capability: Capability) -> bool:
        return bool(self.roles & POLICY[capability])


class Access:
    """A principal's view of one store; raises LoginRequired/Forbidden from :meth:`require`.

    ``corpora``: None for every corpus of the store, else the stored corpus names this principal may read (an
    organisation member's); every viewer query applies it (:meth:`sees`, :meth:`corpus_names`)."""

    def __init__(self, store: Store, principal: Principal | None, corpora: frozenset[str] | None = None) -> None:
        self.store = store
        self.principal = principal
        self.corpora = corpora
        self._hidden: frozenset[int] | None = None

    def sees(self, corpus: str | None) -> bool:
        """Whether records of ``corpus`` are visible to this principal."""
        return self.corpora is None or (corpus is not None and corpus in self.corpora)

    def corpus_names(self) -> list[str]:
        """The store's corpora this principal may read, sorted."""
        return [c for c in self.store.corpus_names() if self.sees(c)]

    def require(self, capability: Capability) -> Access:
        if self.principal is None:
            raise LoginRequired()
        if not self.principal.can(capability):
            raise Forbidden()
        return self

    def hidden_studies(self) -> frozenset[int]:
        """Ids of the studies whose solutions and reviews this principal must not see (not ``done``)."""
        if self._hidden is None:
            if self.principal is not None and self.principal.can(Capability.RUNNING_STUDIES):
                self._hidden = frozenset()
            else:
                from benger.study._models import Study

                with self.store.session() as session:
                    ids = session.scalars(select(Study.id).where(Study.state != "done"))
                    self._hidden = frozenset(int(i) for i in ids)
        return self._hidden

    def hides(self, meta: dict[str, object] | None) -> bool:
        """Whether a record with this ``meta`` (a HumanSolution's or HumanReview's) belongs to a hidden study."""
        study = (meta or {}).get("study_id")
        return isinstance(study, int) and study in self.hidden_studies()

    def own_feedback(self, study_id: int, submission_id: str) -> Feedback:
        """The feedback on one of the principal's own submissions (after :meth:`require` of ``feedback:own``);
        404 for anything else, whatever the reason."""
        user_id = self.principal.user_id if self.principal is not None else None
        found = own_feedback(self.store, study_id, user_id, submission_id) if user_id is not None else None
        if found is None:
            raise HTTPException(404)
        return found

    def feedback_links(self, study_id: int) -> dict[str, str]:
        """Task id -> submission id of the principal's own submissions whose feedback it may read now."""
        principal = self.principal
        if principal is None or principal.user_id is None or not principal.can(Capability.OWN_FEEDBACK):
            return {}
        with self.store.session() as session:
            return feedback_submissions(session, study_id, principal.user_id)


def principal_of(request: Request) -> Principal | None:
    """The app's fixed principal (``benger view``), else the logged-in account's (``benger serve``), else None."""
    fixed = getattr(request.app.state, "principal", None)
    if isinstance(fixed, Principal):
        return fixed
    with store_of(request).session() as session:
        user = user_of(request, session)
        if user is None:
            return None
        return Principal.of_roles(user.roles.split(), user.id, user.username)


def results_access(request: Request) -> Access:
    """Router dependency of every read-only results page: the request's Access, checked for ``results:read``
    (every corpus), else confined to the corpora of the organisations where the account holds
    ``OrgCap.RESULTS_READ``."""
    store, principal = store_of(request), principal_of(request)
    if principal is not None and principal.user_id is not None and not principal.can(Capability.RESULTS):
        corpora = results_corpora(store, principal.user_id)
        if corpora is not None:
            return Access(store, principal, corpora)
    return Access(store, principal).require(Capability.RESULTS)


def reads_results(request: Request) -> bool:
    """Whether the results pages open for this request's principal (pages use it to show links only)."""
    try:
        results_access(request)
    except (LoginRequired, Forbidden):
        return False
    return True


ResultsAccess = Annotated[Access, Depends(results_access)]


def org_creator(request: Request) -> Principal:
    """Router dependency of the routes that create an organisation: a principal with ``orgs:create``."""
    principal = principal_of(request)
    Access(store_of(request), principal).require(Capability.ORGS_CREATE)
    assert principal is not None
    return principal


def feedback_access(request: Request, study_id: int, submission_id: str) -> Feedback:
    """Router dependency of the feedback page ``/studies/{study_id}/feedback/{submission_id}``."""
    access = Access(store_of(request), principal_of(request)).require(Capability.OWN_FEEDBACK)
    return access.own_feedback(study_id, submission_id)


OwnFeedback = Annotated[Feedback, Depends(feedback_access)]

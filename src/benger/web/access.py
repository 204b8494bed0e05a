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

from typing import Annotated

from fastapi import Depends, Request
from starlette.exceptions import HTTPException

from benger.study._feedback import Feedback, feedback_submissions, own_feedback
from benger.web._orgcore import Member, NotFound, OrgInfo
from benger.web._orgscope import (
    OrgScope,
    accept_invitation,
    create_organisation,
    invitation_info,
    join_with_new_account,
    org_access,
    organisations_of,
)
from benger.web._orgstudies import study_admin_access
from benger.web._policy import (
    LOCAL_READER_ROLE,
    ORG_POLICY,
    ORGANISER_ROLE,
    PARTICIPANT_ROLE,
    POLICY,
    Access,
    Capability,
    OrgCap,
    OrgRole,
    Principal,
    results_corpora,
)
from benger.web._requests import ResultsAccess, principal_of, reads_results, results_access, store_of
from benger.web._security import user_of

__all__ = [
    "LOCAL_READER_ROLE",
    "ORGANISER_ROLE",
    "ORG_POLICY",
    "PARTICIPANT_ROLE",
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
    "ResultsAccess",
    "accept_invitation",
    "account_principal",
    "create_organisation",
    "feedback_access",
    "feedback_links",
    "invitation_info",
    "join_with_new_account",
    "org_access",
    "org_creator",
    "organisations_of",
    "principal_of",
    "reads_results",
    "results_access",
    "results_corpora",
    "study_admin_access",
]


def account_principal(request: Request) -> Principal | None:
    """The principal of the request's logged-in account, or None (``benger serve`` installs it as the app's
    ``accounts``, which :func:`principal_of` asks when the app fixes no principal)."""
    with store_of(request).session() as session:
        user = user_of(request, session)
        if user is None:
            return None
        return Principal.of_roles(user.roles.split(), user.id, user.username)


def feedback_links(access: Access, study_id: int) -> dict[str, str]:
    """Task id -> submission id of the principal's own submissions whose feedback it may read now."""
    principal = access.principal
    if principal is None or principal.user_id is None or not principal.can(Capability.OWN_FEEDBACK):
        return {}
    with access.store.session() as session:
        return feedback_submissions(session, study_id, principal.user_id)


def org_creator(request: Request) -> Principal:
    """Router dependency of the routes that create an organisation: a principal with ``orgs:create``."""
    principal = principal_of(request)
    Access(store_of(request), principal).require(Capability.ORGS_CREATE)
    assert principal is not None
    return principal


def feedback_access(request: Request, study_id: int, submission_id: str) -> Feedback:
    """Router dependency of the feedback page ``/studies/{study_id}/feedback/{submission_id}``: the feedback on
    one of the principal's own submissions (``feedback:own``); 404 for anything else, whatever the reason."""
    access = Access(store_of(request), principal_of(request)).require(Capability.OWN_FEEDBACK)
    user_id = access.principal.user_id if access.principal is not None else None
    found = own_feedback(access.store, study_id, user_id, submission_id) if user_id is not None else None
    if found is None:
        raise HTTPException(404)
    return found


OwnFeedback = Annotated[Feedback, Depends(feedback_access)]

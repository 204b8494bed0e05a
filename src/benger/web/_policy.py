"""Who may read what: the capability tables, the principal and its view of a store, without the web stack or the
study package.

The results viewer's start (``benger view``: the leaderboard computed in a thread while FastAPI loads,
:mod:`benger.web.viewer._warm`) and every page it serves need these names only; importing
:mod:`benger.web.access` (the FastAPI dependencies of ``benger serve``: accounts, workbench organisations,
feedback) loads the study package and the web stack, ~0.3 s of the viewer's start for nothing it shows
(issue 27). :mod:`benger.web.access` re-exports everything here; the rules are in its docstring.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import column, select, table

from benger.store import Store
from benger.store._orgs import ROLES, Membership, OrgCorpus

#: The role of the study platform that organises studies (``benger study create-user NAME --role admin``).
ORGANISER_ROLE = "admin"
#: The role of the local reader of ``benger view`` (no account: whoever may open the store file).
LOCAL_READER_ROLE = "reader"
#: The role of the study platform that takes part in studies (and may read its own feedback).
PARTICIPANT_ROLE = "participant"

#: The ``studies`` table of :class:`benger.study._models.Study` (id, lifecycle state), read by
#: :meth:`Access.hidden_studies` as a Core reference: importing the model loads the whole study package
#: (tests/web/test_viewer_imports.py checks the names against the model).
STUDIES = table("studies", column("id"), column("state"))
#: The state of a study whose solutions and reviews every reader sees (benger.study._models.STATES' last).
DONE = "done"


class LoginRequired(Exception):
    """No one is logged in: the app redirects to the login page."""


class Forbidden(Exception):
    """The user lacks the role for this page: 403."""


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


class OrgRole(StrEnum):
    """A member's role in one organisation (``benger.store._orgs.ROLES``)."""

    OWNER = "owner"
    ORGANISER = "organiser"
    GRADER = "grader"
    PARTICIPANT = "participant"


class OrgCap(StrEnum):
    """What a member may do in their organisation."""

    VIEW = "org:view"  # the organisation's start page
    MEMBERS = "members:read"  # the member list and open invitations
    MANAGE = "members:manage"  # invite, change a role, remove a member
    AUDIT = "audit:read"  # the audit log
    CORPORA_READ = "corpora:read"  # corpora, tasks (with reference solutions), rubrics
    CORPORA_WRITE = "corpora:write"  # upload a corpus or a rubric, attach a rubric
    RUNS_READ = "runs:read"  # run set-up pages, progress, failures
    RUNS_WRITE = "runs:write"  # launch, cancel, resume a run
    RESULTS_READ = "results:read"  # the results pages (/view) of the organisation's corpora
    RESULTS_EXPORT = "results:export"  # download configs and results
    KEYS = "keys:write"  # store or replace the organisation's API keys
    STUDIES = "studies:manage"  # the organisation's human studies: list, create, administer (/admin/studies/ID)
    STUDIES_ASSIGN = "studies:assign"  # give an existing study of the platform to the organisation


_ALL = frozenset(OrgRole)
_STAFF = frozenset({OrgRole.OWNER, OrgRole.ORGANISER})
#: capability -> the roles that hold it (the one table; a route never checks a role itself)
ORG_POLICY: dict[OrgCap, frozenset[OrgRole]] = {
    OrgCap.VIEW: _ALL,
    OrgCap.MEMBERS: _STAFF,
    OrgCap.MANAGE: frozenset({OrgRole.OWNER}),
    OrgCap.AUDIT: _STAFF,
    OrgCap.CORPORA_READ: _STAFF | {OrgRole.GRADER},
    OrgCap.CORPORA_WRITE: _STAFF,
    OrgCap.RUNS_READ: _STAFF,
    OrgCap.RUNS_WRITE: _STAFF,
    OrgCap.RESULTS_READ: _STAFF,  # not graders (they review blind) nor participants
    OrgCap.RESULTS_EXPORT: _STAFF,
    OrgCap.KEYS: frozenset({OrgRole.OWNER}),
    OrgCap.STUDIES: _STAFF,
    OrgCap.STUDIES_ASSIGN: frozenset({OrgRole.OWNER}),
}
assert set(ROLES) == {r.value for r in OrgRole}


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
        """Ids of the studies whose solutions and reviews this principal must not see (not ``done``); one Core
        query (no ORM session: it configured every mapper of the store, ~0.1-0.3 s of the viewer's first page)."""
        if self._hidden is None:
            if self.principal is not None and self.principal.can(Capability.RUNNING_STUDIES):
                self._hidden = frozenset()
            else:
                with self.store.engine.connect() as connection:
                    ids = connection.scalars(select(STUDIES.c.id).where(STUDIES.c.state != DONE))
                    self._hidden = frozenset(int(i) for i in ids)
        return self._hidden

    def hides(self, meta: dict[str, object] | None) -> bool:
        """Whether a record with this ``meta`` (a HumanSolution's or HumanReview's) belongs to a hidden study."""
        study = (meta or {}).get("study_id")
        return isinstance(study, int) and study in self.hidden_studies()


def results_corpora(store: Store, user_id: int) -> frozenset[str] | None:
    """The stored names of the corpora whose results ``user_id`` may read as a member (a role holding
    ``results:read`` in :data:`ORG_POLICY`) of their organisations; None when no membership holds it."""
    roles = sorted(ORG_POLICY[OrgCap.RESULTS_READ])
    with store.session() as session:
        orgs = list(
            session.scalars(
                select(Membership.organisation_id).where(Membership.user_id == user_id, Membership.role.in_(roles))
            )
        )
        if not orgs:
            return None
        names = session.scalars(select(OrgCorpus.corpus).where(OrgCorpus.organisation_id.in_(orgs)))
        return frozenset(names)

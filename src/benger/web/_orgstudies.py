"""Studies belong to organisations: which human studies an organisation holds, creating one for one of its
corpora, giving it an existing study of the platform; and who may administer a study (``/admin/studies/ID``).

A study belongs to at most one organisation (``organisation_objects``, kind ``"study"``). Who may administer
study ``ID`` is decided here, once, by :func:`study_admin_access` (the router dependency of every per-study
admin route): the platform's organisers (``admin``) administer every study, as before; a member of an
organisation whose role there holds ``studies:manage`` (owner, organiser) administers that organisation's
studies only. Anyone else logged in gets 403, whatever the study (an id says nothing about another
organisation's studies); anonymous visitors the login page.

Giving an existing study to an organisation (``studies:assign``: its owner) also needs the owner to hold the
platform's ``admin`` role, who administers that study already: an organisation never takes a study its
owner could not see.

Which accounts such a study names (its authors, its reviewers, the accounts its admin pages list) is decided
by the study layer's account scope (``benger.study._scope.account_scope``): the members of the organisation
holding it, whoever administers it; the platform's accounts for a study of no organisation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.store._orgs import Membership, OrgObject
from benger.study import StudyError, create_study
from benger.study._models import Study, StudyUser
from benger.study._scope import STUDY_KIND
from benger.web._orgcore import ORG_POLICY, OrgCap
from benger.web._orgdata import CorporaData
from benger.web._security import Forbidden, require, store_of

#: The kind of a study in ``organisation_objects`` (one name, benger.study._scope).
STUDY = STUDY_KIND
#: The platform role that administers every study.
PLATFORM_ORGANISER = "admin"


@dataclass(frozen=True)
class StudyLine:
    id: int
    name: str
    corpus: str
    state: str
    created_at: datetime


class StudiesData(CorporaData):
    """The organisation's human studies."""

    def studies(self) -> list[StudyLine]:
        with self.session() as session:
            ids = [int(k) for k in self.owned(session, STUDY)]
            rows: list[Study] = list(session.scalars(select(Study).where(Study.id.in_(ids)).order_by(Study.id)))
            return [StudyLine(s.id, s.name, s.corpus, s.state, s.created_at) for s in rows]

    def create_study(self, name: str, label: str, seed: int, time_limit_s: int) -> int:
        """A new study over the organisation's corpus ``label``, belonging here, in one transaction; its id."""
        corpus = self.corpus(label).stored  # NotFound for another organisation's corpus

        def own(session: Session, study_id: int) -> None:
            self.own(session, STUDY, str(study_id))
            self.audit(session, "create", STUDY, str(study_id), name=name.strip(), corpus=label)

        return create_study(self.store, name, corpus, seed, time_limit_s, on_created=own)

    def assign_study(self, study_id: int) -> None:
        """Give the existing study ``study_id`` to this organisation (its owner, who must administer the
        study on the platform); StudyError when it does not exist or another organisation holds it."""
        with self.session() as session:
            account = session.get(StudyUser, self.member.user_id)
            if account is None or not account.has(PLATFORM_ORGANISER):
                raise Forbidden()
            if session.get(Study, study_id) is None:
                raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
            holder = session.get(OrgObject, (STUDY, str(study_id)))
            if holder is not None and holder.organisation_id != self.org_id:
                raise StudyError("Dieses Objekt gehört einer anderen Organisation.", field="study_id")
            self.own(session, STUDY, str(study_id))
            self.audit(session, "assign", STUDY, str(study_id))


def study_admin_access(request: Request, study_id: int) -> None:
    """Router dependency of the per-study admin routes: the platform's organisers, or a member with
    ``studies:manage`` in the organisation that holds the study; 403 for anyone else, the login page for
    anonymous visitors."""
    with store_of(request).session() as session:
        user = require(request, session)  # LoginRequired
        if user.has(PLATFORM_ORGANISER):
            return
        roles = sorted(ORG_POLICY[OrgCap.STUDIES])
        holder = (
            select(Membership.role)
            .join(OrgObject, OrgObject.organisation_id == Membership.organisation_id)
            .where(OrgObject.kind == STUDY, OrgObject.object_key == str(study_id))
            .where(Membership.user_id == user.id, Membership.role.in_(roles))
        )
        if session.scalar(holder) is None:
            raise Forbidden()


__all__ = ["STUDY", "StudiesData", "StudyLine", "study_admin_access"]

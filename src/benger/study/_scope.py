"""The accounts a study may name: its authors, its reviewers, the accounts its admin pages list.

A study that an organisation holds (``organisation_objects``, kind ``"study"``) names the members of that
organisation only: its task authors are chosen from them, its reviews are assigned to them, and its admin
pages list no other account, whoever administers it (the organisation's staff or the platform's
organisers). A study of no organisation names any account of the platform, as before. Every service that
stores an account id for a study (:func:`benger.study.set_author`, :func:`benger.study.set_authors`,
:func:`benger.study.run_assignment`) and the study's admin page ask :func:`account_scope`, the one place that
decides; the web layer's access dependency (``benger.web._orgstudies.study_admin_access``) decides who may
open those pages at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from benger.store._orgs import Membership, OrgObject
from benger.study._models import StudyUser

#: The kind of a study in ``organisation_objects``.
STUDY_KIND = "study"


@dataclass(frozen=True)
class AccountScope:
    """``members``: the account ids a study may name (its organisation's members), None for every account."""

    members: frozenset[int] | None

    def admits(self, user_id: int) -> bool:
        return self.members is None or user_id in self.members

    def accounts(self) -> Select[StudyUser]:
        """The accounts of the scope, by id (a query to refine or run)."""
        stmt = select(StudyUser).order_by(StudyUser.id)
        return stmt if self.members is None else stmt.where(StudyUser.id.in_(sorted(self.members)))


def account_scope(session: Session, study_id: int) -> AccountScope:
    """The accounts study ``study_id`` may name: the members of the organisation holding it, else all."""
    holder = session.get(OrgObject, (STUDY_KIND, str(study_id)))
    if holder is None:
        return AccountScope(None)
    members = session.scalars(select(Membership.user_id).where(Membership.organisation_id == holder.organisation_id))
    return AccountScope(frozenset(members))


__all__ = ["STUDY_KIND", "AccountScope", "account_scope"]

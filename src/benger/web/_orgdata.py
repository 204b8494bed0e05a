"""An organisation's data, as its scope reads and writes it: corpora and their tasks, rubrics, members,
invitations and the audit log. Every statement here is filtered by the scope's organisation.

A corpus an organisation imports is stored as ``<slug>/<label>`` (``benger.store`` keys corpora by name): two
organisations may each hold a corpus ``faelle``, and neither name says anything about the other. Each write is
one transaction: a corpus upload with one bad line, or a refused replacement, stores nothing, not even its
audit entry.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from benger.judge import RUBRICS, Rubric, load_rubric, rubric_from_data
from benger.schema import Corpus, FalloesungTask, PrincipleItem
from benger.store._convert import task as task_of
from benger.store._corpora import CorpusChange, apply_corpus, renamed
from benger.store._models import CorpusRow, TaskRow
from benger.store._orgs import ROLES, AuditEntry, Membership, OrgCorpus, OrgInvitation, OrgRubric
from benger.study import StudyError
from benger.study._accounts import now_utc
from benger.study._models import StudyUser
from benger.web._orgcore import INVITATION_DAYS, NotFound, OrgRole, ScopeCore, hash_token

PAGE = 50


@dataclass(frozen=True)
class CorpusInfo:
    label: str
    stored: str
    tasks: int
    rubric: str | None  # what is attached: "falloesung" (built-in) or an uploaded rubric's id
    imported_at: datetime


@dataclass(frozen=True)
class TaskLine:
    task_id: str
    kind: str
    area: str
    title: str


@dataclass(frozen=True)
class RubricInfo:
    ref: int
    rubric_id: str
    label: str
    kind: str
    created_at: datetime


@dataclass(frozen=True)
class MemberLine:
    user_id: int
    username: str
    role: str
    joined_at: datetime


@dataclass(frozen=True)
class AuditLine:
    at: datetime
    actor: str
    action: str
    object_kind: str
    object_key: str
    detail: dict[str, Any]


class CorporaData(ScopeCore):
    """The organisation's corpora, tasks and rubrics."""

    def stored_name(self, label: str) -> str:
        return f"{self.org.slug}/{label}"

    def corpora(self) -> list[CorpusInfo]:
        with self.session() as session:
            rubric = aliased(OrgRubric)
            count = select(func.count()).where(TaskRow.corpus == OrgCorpus.corpus).scalar_subquery()
            stmt = (
                select(OrgCorpus, rubric.rubric_id, count)
                .outerjoin(rubric, rubric.id == OrgCorpus.rubric_ref)
                .where(self.where(OrgCorpus))
                .order_by(OrgCorpus.label)
            )
            return [
                CorpusInfo(c.label, c.corpus, int(n or 0), c.builtin_rubric or rid, c.imported_at)
                for c, rid, n in session.execute(stmt)
            ]

    def corpus(self, label: str) -> CorpusInfo:
        """The corpus ``label`` of this organisation; NotFound otherwise."""
        found = [c for c in self.corpora() if c.label == label]
        if not found:
            raise NotFound()
        return found[0]

    def tasks(self, label: str, page: int = 1) -> tuple[list[TaskLine], int]:
        """One page (PAGE tasks, stored order) of the corpus ``label`` and the number of pages."""
        info = self.corpus(label)
        with self.session() as session:
            stmt = (
                select(TaskRow.task_id, TaskRow.kind, TaskRow.area, TaskRow.payload)
                .where(TaskRow.corpus == info.stored)
                .order_by(TaskRow.position, TaskRow.task_id)
                .offset((max(page, 1) - 1) * PAGE)
                .limit(PAGE)
            )
            lines = [
                TaskLine(t, k, a, str(p.get("title") or p.get("question") or "")[:120])
                for t, k, a, p in session.execute(stmt)
            ]
        return lines, max(1, -(-info.tasks // PAGE))

    def task(self, label: str, task_id: str) -> FalloesungTask | PrincipleItem:
        """The task ``task_id`` of the corpus ``label``; NotFound otherwise."""
        info = self.corpus(label)
        with self.session() as session:
            row = session.get(TaskRow, (info.stored, task_id))
            if row is None:
                raise NotFound()
            return task_of(row.payload, label)

    def import_corpora(self, corpora: list[Corpus], *, replace: bool, source: str) -> list[CorpusChange]:
        """Store ``corpora`` (each under its name as the label) in ONE transaction with the store's corpus rules
        (``benger.store._corpora``: the same tasks again is a no-op, other tasks need ``replace``); InputError
        and nothing stored on any problem."""
        changes = []
        with self.session() as session:
            for corpus in corpora:
                label, stored = corpus.name, self.stored_name(corpus.name)
                owner = session.get(OrgCorpus, stored)
                if owner is None and session.get(CorpusRow, stored) is not None:
                    raise StudyError("Der Korpusname {name} ist vergeben.", field="name", name=label)
                change = apply_corpus(self.store, session, renamed(corpus, stored), replace=replace)
                if owner is None:
                    session.add(
                        OrgCorpus(
                            corpus=stored,
                            organisation_id=self.org_id,
                            label=label,
                            imported_by=self.member.user_id,
                            imported_at=now_utc(),
                        )
                    )
                self.audit(session, "import", "corpus", label, source=source, tasks=change.tasks, change=change.action)
                changes.append(change)
        return changes

    def rubrics(self) -> list[RubricInfo]:
        with self.session() as session:
            rows = session.scalars(select(OrgRubric).where(self.where(OrgRubric)).order_by(OrgRubric.id))
            return [
                RubricInfo(r.id, r.rubric_id, r.label, rubric_from_data(r.data).task_kind, r.created_at) for r in rows
            ]

    def rubric(self, ref: int) -> Rubric:
        with self.session() as session:
            return rubric_from_data(self.get(session, OrgRubric, ref).data, f"rubric {ref}")

    def run_rubric(self, choice: str) -> str | Rubric:
        """The rubric a run's set-up form names: ``ref:ID``, an uploaded rubric of this organisation (its content;
        NotFound for any other id, another organisation's included), or a registered rubric's name as it is.
        StudyError for anything else."""
        kind, _, value = choice.partition(":")
        if kind == "ref" and value.isdigit() and len(value) < 19:
            return self.rubric(int(value))
        if choice in RUBRICS:
            return choice
        raise StudyError("Unbekannte Rubrik {choice}.", field="rubric", choice=choice[:80])

    def attached_rubrics(self) -> dict[str, str | Rubric]:
        """Stored corpus name -> the rubric attached on its page (a registered name, or an uploaded rubric's
        content), for the corpora of this organisation that have one."""
        with self.session() as session:
            stmt = (
                select(OrgCorpus.corpus, OrgCorpus.builtin_rubric, OrgRubric.data)
                .outerjoin(OrgRubric, (OrgRubric.id == OrgCorpus.rubric_ref) & self.where(OrgRubric))
                .where(self.where(OrgCorpus))
            )
            rows = list(session.execute(stmt))
        out: dict[str, str | Rubric] = {}
        for corpus, builtin, data in rows:
            if builtin is not None:
                out[corpus] = builtin
            elif data is not None:
                out[corpus] = rubric_from_data(data, f"the rubric of corpus {corpus}")
        return out

    def add_rubric(self, rubric: Rubric, label: str) -> int:
        """Keep a validated rubric (the same content again keeps the first copy); its ref."""
        with self.session() as session:
            stmt = select(OrgRubric.id).where(self.where(OrgRubric), OrgRubric.rubric_id == rubric.id)
            known = session.scalar(stmt)
            if known is not None:
                return int(known)
            row = OrgRubric(
                organisation_id=self.org_id,
                rubric_id=rubric.id,
                label=label[:200],
                data=rubric.model_dump(mode="json"),
                created_by=self.member.user_id,
                created_at=now_utc(),
            )
            session.add(row)
            session.flush()
            self.audit(session, "import", "rubric", rubric.id, label=label[:200])
            return row.id

    def attach_rubric(self, label: str, choice: str) -> None:
        """Attach a rubric to the corpus ``label``: ``builtin:NAME`` (a registered one: the paper's two, plugins'),
        ``ref:ID`` (an uploaded one) or ``""`` (none). StudyError when the rubric scores another kind of task
        than the corpus holds."""
        info = self.corpus(label)
        kind, _, value = choice.partition(":")
        with self.session() as session:
            row = self.get(session, OrgCorpus, info.stored)
            if kind == "builtin" and value in RUBRICS and len(value) <= 40:  # the column's width
                rubric: Rubric | None = load_rubric(value)
                row.rubric_ref, row.builtin_rubric = None, RUBRICS.get(value).name
            elif kind == "ref" and value.isdigit() and len(value) < 19:
                stored = self.get(session, OrgRubric, int(value))
                rubric = rubric_from_data(stored.data, f"rubric {value}")
                row.rubric_ref, row.builtin_rubric = stored.id, None
            elif choice == "":
                rubric, row.rubric_ref, row.builtin_rubric = None, None, None
            else:
                raise StudyError("Unbekannte Rubrik {choice}.", field="rubric", choice=choice)
            kinds = set(session.scalars(select(TaskRow.kind).where(TaskRow.corpus == info.stored).distinct()))
            if rubric is not None and kinds - {rubric.task_kind}:
                raise StudyError(
                    "Die Rubrik bewertet Aufgaben der Art {kind}, der Korpus enthält {kinds}.",
                    field="rubric",
                    kind=rubric.task_kind,
                    kinds=", ".join(sorted(kinds)),
                )
            self.audit(session, "attach-rubric", "corpus", label, rubric=rubric.id if rubric else None)


class MembersData(ScopeCore):
    """The organisation's members, invitations and audit log."""

    def members(self) -> list[MemberLine]:
        with self.session() as session:
            stmt = (
                select(Membership, StudyUser.username)
                .join(StudyUser, StudyUser.id == Membership.user_id)
                .where(self.where(Membership))
                .order_by(StudyUser.username)
            )
            return [MemberLine(m.user_id, name, m.role, m.joined_at) for m, name in session.execute(stmt)]

    def open_invitations(self) -> list[OrgInvitation]:
        with self.session() as session:
            stmt = select(OrgInvitation).where(
                self.where(OrgInvitation), OrgInvitation.accepted_by.is_(None), OrgInvitation.expires_at > now_utc()
            )
            return list(session.scalars(stmt.order_by(OrgInvitation.id)))

    def invite(self, role: str) -> str:
        """A one-time invitation token with ``role`` (valid INVITATION_DAYS days); only its hash is stored."""
        if role not in ROLES:
            raise StudyError("Unbekannte Rolle {role}.", field="role", role=role)
        token = secrets.token_urlsafe(24)
        with self.session() as session:
            session.add(
                OrgInvitation(
                    organisation_id=self.org_id,
                    token_hash=hash_token(token),
                    role=role,
                    created_by=self.member.user_id,
                    created_at=now_utc(),
                    expires_at=now_utc() + timedelta(days=INVITATION_DAYS),
                )
            )
            self.audit(session, "invite", "invitation", role, role=role)
        return token

    def _owners_after(self, session: Any, user_id: int, role: str | None) -> int:
        owners = set(
            session.scalars(select(Membership.user_id).where(self.where(Membership), Membership.role == "owner"))
        )
        owners.discard(user_id)
        return len(owners) + (role == OrgRole.OWNER)

    def set_role(self, user_id: int, role: str) -> None:
        """Give the member ``user_id`` the role ``role``; the last owner keeps theirs."""
        if role not in ROLES:
            raise StudyError("Unbekannte Rolle {role}.", field="role", role=role)
        with self.session() as session:
            member = self.get(session, Membership, (self.org_id, user_id))
            if self._owners_after(session, user_id, role) == 0:
                raise StudyError("Eine Organisation braucht mindestens eine Eigentümerin.", field="role")
            before, member.role = member.role, role
            self.audit(session, "role-change", "member", str(user_id), before=before, after=role)

    def remove(self, user_id: int) -> None:
        """Remove the member ``user_id``; the last owner cannot be removed."""
        with self.session() as session:
            member = self.get(session, Membership, (self.org_id, user_id))
            if self._owners_after(session, user_id, None) == 0:
                raise StudyError("Eine Organisation braucht mindestens eine Eigentümerin.", field="role")
            session.delete(member)
            self.audit(session, "remove", "member", str(user_id), role=member.role)

    def audit_log(self, page: int = 1) -> tuple[list[AuditLine], int]:
        """One page of the audit log (newest first) and the number of pages."""
        with self.session() as session:
            total = session.scalar(select(func.count()).select_from(AuditEntry).where(self.where(AuditEntry))) or 0
            stmt = (
                select(AuditEntry, StudyUser.username)
                .outerjoin(StudyUser, StudyUser.id == AuditEntry.actor_id)
                .where(self.where(AuditEntry))
                .order_by(AuditEntry.at.desc(), AuditEntry.id.desc())
                .offset((max(page, 1) - 1) * PAGE)
                .limit(PAGE)
            )
            lines = [
                AuditLine(a.at, name or "–", a.action, a.object_kind, a.object_key, dict(a.detail or {}))
                for a, name in session.execute(stmt)
            ]
        return lines, max(1, -(-int(total) // PAGE))

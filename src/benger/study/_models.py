"""Tables of the human study: accounts, studies, timed attempts, submissions, picks, review assignments, reviews.

All tables live on the store's one ``Base``; migrations ``0002_study`` and ``0004_study_lifecycle`` create
them. Uniqueness that the study relies on is enforced by the database, not by the application: one
submission per participant and task, one review assignment per pick and grader, one row per review version.
Every free text a user types (drafts, submissions, justifications, margin notes, reasons, reports) uses the
store's Storable* column types, so a NUL pasted from a PDF is stored on PostgreSQL as on SQLite
(benger.store._text).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from benger.store._base import Base, JSONType, utcnow
from benger.store._text import StorableJSON, StorableString, StorableText

ROLES: tuple[str, ...] = ("admin", "participant", "grader", "creator")
#: The lifecycle of a study, in order (see benger.study._lifecycle).
STATES: tuple[str, ...] = ("draft", "open", "closed", "picked", "in_review", "done")
EXPERTISE_LEVELS: tuple[str, ...] = ("layperson", "law_student", "graduate", "referendar")


class StudyUser(Base):
    """An account. ``roles`` is a space-separated subset of ROLES; ``pseudonym`` is the id exported.

    ``session_version`` is copied into each login session; raising it (logout, deactivation, password
    change) ends every session of the account on the server side.
    """

    __tablename__ = "study_users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(100), unique=True)
    password_hash: Mapped[str] = mapped_column(String(300))
    roles: Mapped[str] = mapped_column(String(100))
    pseudonym: Mapped[str] = mapped_column(String(40), unique=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    expertise_level: Mapped[str | None] = mapped_column(String(40))
    competence: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    exam_grade: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    session_version: Mapped[int] = mapped_column(Integer, default=0)
    groups: Mapped[str] = mapped_column(String(200), default="")  # space-separated group names

    def has(self, role: str) -> bool:
        return role in self.roles.split()


class StudyInvitation(Base):
    """A one-time invitation link that lets its holder create an account with a fixed role."""

    __tablename__ = "study_invitations"

    token: Mapped[str] = mapped_column(String(100), primary_key=True)
    role: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))


class LoginCounter(Base):
    """Login attempts under one key (``name:<user>`` or ``addr:<user>|<address>``) in the current window.

    Incremented atomically before a password is checked (INSERT ... ON CONFLICT DO UPDATE ... RETURNING),
    so concurrent attempts queue on the row and at most the limit of them reach the password check.
    """

    __tablename__ = "study_login_counters"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    attempts: Mapped[int] = mapped_column(Integer)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class StudySetting(Base):
    """Key-value settings of the platform (e.g. the session signing key, generated once)."""

    __tablename__ = "study_settings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Study(Base):
    """A Benchathon session over the Falllösung tasks of one corpus."""

    __tablename__ = "studies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(StorableString(200), unique=True)
    corpus: Mapped[str] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(Integer)
    time_limit_s: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    state: Mapped[str] = mapped_column(String(20), default="draft")  # one of STATES
    groups: Mapped[str] = mapped_column(String(200), default="")  # visible to these groups; "" = everyone


class StudyTask(Base):
    """A task of a study, with its author (the creator who reviews it un-blind)."""

    __tablename__ = "study_tasks"
    __table_args__ = (UniqueConstraint("study_id", "task_id", name="uq_study_tasks_study_id_task_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id"), index=True)
    task_id: Mapped[str] = mapped_column(String(200))
    position: Mapped[int] = mapped_column(Integer)
    area: Mapped[str] = mapped_column(String(40))
    difficulty: Mapped[str | None] = mapped_column(String(40))
    title: Mapped[str | None] = mapped_column(StorableString(300))
    author_id: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))


class Enrolment(Base):
    """A participant in a study; ``position`` (0, 1, ...) drives the balanced arm design."""

    __tablename__ = "study_enrolments"
    __table_args__ = (
        UniqueConstraint("study_id", "user_id", name="uq_study_enrolments_study_id_user_id"),
        UniqueConstraint("study_id", "position", name="uq_study_enrolments_study_id_position"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("study_users.id"))
    position: Mapped[int] = mapped_column(Integer)
    enrolled_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    consent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Attempt(Base):
    """A participant-task pair: its arm, the timer, the autosaved draft and the state."""

    __tablename__ = "study_attempts"
    __table_args__ = (
        UniqueConstraint("study_id", "user_id", "task_id", name="uq_study_attempts_study_id_user_id_task_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("study_users.id"), index=True)
    task_id: Mapped[str] = mapped_column(String(200))
    arm: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20), default="open")  # open | started | submitted | skipped
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    draft: Mapped[str] = mapped_column(StorableText, default="")
    #: Raised by one with every accepted save; a save based on another version is refused (benger.study._drafts).
    draft_version: Mapped[int] = mapped_column(Integer, default=0)
    draft_saved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    skip_reason: Mapped[str | None] = mapped_column(StorableString(500))


class Submission(Base):
    """The final solution of an attempt; unique per (study, participant, task) so it cannot happen twice."""

    __tablename__ = "study_submissions"
    __table_args__ = (
        UniqueConstraint("study_id", "user_id", "task_id", name="uq_study_submissions_study_id_user_id_task_id"),
    )

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("study_users.id"))
    task_id: Mapped[str] = mapped_column(String(200))
    arm: Mapped[str] = mapped_column(String(20))
    text: Mapped[str] = mapped_column(StorableText)
    auto_submitted: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ai_tools: Mapped[str | None] = mapped_column(StorableString(500))  # co-creation arm: the AI tool(s) used


class Pick(Base):
    """A solution picked for validation: a human submission or an LLM generation of one task."""

    __tablename__ = "study_picks"
    __table_args__ = (
        UniqueConstraint("study_id", "code", name="uq_study_picks_study_id_code"),
        UniqueConstraint("study_id", "task_id", "provenance", name="uq_study_picks_study_id_task_id_provenance"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id"), index=True)
    code: Mapped[str] = mapped_column(String(20))
    task_id: Mapped[str] = mapped_column(String(200))
    provenance: Mapped[str] = mapped_column(String(20))  # traditional | co_creation | llm
    target_kind: Mapped[str] = mapped_column(String(20))  # human_solution | generation
    target_id: Mapped[str] = mapped_column(String(200))
    meta: Mapped[dict[str, Any]] = mapped_column(StorableJSON, default=dict)


class ReviewAssignment(Base):
    """One review to do: a grader, a pick, the role (blind or creator) and the slot (A/B/C or creator)."""

    __tablename__ = "study_review_assignments"
    __table_args__ = (
        UniqueConstraint("pick_id", "grader_id", name="uq_study_review_assignments_pick_id_grader_id"),
        UniqueConstraint("pick_id", "slot", name="uq_study_review_assignments_pick_id_slot"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id"), index=True)
    pick_id: Mapped[int] = mapped_column(ForeignKey("study_picks.id"))
    grader_id: Mapped[int] = mapped_column(ForeignKey("study_users.id"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    slot: Mapped[str] = mapped_column(String(20))


class Review(Base):
    """A version of a review. Submitted versions are never changed; a correction is a new version."""

    __tablename__ = "study_reviews"
    __table_args__ = (UniqueConstraint("assignment_id", "version", name="uq_study_reviews_assignment_id_version"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("study_review_assignments.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))  # draft | submitted
    dimensions: Mapped[dict[str, Any]] = mapped_column(StorableJSON, default=dict)
    justifications: Mapped[dict[str, Any]] = mapped_column(StorableJSON, default=dict)
    total: Mapped[float | None] = mapped_column(Float)
    grade_points: Mapped[int | None] = mapped_column(Integer)
    passed: Mapped[bool | None] = mapped_column(Boolean)
    supersedes: Mapped[str | None] = mapped_column(String(64))
    margin_notes: Mapped[list[dict[str, str]] | None] = mapped_column(StorableJSON)  # [{"quote", "note"}]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    submitted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ProblemReport(Base):
    """A grader's report of a problem with the solution under review (blank, garbled, wrong task, ...)."""

    __tablename__ = "study_problem_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    assignment_id: Mapped[int] = mapped_column(ForeignKey("study_review_assignments.id"), index=True)
    text: Mapped[str] = mapped_column(StorableString(2000))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


STUDY_TABLES: tuple[str, ...] = (
    "study_users",
    "study_invitations",
    "study_login_counters",
    "study_settings",
    "studies",
    "study_tasks",
    "study_enrolments",
    "study_attempts",
    "study_submissions",
    "study_picks",
    "study_review_assignments",
    "study_reviews",
    "study_problem_reports",
)

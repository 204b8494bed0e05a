"""Tables of the workbench's runs (migration ``0011_workbench_runs``): an organisation's stored API keys and the
runs launched from the browser.

``org_api_keys`` holds each key only as Fernet ciphertext under the server key (``benger.llm._keys``); no
column holds any part of the key in clear (not even its last characters). ``workbench_runs`` holds the run's
config as YAML (what ``benger run CONFIG`` takes), who launched it, its status and times; its progress is read
from the store's generations and judgements, never kept here, so it survives a restart of the server.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from benger.store._base import Base, utcnow
from benger.store._text import StorableJSON, StorableString, StorableText

#: A run's status: draft (set up, estimate shown, not launched), queued (launched, thread not started),
#: running, cancelling (asked to stop), then one of finished (complete), incomplete (items failed or were
#: left), cancelled, failed (an error stopped it), interrupted (the server stopped while it ran; resume continues)
RUN_STATES: tuple[str, ...] = (
    "draft", "queued", "running", "cancelling", "finished", "incomplete", "cancelled", "failed", "interrupted",
)  # fmt: skip
ACTIVE_STATES: frozenset[str] = frozenset({"queued", "running", "cancelling"})


class OrgApiKey(Base):
    """One API key of an organisation under its variable name (``OPENAI_API_KEY``), encrypted."""

    __tablename__ = "org_api_keys"
    __table_args__ = (UniqueConstraint("organisation_id", "name", name="uq_org_api_keys_org_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    ciphertext: Mapped[str] = mapped_column(Text)
    set_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class WorkbenchRun(Base):
    """A run launched from the browser: its organisation, config (YAML), executor, status and times."""

    __tablename__ = "workbench_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    name: Mapped[str] = mapped_column(StorableString(200))
    config_yaml: Mapped[str] = mapped_column(StorableText)
    executor: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20), index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: results already in the store when the run (or its latest resume) started: reused, not paid again
    reused: Mapped[int] = mapped_column(Integer, default=0)
    launches: Mapped[int] = mapped_column(Integer, default=0)
    message: Mapped[str | None] = mapped_column(StorableText)


#: Where a validation's human reviews come from: the release's 45 picks and 180 reviews, or a corpus's own.
VALIDATION_SOURCES: tuple[str, ...] = ("release", "corpus")


class WorkbenchValidation(Base):
    """A ``validate-judge`` run launched from a finished run's page (migration ``0016_budget_validations``): the
    judge (a name among the run's judges), against the release's picks or a corpus's own reviews, its status
    (the run states), progress (judgements done of total) and the result table (``validate_judge``'s dict)."""

    __tablename__ = "workbench_validations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("workbench_runs.id"), index=True)
    judge: Mapped[str] = mapped_column(StorableString(200))
    source: Mapped[str] = mapped_column(String(20))
    corpus: Mapped[str | None] = mapped_column(StorableString(200))
    executor: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20))
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(StorableJSON)
    message: Mapped[str | None] = mapped_column(StorableText)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

"""The one declarative base for every benger table (core store and human study)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, MetaData
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeEngine

#: Deterministic constraint names, so hand-written migrations and the models agree on every dialect.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: JSON on SQLite, JSONB on PostgreSQL.
JSONType: TypeEngine[Any] = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    """The current time in UTC (timestamps of stored rows)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base shared by every table; typed ``Mapped[...]`` columns."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)

"""The one declarative base for every benger table (core store and human study).

Its metadata, naming convention, JSON type and timestamp default live in :mod:`benger.store._tables` (Core
only, no ORM import), re-exported here for the ORM models and the migrations."""

from __future__ import annotations

from sqlalchemy.orm import DeclarativeBase

from benger.store._tables import METADATA, NAMING_CONVENTION, JSONType, utcnow


class Base(DeclarativeBase):
    """Declarative base shared by every table; typed ``Mapped[...]`` columns."""

    metadata = METADATA


__all__ = ["NAMING_CONVENTION", "Base", "JSONType", "utcnow"]

"""Connections and transactions of the store: one short session per call, upserts for both dialects."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Self

from sqlalchemy import Engine, Select, Table, and_, false, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from benger.errors import InputError
from benger.store import _convert as conv
from benger.store._base import utcnow
from benger.store._engine import SQLITE_BEGIN, shown
from benger.store._models import TaskRow
from benger.store._sqlite_writer import InlineWriter
from benger.store._text import storable

#: columns a write stamps anew: a row that differs only in them is unchanged
_STAMPS = ("created_at", "updated_at")


def row_values(model: type[DeclarativeBase], record: Any) -> dict[str, Any]:
    """The record's fields that are columns of ``model`` (JSON-safe)."""
    columns = model.__table__.columns.keys()
    return {key: value for key, value in conv.values(record).items() if key in columns}


class StoreBase:
    """Engine, sessions and write helpers shared by the Store's record methods."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.url = shown(engine.url)
        self._read = sessionmaker(bind=engine, expire_on_commit=False)
        writer = engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"})
        self._writer = writer
        self._write = sessionmaker(bind=writer, expire_on_commit=False)
        self._save_stmts: dict[tuple[Any, ...], Any] = {}
        #: True for SQLite: a write is a local file commit without a network round trip, cheap enough for an
        #: event loop to run inline (the pipeline sends PostgreSQL writes to a writer thread instead).
        self.inline_writes = engine.dialect.name == "sqlite"
        self._inline = InlineWriter(writer) if self.inline_writes else None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"

    @classmethod
    def reopen(cls, url: str) -> Self:
        """A store of this class on ``url``, upgraded to the newest migration as ``open_store`` does."""
        from benger.store._open import open_engine

        return cls(open_engine(url, create=True))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickling sends the URL: the receiving process (a pool worker) opens its own connections."""
        return type(self).reopen, (self.engine.url.render_as_string(hide_password=False),)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release every pooled connection."""
        if self._inline is not None:
            self._inline.close()
        self.engine.dispose()

    @contextmanager
    def write_batch(self) -> Iterator[None]:
        """SQLite (``inline_writes``): the claim, release and save calls of this thread inside the block commit
        together at its end (``InlineWriter.batch``: a failed write undoes only itself; a lost transaction
        raises at the exit and stores nothing). Other stores: each call commits on its own, as outside."""
        if self._inline is None:
            yield
            return
        with self._inline.batch():
            yield

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session for other modules' tables: commits on success, rolls back on an exception."""
        with self._write() as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    # -- helpers -----------------------------------------------------------------------------------
    def _insert(self, model: type[DeclarativeBase]) -> Any:
        table: Table = model.__table__  # type: ignore[assignment]
        if self.engine.dialect.name == "postgresql":
            return postgresql.insert(table)
        return sqlite.insert(table)

    def _upsert(
        self,
        session: Session,
        model: type[DeclarativeBase],
        rows: Sequence[dict[str, Any]],
        key: list[str],
        *,
        keep: Sequence[str] = (),
        where: Any = None,
        changed_only: bool = False,
    ) -> int:
        """Insert ``rows`` (one compiled statement, executemany); on a key conflict update every column
        but ``key`` and ``keep``, only where ``where`` holds for the existing row. ``changed_only``: only where a
        column other than the timestamps differs too, so that writing a row again leaves it as it is.

        Returns the rows written (inserted or updated), as the database counts them."""
        if not rows:
            return 0
        rows = [storable(model, row) for row in rows]
        table: Table = model.__table__  # type: ignore[assignment]
        stmt = self._insert(model)
        update = {c: stmt.excluded[c] for c in rows[0] if c not in key and c not in keep}
        if changed_only:
            differs = or_(*(table.c[c].is_distinct_from(stmt.excluded[c]) for c in update if c not in _STAMPS), false())
            where = differs if where is None else and_(where, differs)
        stmt = stmt.on_conflict_do_update(index_elements=key, set_=update, where=where)
        result = session.execute(stmt, list(rows), execution_options={"preserve_rowcount": True})
        return max(int(getattr(result, "rowcount", 0)), 0)

    def _save_unless_final(
        self, model: type[DeclarativeBase], values: dict[str, Any], key: list[str], replaceable: str
    ) -> bool:
        """Insert ``values``, or replace the row with the same ``key`` when its status is ``replaceable``;
        one short transaction on a Core connection (no ORM session, no re-read).

        True when the row was written, False when a finished row was kept unchanged (``RETURNING`` yields
        no row when the conflict's ``WHERE`` is false, on SQLite >= 3.35 and PostgreSQL alike).
        """
        values = storable(model, values)
        names = tuple(values)
        stmt = self._save_stmts.get((model, names))
        if stmt is None:  # built once per table and column set; SQLAlchemy caches its compiled form
            table: Table = model.__table__  # type: ignore[assignment]
            insert = self._insert(model)
            update = {c: insert.excluded[c] for c in names if c not in key and c != "created_at"}
            stmt = insert.on_conflict_do_update(
                index_elements=key, set_=update, where=table.c.status == replaceable
            ).returning(table.c[key[0]])
            self._save_stmts[(model, names)] = stmt
        if self._inline is not None:
            written = self._inline.execute_returns_row(stmt, values)
            if written is not None:
                return written
        with self._writer.begin() as connection:
            return connection.execute(stmt, values).first() is not None

    @staticmethod
    def _stamped(values: dict[str, Any]) -> dict[str, Any]:
        now = utcnow()
        return {**values, "created_at": now, "updated_at": now}

    def _scalars(self, stmt: Select[Any]) -> list[Any]:
        with self._read() as session:
            return list(session.scalars(stmt))

    def _integrity(
        self, what: str, record_id: str, task_id: str | None, exc: IntegrityError, corpus: str | None = None
    ) -> InputError:
        stmt = select(TaskRow.task_id).where(TaskRow.task_id == task_id)
        if corpus is not None:  # a task is (corpus, task id)
            stmt = stmt.where(TaskRow.corpus == corpus)
        if task_id is not None and not self._scalars(stmt):
            where = f" of corpus {corpus!r}" if corpus is not None else ""
            return InputError(
                f"cannot store {what} {record_id!r}: task {task_id!r}{where} is not in the store "
                "(add its corpus first)",
                file=self.url,
                field="task_id",
            )
        reason = str(exc.orig).splitlines()[0] if exc.orig is not None else str(exc)
        return InputError(f"cannot store {what} {record_id!r}: {reason}", file=self.url)

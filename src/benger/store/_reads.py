"""The store's reads that return records without ORM objects: corpora, systems, judge validations, kept rubrics.

SQLAlchemy Core on the tables of :mod:`benger.store._tables`: no ORM import, no mapper configuration, one
connection per call. :class:`StoreReads` is a base of :class:`benger.store.Store` (these are its methods) and of
:class:`StoreReader`, which ``benger leaderboard`` opens with :func:`open_reader` (issue 26: the command loads
neither ``sqlalchemy.orm`` nor the write paths; ``tests/cli/test_lazy_imports.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from sqlalchemy import Engine, select

from benger.errors import InputError
from benger.schema import Corpus, SystemConfig
from benger.store._engine import shown
from benger.store._rubrics import StoredRubric
from benger.store._tables import CORPORA, JUDGE_VALIDATIONS, RUBRICS, SYSTEMS, TASKS
from benger.store._text import restored_json
from benger.store._validations import VALIDATION_KEY, JudgeValidation


class StoreReads:
    """Core reads of a store's records; needs ``engine`` (and ``url``, named in errors)."""

    engine: Engine
    url: str

    def _core_rows(self, stmt: Any) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(stmt).all())

    def corpus_names(self) -> list[str]:
        """Names of the stored corpora, sorted."""
        return [r[0] for r in self._core_rows(select(CORPORA.c.name).order_by(CORPORA.c.name))]

    def load_corpus(self, name: str) -> Corpus:
        """The stored corpus ``name`` with its tasks in their original order; InputError (field ``corpus``,
        naming the stored corpora) when the store holds none of that name."""
        from benger.store._convert import task  # here: its pydantic adapter of the task kinds is built on import

        with self.engine.connect() as connection:
            found = connection.execute(select(CORPORA.c.description).where(CORPORA.c.name == name)).first()
            if found is None:
                known = ", ".join(self.corpus_names()) or "none"
                raise InputError(f"no corpus named {name!r} in the store {self.url} (stored: {known})", field="corpus")
            payloads = connection.execute(
                select(TASKS.c.payload).where(TASKS.c.corpus == name).order_by(TASKS.c.position, TASKS.c.task_id)
            ).scalars()
            tasks = [task(p, name) for p in payloads]
        return Corpus(name=name, description=found[0], tasks=tasks)

    def systems(self) -> list[SystemConfig]:
        """Every stored system configuration, sorted by name, then config hash (a name may appear twice)."""
        stmt = select(SYSTEMS.c.config).order_by(SYSTEMS.c.name, SYSTEMS.c.config_hash)
        return [SystemConfig.model_validate(restored_json(r[0])) for r in self._core_rows(stmt)]

    def judge_validations(self, judge: str | None = None) -> list[JudgeValidation]:
        """Stored validations (of one judge name), newest first, then by key (a stable order)."""
        fields = list(JudgeValidation.model_fields)
        v = JUDGE_VALIDATIONS.c
        stmt = select(*(v[f] for f in fields))
        if judge is not None:
            stmt = stmt.where(v.judge == judge)
        stmt = stmt.order_by(v.validated_at.desc(), *(v[k] for k in VALIDATION_KEY))
        return [JudgeValidation.model_validate(dict(r._mapping)) for r in self._core_rows(stmt)]

    def stored_rubrics(self, rubric_ids: Any = None) -> list[StoredRubric]:
        """The stored rubrics (with one of ``rubric_ids``, an iterable of ids), by id then content hash."""
        r = RUBRICS.c
        stmt = select(r.rubric_id, r.content_hash, r.payload).order_by(r.rubric_id, r.content_hash)
        if rubric_ids is not None:
            stmt = stmt.where(r.rubric_id.in_(sorted(set(rubric_ids))))
        return [
            StoredRubric(rubric_id=row[0], content_hash=row[1], payload=restored_json(row[2]))
            for row in self._core_rows(stmt)
        ]


class StoreReader(StoreReads):
    """A store opened for reading its records and aggregates (``benger leaderboard``): the engine and the
    :class:`StoreReads` methods, without the ORM sessions and write paths of :class:`benger.store.Store`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.url = shown(engine.url)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()


def open_reader(db: str | Path | None = None) -> StoreReader:
    """:func:`benger.store.open_store` for a reader: the benger store at ``db`` (path or URL), upgraded to the
    newest migration (Alembic is loaded only when it is not there yet). It creates nothing: what is not a benger
    store yet is refused as by ``open_store(db, create=False)``; raises ConfigError as ``open_store`` does."""
    from benger.store._open import open_engine

    return StoreReader(open_engine(db, create=False))

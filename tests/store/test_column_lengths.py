"""A value longer than its column's declared length is refused alike on SQLite and PostgreSQL.

Observed (issue 10 audit): a 250-character task id was stored on SQLite (exit 0) and was "internal error:
DataError: value too long for type character varying(200)" on PostgreSQL. The kind: SQLite ignores VARCHAR
lengths, PostgreSQL enforces them. The store's one write filter (``benger.store._text.storable``) now checks
every length-limited column of every table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import String, Text

from benger.errors import InputError
from benger.schema import SystemConfig
from benger.store import open_store
from benger.store._base import Base
from benger.store._text import storable

LIMITED = [
    (mapper.class_, column.name, column.type.length)
    for mapper in Base.registry.mappers
    for column in mapper.class_.__table__.columns
    if isinstance(column.type, String) and not isinstance(column.type, Text) and column.type.length
]


def test_there_are_limited_columns_to_check() -> None:
    assert len(LIMITED) > 20 and any(name == "task_id" for _, name, _ in LIMITED)


@pytest.mark.parametrize(("model", "name", "length"), LIMITED, ids=lambda v: getattr(v, "__name__", str(v)))
def test_each_limited_column_takes_its_length_and_refuses_one_more(model: type, name: str, length: int) -> None:
    assert storable(model, {name: "x" * length})[name] == "x" * length
    with pytest.raises(InputError) as caught:
        storable(model, {name: "x" * (length + 1)})
    assert caught.value.field == name
    assert f"has {length + 1} characters; the store holds at most {length}" in str(caught.value)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_a_long_system_name_is_refused_and_nothing_is_written(backend: str, tmp_path: Path, pg_database) -> None:  # type: ignore[no-untyped-def]
    def check(url: str) -> None:
        store = open_store(url)
        try:
            with pytest.raises(InputError, match="the store holds at most 200"):
                store.upsert_system(SystemConfig(name="s" * 201, provider="openai", model="m"))
            assert store.systems() == []
        finally:
            store.close()

    if backend == "sqlite":
        check(str(tmp_path / "s.db"))
    else:
        with pg_database("benger_lengths") as url:
            check(url)

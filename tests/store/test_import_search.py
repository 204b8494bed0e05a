"""The imported release is searchable (full-text search, ``benger.store._fulltext``) on SQLite and PostgreSQL, with
the same answers as the lower-case substring test; on PostgreSQL the import TOASTs its long values with lz4 (issue
26: the importer's server time) for its own transaction only."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select, text

from benger.corpora import load_release
from benger.store import Store
from benger.store._fulltext import TextSearch
from benger.store._models import GenerationRow, HumanSolutionRow

pytestmark = pytest.mark.release


def _found(store: Store, q: str) -> list[str]:
    g, h = GenerationRow, HumanSolutionRow
    with store.engine.connect() as connection:
        search = TextSearch(connection, q)
        gens = connection.scalars(select(g.generation_id).where(search.clause("generation", g.text)))
        humans = connection.scalars(select(h.solution_id).where(search.clause("human_solution", h.text)))
        return sorted([*gens, *humans])


def test_imported_solutions_are_found(store: Store, release_dir: Path) -> None:
    release = load_release(release_dir)
    store.import_release(release)
    texts = {p.subject_id: p.text for p in release.picks if p.text}
    assert len(texts) >= 40  # the 30 human and the LLM validation picks
    for sid, body in list(texts.items())[::4]:
        q = body[len(body) // 2 : len(body) // 2 + 24].upper()  # from the middle of the (long, TOASTed) text
        expected = sorted(i for i, t in texts.items() if q.lower() in t.lower())
        assert sid in expected
        assert _found(store, q) == expected


@pytest.mark.postgres
def test_postgresql_import_compresses_with_lz4_for_its_transaction_only(pg_url: str, release_dir: Path) -> None:
    from benger.store import open_store

    with open_store(pg_url) as store, store.engine.connect() as connection:
        enumvals = connection.execute(
            text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        ).scalar()
        if not enumvals or "lz4" not in enumvals:
            pytest.skip("this PostgreSQL has no lz4")
        store.import_release(load_release(release_dir))
        methods = connection.execute(
            text(
                "SELECT DISTINCT pg_column_compression(text), pg_column_compression(text_folded) "
                "FROM human_solutions WHERE length(text) > 4000"
            )
        ).all()
        assert methods == [("lz4", "lz4")]
        for _ in range(3):  # every pooled connection keeps the server's default afterwards
            with store.engine.connect() as other:
                assert other.execute(text("SHOW default_toast_compression")).scalar() == "pglz"
        connection.rollback()

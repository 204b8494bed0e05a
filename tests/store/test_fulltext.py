"""Full-text search (``benger.store._fulltext``, migration 0014_fulltext) on SQLite and PostgreSQL: the same
answers as "``q.lower()`` occurs in ``text.lower()``" for umlauts, ß / ẞ, §-citations, case and LIKE's wildcards,
through the index and through the scan; the index follows every write path (the Store API, Core bulk inserts,
replacements, deletes, VACUUM); the migration indexes the rows already there and a downgrade removes it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, delete, insert, inspect, select, text, update

from benger.schema import Corpus, FalloesungTask, Generation, HumanSolution, SystemConfig
from benger.store import Store, open_store
from benger.store._engine import MIGRATIONS_DIR
from benger.store._fulltext import TRGM_INDEXES, TextSearch
from benger.store._models import GenerationRow, HumanSolutionRow

DOCS = {
    "g1": "Der KÄUFER K hat einen Anspruch aus § 433 Abs. 1 S. 1 BGB.",
    "g2": "Die Straße gehört der Gemeinde; STRASSE ist eine andere Schreibweise.",
    "g3": "GROẞE Sorgfalt nach § 276 BGB; die Größe zählt.",
    "g4": "Öffentliches Recht: Art. 20 III GG und § 35 VwVfG.",
    "g5": "100% sicher_nicht: der Anspruch entfällt.",
    "g6": 'Er sagte: "Ja" OR NOT -- so steht es da.',
    "h1": "Anspruch aus §§ 280 I, 241 II BGB der Käuferin.",
}
# hand-computed: the ids whose text holds the query, compared in lower case
CASES: list[tuple[str, list[str]]] = [
    ("käufer", ["g1", "h1"]),
    ("KÄUFER", ["g1", "h1"]),
    ("Käufer", ["g1", "h1"]),
    ("straße", ["g2"]),
    ("STRASSE", ["g2"]),  # ß is not "ss": only g2's second spelling
    ("große", ["g3"]),  # ẞ lowers to ß
    ("GROẞE", ["g3"]),
    ("größe", ["g3"]),
    ("grosse", []),
    ("§ 433", ["g1"]),
    ("§§ 280", ["h1"]),
    ("§ 2", ["g3", "h1"]),  # § 276, and the second § of §§ 280
    ("abs. 1 s. 1", ["g1"]),
    ("ANSPRUCH AUS", ["g1", "h1"]),
    ("anspruch", ["g1", "g5", "h1"]),
    ("100%", ["g5"]),  # LIKE's wildcards are plain characters
    ("_nicht", ["g5"]),
    ("r_c", []),
    ("%", ["g5"]),
    ("ö", ["g2", "g3", "g4"]),  # gehört, Größe, Öffentliches; shorter than a trigram: the scan
    ("Ö", ["g2", "g3", "g4"]),
    ("ß", ["g2", "g3"]),
    ("gg", ["g4"]),
    ('"ja"', ["g6"]),  # FTS5's quotes and operators are plain characters
    ("or not --", ["g6"]),
    ("xyz", []),
]


def _world(url: str, synced: bool = True) -> Store:
    store = open_store(url)
    tasks = [FalloesungTask(task_id="t1", corpus="c", area="Zivilrecht", facts="S", reference="L")]
    store.add_corpus(Corpus(name="c", tasks=tasks))
    system = SystemConfig(name="sys", provider="local", model="m", tier="local")
    store.upsert_system(system)
    for run, (sid, body) in enumerate(DOCS.items()):
        if sid.startswith("g"):
            store.save_generation(Generation(generation_id=sid, task_id="t1", corpus="c", system="sys",
                                             config_hash=system.config_hash(), run_index=run, text=body))  # fmt: skip
        else:
            store.add_human_solution(
                HumanSolution(solution_id=sid, task_id="t1", participant_id="p", condition="traditional", text=body)
            )
    if synced:  # else every row waits in the queue (a run in progress): searched by the queue's scan
        store.sync_search_index()
    return store


@pytest.fixture(
    scope="module", params=["sqlite", "sqlite-queued", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    if request.param.startswith("sqlite"):
        store = _world(str(tmp_path_factory.mktemp("fts") / "store.db"), synced=request.param == "sqlite")
        yield store
        store.close()
        return
    with request.getfixturevalue("pg_database")("benger_fts") as url:
        store = _world(url)
        yield store
        store.close()


def found(store: Store, q: str, probe: int | None = None) -> list[str]:
    """The ids of the generations and human solutions whose text holds ``q`` (``probe``: TextSearch's)."""
    g, h = GenerationRow, HumanSolutionRow
    with store.engine.connect() as connection:
        search = TextSearch(connection, q) if probe is None else TextSearch(connection, q, probe)
        gens = connection.scalars(select(g.generation_id).where(search.clause("generation", g.text)))
        humans = connection.scalars(select(h.solution_id).where(search.clause("human_solution", h.text)))
        return sorted([*gens, *humans])


@pytest.mark.parametrize(("q", "expected"), CASES, ids=[q for q, _ in CASES])
@pytest.mark.parametrize("probe", [None, 1], ids=["index", "scan"])
def test_search_finds_the_hand_computed_texts(world: Store, q: str, expected: list[str], probe: int | None) -> None:
    assert found(world, q, probe) == expected


def test_sqlite_reads_the_index_for_a_selective_query_and_scans_a_common_one(world: Store) -> None:
    if world.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's choice")
    # synced or queued alike: a queued row counts as a match (it is scanned)
    with world.engine.connect() as connection:
        assert TextSearch(connection, "käufer").use_index == {"generation": True, "human_solution": True}
        assert TextSearch(connection, "anspruch", probe=2).use_index == {"generation": False, "human_solution": True}
        assert TextSearch(connection, "Käufer", probe=1).use_index["generation"]  # not ASCII: the index


def _reference(q: str) -> list[str]:
    return sorted(sid for sid, body in DOCS.items() if q.lower() in body.lower())


@st.composite
def _queries(draw: Any) -> str:
    """A piece of one of the texts, each character's case possibly swapped (ß's upper case is SS)."""
    body = draw(st.sampled_from(sorted(DOCS.values())))
    start = draw(st.integers(0, len(body) - 1))
    piece = body[start : start + draw(st.integers(1, 12))]
    flips = draw(st.lists(st.booleans(), min_size=len(piece), max_size=len(piece)))
    return "".join(c.swapcase() if f else c for c, f in zip(piece, flips, strict=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=_queries(), probe=st.sampled_from([None, 1]))
def test_search_equals_the_lower_case_substring_test(world: Store, q: str, probe: int | None) -> None:
    assert found(world, q, probe) == _reference(q)


def test_the_index_follows_every_write_path(db_url: str) -> None:
    store = _world(db_url)
    try:
        assert found(store, "widerruf") == []
        with store.engine.begin() as conn:  # Core executemany, as benchmarks/ and bulk imports write
            row = {c: None for c in ("reason", "answer", "finish_reason", "input_tokens", "output_tokens")}
            conn.execute(insert(GenerationRow), [
                {**row, "generation_id": f"b{i}", "corpus": "c", "task_id": "t1", "system": "sys",
                 "config_hash": "bulk", "run_index": i, "status": "ok", "text": f"Widerruf Nr. {i}",
                 "truncated": False, "refused": False, "meta": {}}
                for i in range(3)
            ])  # fmt: skip
        assert found(store, "WIDERRUF") == ["b0", "b1", "b2"]
        with store.engine.begin() as conn:
            conn.execute(update(GenerationRow).where(GenerationRow.generation_id == "b1").values(text="Rücktritt"))
            conn.execute(delete(GenerationRow).where(GenerationRow.generation_id == "b2"))
        assert (found(store, "widerruf"), found(store, "RÜCKTRITT")) == (["b0"], ["b1"])
        # the Store API's replacement (an upsert) of a human solution
        store.add_human_solution(
            HumanSolution(solution_id="h1", task_id="t1", participant_id="p", condition="traditional", text="Neu")
        )
        assert (found(store, "käuferin"), found(store, "neu")) == ([], ["h1"])
        if store.engine.dialect.name == "sqlite":  # VACUUM keeps the rowids the index refers to
            raw = store.engine.raw_connection()  # outside the engine's BEGIN
            try:
                raw.cursor().execute("VACUUM")
            finally:
                raw.close()
            assert (found(store, "widerruf"), found(store, "rücktritt"), found(store, "§ 2")) == (
                ["b0"],
                ["b1"],
                ["g3"],
            )
    finally:
        store.close()


def _migrate(url: str, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, target)
    finally:
        engine.dispose()


def _objects(url: str) -> set[str]:
    """The full-text objects in the database: FTS5 tables and triggers, or the folded column and trgm indexes."""
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                rows = conn.execute(text("SELECT name FROM sqlite_master WHERE name LIKE '%\\_fts%' ESCAPE '\\'"))
                return {r[0] for r in rows if not r[0].endswith(("_data", "_idx", "_docsize", "_config"))}
            columns = {f"{t}.{c['name']}" for t in TRGM_INDEXES for c in inspect(conn).get_columns(t)}
            indexes = {str(i["name"]) for t in TRGM_INDEXES for i in inspect(conn).get_indexes(t)}
            return {c for c in columns if c.endswith(".text_folded")} | (indexes & set(TRGM_INDEXES.values()))
    finally:
        engine.dispose()


def test_migration_0016_indexes_the_rows_there_and_a_downgrade_removes_it(db_url: str) -> None:
    _migrate(db_url, "0013_ungraded_reviews", up=True)
    assert _objects(db_url) == set()
    store = open_store(db_url)  # upgrades to head
    try:
        store.upsert_system(SystemConfig(name="sys", provider="local", model="m", tier="local"))
    finally:
        store.close()
    if "://" in db_url:
        assert _objects(db_url) == {"generations.text_folded", "human_solutions.text_folded", *TRGM_INDEXES.values()}
    else:
        assert _objects(db_url) == {
            f"{t}_fts{suffix}"
            for t in ("generations", "human_solutions")
            for suffix in ("", "_insert", "_delete", "_update", "_pending")
        }
    _migrate(db_url, "0013_ungraded_reviews", up=False)
    assert _objects(db_url) == set()


def test_migration_0016_indexes_existing_texts(db_url: str) -> None:
    store = _world(db_url)
    store.close()
    _migrate(db_url, "0013_ungraded_reviews", up=False)
    store = open_store(db_url)  # up again: the texts already stored are indexed
    try:
        assert found(store, "käufer") == ["g1", "h1"]
        if store.engine.dialect.name == "postgresql":  # without the trgm index: the same answers (a scan)
            with store.engine.begin() as conn:
                for name in TRGM_INDEXES.values():
                    conn.exec_driver_sql(f"DROP INDEX {name}")
            assert found(store, "käufer") == ["g1", "h1"]
    finally:
        store.close()

"""Aggregates for the leaderboard computed in SQL (SQLAlchemy Core, one code path for SQLite and PostgreSQL).

Nothing here loads an ORM object, a generation text or a justification: each query returns plain tuples of
short columns. The repeats of one judge configuration on one generation are averaged by ``GROUP BY``
(:func:`benger.store._aggregate_items.item_scores`, summed per row by ``row_sums``); counts per system
configuration x corpus and status likewise
(:func:`generation_counts`); the automatic-metric means by ``GROUP BY`` over one chosen signature per metric
(:func:`metric_means`). The indexes these queries use are created by migration ``0005_indexes``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Index, Select, Text, and_, case, cast, func, or_, select, true

from benger.store._tables import GENERATIONS, JUDGEMENTS, METRIC_VALUES, TASKS

_G = GENERATIONS.c
_J = JUDGEMENTS.c
_T = TASKS.c
_M = METRIC_VALUES.c
#: The task of a generation: the whole task key (a task id alone may be in several corpora).
TASK_OF_GENERATION = and_(_T.corpus == _G.corpus, _T.task_id == _G.task_id)

#: Covering indexes of the leaderboard queries (migration ``0005_indexes`` creates them, ``0007_task_identity``
#: adds the generation's corpus): the aggregates read these columns from the index alone, never the table pages
#: that hold texts, justifications and meta. A generation carries its corpus, so only the queries that need the
#: task's kind join ``tasks``, on the whole task key (corpus, task_id).
LEADERBOARD_INDEXES: tuple[Index, ...] = (
    Index(
        "ix_generations_leaderboard",
        *(_G.generation_id, _G.status, _G.corpus, _G.task_id, _G.system, _G.config_hash, _G.truncated, _G.answer),
    ),
    Index("ix_tasks_leaderboard", _T.task_id, _T.corpus, _T.kind),
    Index(
        "ix_judgements_leaderboard",
        *(_J.target_kind, _J.target_id, _J.judge, _J.judge_config_hash, _J.rubric_id, _J.status, _J.total),
        *(_J.grade_points, _J.passed),
    ),
    Index("ix_metric_values_signature", _M.target_kind, _M.metric, _M.signature, _M.target_id, _M.value),
)
#: The viewer's Browse keys (``benger.web.viewer._browse``, migration ``0012_viewer_speed``): a generation's
#: corpus, task, system, id and the columns its filters test, read without the table rows and counted per task
#: in the index's order (no sort); a judge's judgements per target likewise.
VIEWER_INDEXES: tuple[Index, ...] = (
    Index(
        "ix_generations_browse",
        *(_G.corpus, _G.task_id, _G.system, _G.generation_id, _G.status, _G.truncated, _G.refused),
    ),
    # one judge's aggregates per target, grouped in the index's order (without a judge: ix_judgements_leaderboard)
    Index("ix_judgements_browse", _J.judge, _J.target_kind, _J.target_id, _J.status, _J.total),
)
#: Rows ``ANALYZE`` samples per index on SQLite (bounded cost at any store size: ~0.06 s at 8k generations).
ANALYSIS_LIMIT = 1000


def refresh_statistics(store: Any) -> bool:
    """SQLite only: give the planner statistics (``ANALYZE`` with ``analysis_limit``) when the covering indexes
    (the leaderboard's, the viewer's) have none yet, so the aggregates read the indexes instead of the wide table
    rows (without statistics SQLite prefers the narrow single-column indexes). Best effort: a read-only store
    keeps its plans. PostgreSQL keeps its own statistics (autovacuum). True when statistics were written
    (checkpointed into the file)."""
    from sqlalchemy.exc import SQLAlchemyError

    from benger.errors import ConfigError

    if store.engine.dialect.name != "sqlite":
        return False
    try:
        with store.engine.connect() as connection:
            has_stats = (
                connection.exec_driver_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").first()
                is not None
                and connection.exec_driver_sql(
                    "SELECT count(*) FROM sqlite_stat1"
                    " WHERE idx IN ('ix_generations_leaderboard', 'ix_generations_browse')"
                ).scalar()
                == 2
            )
            if has_stats:
                return False
            connection.exec_driver_sql(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
            for table in ("generations", "tasks", "judgements", "metric_values"):
                connection.exec_driver_sql(f"ANALYZE {table}")
            connection.commit()
            # into the main file now: a WAL store's file would otherwise change at close, after a caller (analyze's
            # provenance) hashed it as read
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    except (SQLAlchemyError, ConfigError):  # the engine reports a read-only store as a ConfigError
        return False
    return True


class GenerationCount(NamedTuple):
    """How many generations of one system configuration on one corpus have a status (and how many truncated)."""

    system: str
    config_hash: str
    corpus: str
    status: str
    n: int
    truncated: int
    first_id: str = ""  # the smallest generation id of the group (where its provenance is read)


class Answer(NamedTuple):
    """A generation's parsed Ja/Nein answer (None when it gave none) on a Grundprinzipien task."""

    system: str
    config_hash: str
    corpus: str
    task_id: str
    status: str
    answer: str | None


class MetricGroupMean(NamedTuple):
    """Mean and count of one metric (one signature) over a row's ok generations."""

    system: str
    config_hash: str
    corpus: str
    metric: str
    mean: float
    n: int


def _scope(stmt: Select[Any], corpora: Sequence[str] | None, systems: Sequence[str] | None) -> Select[Any]:
    if corpora is not None:
        stmt = stmt.where(_G.corpus.in_(list(corpora)))
    if systems is not None:
        stmt = stmt.where(_G.system.in_(list(systems)))
    return stmt


def _rows(store: Any, stmt: Select[Any]) -> list[Any]:
    with store.engine.connect() as connection:
        return list(connection.execute(stmt).all())


#: ``reason`` of the release's superseded (April-2026) generations, stored with status ``excluded``.
SUPERSEDED_REASON = "superseded%"


def _superseded() -> Any:
    return and_(_G.status == "excluded", _G.reason.like(SUPERSEDED_REASON))


def generation_counts(
    store: Any, *, corpora: Sequence[str] | None = None, systems: Sequence[str] | None = None
) -> list[GenerationCount]:
    """Generations per system, config hash, corpus and status, with the number truncated and the smallest
    generation id (``GROUP BY``)."""
    keys = (_G.system, _G.config_hash, _G.corpus, _G.status)
    truncated = func.sum(case((_G.truncated.is_(True), 1), else_=0))
    stmt: Any = select(*keys, func.count(), truncated, func.min(_G.generation_id)).select_from(GENERATIONS)
    stmt = _scope(stmt, corpora, systems).group_by(*keys).order_by(*keys)
    return [GenerationCount(r[0], r[1], r[2], r[3], int(r[4]), int(r[5] or 0), r[6]) for r in _rows(store, stmt)]


def superseded_counts(
    store: Any, *, corpora: Sequence[str] | None = None, systems: Sequence[str] | None = None
) -> dict[tuple[str, str, str], int]:
    """Superseded generations per system, config hash and corpus (few rows: read through the status index)."""
    keys = (_G.system, _G.config_hash, _G.corpus)
    stmt: Any = select(*keys, func.count()).select_from(GENERATIONS).where(_superseded())
    stmt = _scope(stmt, corpora, systems).group_by(*keys).order_by(*keys)
    return {(r[0], r[1], r[2]): int(r[3]) for r in _rows(store, stmt)}


def answers(store: Any, *, corpora: Sequence[str] | None = None, systems: Sequence[str] | None = None) -> list[Answer]:
    """The answer column of every generation of a Grundprinzipien task (kind ``grundprinzip``), by generation id
    (read from the Grundprinzipien tasks, so a store without any reads no generation)."""
    stmt: Any = (
        select(_G.system, _G.config_hash, _G.corpus, _G.task_id, _G.status, _G.answer)
        .select_from(GENERATIONS)
        .join(TASKS, TASK_OF_GENERATION)
        .where(_T.kind == "grundprinzip")
    )
    stmt = _scope(stmt, corpora, systems).order_by(_G.generation_id)  # a stable order: never the heap's
    return [Answer(*r) for r in _rows(store, stmt)]


def metric_signature_counts(store: Any) -> dict[str, dict[str, int]]:
    """Per metric, how many generation values each signature has (``GROUP BY metric, signature``)."""
    stmt: Any = (
        select(_M.metric, _M.signature, func.count())
        .where(_M.target_kind == "generation")
        .group_by(_M.metric, _M.signature)
        .order_by(_M.metric, _M.signature)
    )
    out: dict[str, dict[str, int]] = {}
    for metric, signature, n in _rows(store, stmt):
        out.setdefault(metric, {})[signature] = int(n)
    return out


def metric_means(
    store: Any,
    signatures: dict[str, str],
    *,
    corpora: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
) -> list[MetricGroupMean]:
    """Mean and n of each metric (its one chosen signature) per system, config hash and corpus (ok generations)."""
    if not signatures:
        return []
    chosen = [and_(_M.metric == m, _M.signature == s) for m, s in signatures.items()]
    keys = (_G.system, _G.config_hash, _G.corpus, _M.metric)
    stmt: Any = (
        select(*keys, func.avg(_M.value), func.count())
        .select_from(METRIC_VALUES)
        .join(GENERATIONS, and_(_M.target_kind == "generation", _M.target_id == _G.generation_id))
        .where(_G.status == "ok", or_(*chosen))
    )
    stmt = _scope(stmt, corpora, systems).group_by(*keys).order_by(*keys)
    rows = _rows(store, stmt)
    return [MetricGroupMean(r[0], r[1], r[2], r[3], float(r[4]), int(r[5])) for r in rows]


class ConfigProvenance(NamedTuple):
    """What one generation of a config hash records: its prompt-set hash, source (``"release"`` for released
    generations) and the system's own config hash (``meta["system_config_hash"]``); None where it records none."""

    prompt_hash: str | None
    source: str | None
    system_config_hash: str | None = None

    @classmethod
    def of(cls, meta: Any) -> ConfigProvenance:
        """The provenance recorded in a generation's ``meta`` (a dict; anything else records nothing)."""
        meta = meta if isinstance(meta, dict) else {}
        found = (meta.get("prompt_hash"), meta.get("source"), meta.get("system_config_hash"))
        prompt, source, system = (None if v is None else str(v) for v in found)
        return cls(prompt, source, system)


def config_provenance(store: Any, counts: Sequence[GenerationCount]) -> dict[str, ConfigProvenance]:
    """``meta["prompt_hash"]``, ``meta["source"]`` and ``meta["system_config_hash"]`` of one generation per config
    hash of ``counts`` (:func:`generation_counts`): the smallest id there (one primary-key read per config hash)."""
    first: dict[str, str] = {}
    for c in counts:
        if c.first_id and (c.config_hash not in first or c.first_id < first[c.config_hash]):
            first[c.config_hash] = c.first_id
    out = dict.fromkeys(sorted({c.config_hash for c in counts}), ConfigProvenance(None, None))
    if first:
        stmt = (
            select(_G.config_hash, _G.meta)
            .where(_G.generation_id.in_(sorted(first.values())))
            .order_by(_G.generation_id)
        )
        for config_hash, meta in _rows(store, stmt):
            out[config_hash] = ConfigProvenance.of(meta)
    return out


class JudgementColumns(NamedTuple):
    """The short columns of a scored judgement (no justifications, no meta), for analyses over many rows."""

    target_kind: str
    target_id: str
    judge: str
    judge_config_hash: str
    rubric_id: str
    repeat_index: int
    total: float


class GenerationColumns(NamedTuple):
    """The short columns of a generation (no text, no meta)."""

    generation_id: str
    system: str
    task_id: str
    status: str
    answer: str | None


def scored_judgements(store: Any, ids: Mapping[str, str] | None = None) -> list[JudgementColumns]:
    """Every scored judgement with a total, as short columns (no dimensions: :func:`first_pass_dimensions`),
    ordered by target, judge and repeat; a target id in ``ids`` is its value there (one string object)."""
    stmt = (
        select(_J.target_kind, _J.target_id, _J.judge, _J.judge_config_hash, _J.rubric_id, _J.repeat_index, _J.total)
        .where(_J.status == "scored", _J.total.is_not(None))
        .order_by(_J.target_kind, _J.target_id, _J.judge, _J.judge_config_hash, _J.rubric_id, _J.repeat_index)
    )
    shared: dict[tuple[str, str, str, str], tuple[str, str, str, str]] = {}
    out: list[JudgementColumns] = []
    with store.engine.connect() as connection:  # streamed: one tuple per judgement, never the driver's row list
        for r in connection.execute(stmt):
            found = (r[0], r[2], r[3], r[4])
            k = shared.setdefault(found, found)  # the judgements of one configuration share their key strings
            target = ids.get(r[1], r[1]) if ids is not None else r[1]
            out.append(JudgementColumns(k[0], target, k[1], k[2], k[3], int(r[5]), float(r[6])))
    return out


def first_pass_dimensions(
    store: Any, judge: str, judge_config_hash: str, rubric_id: str, targets: Collection[str] | None = None
) -> dict[str, str]:
    """Generation id -> the stored JSON text of the dimension points of one judge configuration's scored first
    pass (repeat 0), undecoded: a caller decodes the few it reads (``benger.analysis._records.JsonDims``).
    ``targets``: only these generations (read 500 ids a query); None: every generation."""
    if targets is not None:
        wanted = sorted(targets)
        out: dict[str, str] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            out |= _first_pass_dimensions(store, judge, judge_config_hash, rubric_id, _J.target_id.in_(chunk))
        return out
    return _first_pass_dimensions(store, judge, judge_config_hash, rubric_id, true())


def _first_pass_dimensions(store: Any, judge: str, judge_config_hash: str, rubric_id: str, only: Any) -> dict[str, str]:
    stmt = (
        select(_J.target_id, cast(_J.dimensions, Text))
        .where(
            only,
            _J.target_kind == "generation",
            _J.judge == judge,
            _J.judge_config_hash == judge_config_hash,
            _J.rubric_id == rubric_id,
            _J.repeat_index == 0,
            _J.status == "scored",
            _J.total.is_not(None),
        )
        .order_by(_J.target_id)
    )
    with store.engine.connect() as connection:
        return {r[0]: r[1] for r in connection.execute(stmt) if r[1] is not None}


class TaskColumns(NamedTuple):
    """The short columns of a task (no facts, no reference, no rubric)."""

    task_id: str
    kind: str
    area: str


def corpus_tasks(store: Any, corpus: str) -> list[TaskColumns]:
    """The tasks of one corpus as short columns, in the corpus's order (``Store.load_corpus`` reads every text)."""
    stmt = select(_T.task_id, _T.kind, _T.area).where(_T.corpus == corpus).order_by(_T.position, _T.task_id)
    return [TaskColumns(*r) for r in _rows(store, stmt)]


def corpus_areas_and_tasks(store: Any, corpus: str, keep: Callable[[Any], bool]) -> tuple[dict[str, str], list[Any]]:
    """Task id -> area of every task of ``corpus`` and the tasks (records) for which ``keep`` is true, both in
    the corpus's order; the tasks are decoded one at a time (``Store.load_corpus`` holds every task's texts)."""
    from benger.store._convert import task

    stmt = select(_T.task_id, _T.area, _T.payload).where(_T.corpus == corpus).order_by(_T.position, _T.task_id)
    areas: dict[str, str] = {}
    kept: list[Any] = []
    with store.engine.connect() as connection:
        for task_id, area, payload in connection.execute(stmt):
            record = task(payload, corpus)
            areas[task_id] = area
            if keep(record):
                kept.append(record)
    return areas, kept


def corpus_generations(store: Any, corpus: str) -> list[GenerationColumns]:
    """The generations of one corpus as short columns, ordered by system, task, config hash and run."""
    stmt = (
        select(_G.generation_id, _G.system, _G.task_id, _G.status, _G.answer)
        .select_from(GENERATIONS)
        .where(_G.corpus == corpus)
        .order_by(_G.system, _G.task_id, _G.config_hash, _G.run_index, _G.generation_id)
    )
    shared: dict[str, str] = {}  # systems, tasks and statuses repeat: one string each
    out: list[GenerationColumns] = []
    with store.engine.connect() as connection:  # streamed: one tuple per generation
        for r in connection.execute(stmt):
            system, task, status = shared.setdefault(r[1], r[1]), shared.setdefault(r[2], r[2]), r[3]
            out.append(GenerationColumns(r[0], system, task, shared.setdefault(status, status), r[4]))
    return out


def metric_columns(store: Any, signatures: dict[str, str]) -> Iterator[tuple[str, str, str, float]]:
    """``(target_kind, target_id, metric, value)`` of every stored value under its metric's chosen signature,
    yielded as read (the connection stays open until the iterator is exhausted or closed)."""
    if not signatures:
        return
    chosen = [and_(_M.metric == m, _M.signature == s) for m, s in signatures.items()]
    stmt = (
        select(_M.target_kind, _M.target_id, _M.metric, _M.value)
        .where(or_(*chosen))
        .order_by(_M.metric, _M.target_kind, _M.target_id)
    )
    shared: dict[str, str] = {}  # target kinds and metric names repeat: one string each
    with store.engine.connect() as connection:  # streamed: one tuple per value, none kept
        for r in connection.execute(stmt):
            yield shared.setdefault(r[0], r[0]), r[1], shared.setdefault(r[2], r[2]), float(r[3])

"""The leaderboard's per-generation judge items and their per-row sums in SQL (SQLAlchemy Core, one code path for
SQLite and PostgreSQL; see :mod:`benger.store._aggregate` for the other aggregates and the covering indexes).

Nothing here loads an ORM object, a text or a justification. :func:`item_scores` returns one short row per
generation and judge configuration (for the bootstrap, which resamples generations); :func:`row_sums` sums those
rows by one outer ``GROUP BY``, so that a leaderboard with the normal interval reads a few rows only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Float, Integer, Text, and_, case, cast, func, not_, or_, select

from benger.store._aggregate import _G, _J, SUPERSEDED_REASON, _rows, _scope, _superseded
from benger.store._pass import pass_column
from benger.store._tables import GENERATIONS, HUMAN_REVIEWS, JUDGEMENTS, TASKS

#: A judge configuration: judge name, judge config hash, rubric id.
JudgeConfig = tuple[str, str, str]


class ItemScore(NamedTuple):
    """One ok generation under one judge configuration: its repeats' counts and means (None when unscored)."""

    system: str
    config_hash: str
    corpus: str
    generation_id: str
    judge: str
    judge_config_hash: str
    rubric: str
    n_scored: int
    n_unscored: int
    total: float | None
    grade_points: float | None
    passed: float | None
    status: str = "ok"
    #: the generation's task: the unit the leaderboard resamples (a task's repetitions are nested in it)
    task_id: str = ""


def _judgement_aggregates() -> list[Any]:
    """The per-item aggregates of a group of judgements (one target, one judge configuration): scored and unscored
    counts, and the scored judgements' mean total, grade points and pass share (repeats averaged)."""
    scored = _J.status == "scored"

    def when_scored(column: Any) -> Any:
        return case((scored, column))

    return [
        func.count(when_scored(1)).label("n_scored"),
        func.count(case((_J.status == "unscored", 1))).label("n_unscored"),
        func.avg(when_scored(_J.total)).label("total"),
        func.avg(when_scored(cast(_J.grade_points, Float))).label("grade_points"),
        func.avg(when_scored(cast(cast(pass_column(_J), Integer), Float))).label("passed"),
    ]


def _judged_by(stmt: Any, judges: Sequence[str] | None, leave_out: Collection[JudgeConfig]) -> Any:
    """``stmt`` kept to the judgements of ``judges`` (all when None) and of no ``leave_out`` configuration."""
    if judges is not None:
        stmt = stmt.where(_J.judge.in_(list(judges)))
    for judge, jhash, rubric in sorted(leave_out):
        stmt = stmt.where(not_(and_(_J.judge == judge, _J.judge_config_hash == jhash, _J.rubric_id == rubric)))
    return stmt


def _item_stmt(
    generations: Any,
    corpora: Sequence[str] | None,
    systems: Sequence[str] | None,
    judges: Sequence[str] | None,
    leave_out: Collection[JudgeConfig] = (),
) -> Any:
    """One row per generation and judge configuration (none of the ``leave_out`` configurations), in
    :class:`ItemScore`'s column order.

    Grouped by a prefix of ix_judgements_leaderboard, so the database aggregates while reading it (no sort); a
    generation's own columns hold one value per group (min() of it is valid on both backends). Scored and
    unscored repeats are told apart by ``CASE`` inside the aggregates; a scored judgement without a total counts
    as neither (``WHERE``). A judgement stored without a pass value gets its rubric's derived one
    (:func:`benger.store._pass.pass_column`)."""
    scored = _J.status == "scored"
    stmt: Any = (
        select(
            func.min(_G.system).label("system"),
            func.min(_G.config_hash).label("config_hash"),
            func.min(_G.corpus).label("corpus"),
            _J.target_id,
            _J.judge,
            _J.judge_config_hash,
            _J.rubric_id,
            *_judgement_aggregates(),
            func.min(_G.status).label("status"),
            func.min(_G.task_id).label("task_id"),
        )
        .select_from(GENERATIONS)
        .join(JUDGEMENTS, and_(_J.target_kind == "generation", _J.target_id == _G.generation_id))
        .where(generations, or_(and_(scored, _J.total.is_not(None)), _J.status == "unscored"))
    )
    stmt = _judged_by(_scope(stmt, corpora, systems), judges, leave_out)
    return stmt.group_by(_J.target_id, _J.judge, _J.judge_config_hash, _J.rubric_id)


def _grouped_item_stmt(
    generations: Any,
    corpora: Sequence[str] | None,
    systems: Sequence[str] | None,
    judges: Sequence[str] | None,
    leave_out: Collection[JudgeConfig] = (),
) -> Any:
    """:func:`_item_stmt`'s rows (the same columns, values and groups), aggregated before the join: the judgements
    are grouped by target and judge configuration alone (in ix_judgements_leaderboard's order, as there), and each
    group then takes its generation's columns by one primary-key read, instead of five ``min()`` aggregates of the
    joined rows (256k items on SQLite: 0.85 CPU-s against 1.23)."""
    scored = _J.status == "scored"
    grouped: Any = select(
        _J.target_id,
        _J.judge,
        _J.judge_config_hash,
        _J.rubric_id,
        *_judgement_aggregates(),
    ).where(_J.target_kind == "generation", or_(and_(scored, _J.total.is_not(None)), _J.status == "unscored"))
    keys = (_J.target_id, _J.judge, _J.judge_config_hash, _J.rubric_id)
    judged = _judged_by(grouped, judges, leave_out).group_by(*keys).subquery("judged")
    g = judged.c
    stmt: Any = (
        select(
            *(_G.system, _G.config_hash, _G.corpus, g.target_id, g.judge, g.judge_config_hash, g.rubric_id),
            *(g.n_scored, g.n_unscored, g.total, g.grade_points, g.passed, _G.status, _G.task_id),
        )
        .select_from(judged)
        .join(GENERATIONS, _G.generation_id == g.target_id)
        .where(generations)
    )
    return _scope(stmt, corpora, systems)


def _generation_filters(include_superseded: bool) -> list[Any]:
    # ok generations read the covering indexes only; superseded ones (few) need ``reason`` from the table
    return [_G.status == "ok", *([_superseded()] if include_superseded else [])]


def item_scores(
    store: Any,
    *,
    corpora: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    judges: Sequence[str] | None = None,
    include_superseded: bool = False,
    leave_out: Collection[JudgeConfig] = (),
) -> list[ItemScore]:
    """Per ok generation (and superseded one, when asked) and judge configuration (judge, judge config hash,
    rubric id; none of the ``leave_out`` configurations): the number of scored and unscored repeats and the means
    over the scored repeats of total (0-100), grade points (0-18) and pass (0/1). Unordered (the
    leaderboard orders what it needs).

    The rows are streamed from the cursor (never all result rows at once) and the items of one system
    configuration x corpus x judge configuration share their key strings, so memory is about one generation id,
    three numbers and a tuple per item (~0.2 kB)."""
    items: list[ItemScore] = []
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}
    with store.engine.connect() as connection:
        queries = (_grouped_item_stmt, _item_stmt)
        for query, generations in zip(queries, _generation_filters(include_superseded), strict=False):
            # the columns are ItemScore's, typed alike on both backends (counts are ints; avg of a float column
            # is a float or NULL): no per-value conversion. The ok generations (most) are joined to their
            # judgements' groups; the few superseded ones from the joined rows (no pass over every judgement)
            for r in connection.execute(query(generations, corpora, systems, judges, leave_out)):
                found = (r[0], r[1], r[2], r[4], r[5], r[6], r[12])
                k = shared.setdefault(found, found)
                items.append(
                    ItemScore(k[0], k[1], k[2], r[3], k[3], k[4], k[5], r[7], r[8], r[9], r[10], r[11], k[6], r[13])
                )
    return items


#: The shift of :attr:`RowSums.squares`: mid-scale of the 0-100 raw points, so that the sum of squares keeps
#: little cancellation (the leaderboard still takes a row's scores when its spread is too small for the sums).
SQUARES_SHIFT = 50.0


class RowSums(NamedTuple):
    """Sums over the generations of one system configuration x corpus x judge configuration x generation status.

    A generation's score is its :class:`ItemScore` (the mean over its scored repeats); ``n`` counts the
    generations with a scored repeat, ``total`` sums their scores (raw points 0-100), ``squares`` sums
    ``(score - SQUARES_SHIFT)**2``, ``items`` and ``repeats`` count their judge items and scored repeats,
    ``unscored`` the unscored judgements of all the group's generations; grade points (0-18) and pass (0/1) are
    summed over the ``gp_n`` / ``pass_n`` generations that have one."""

    system: str
    config_hash: str
    corpus: str
    judge: str
    judge_config_hash: str
    rubric: str
    status: str
    n: int
    total: float
    squares: float
    items: int
    repeats: int
    unscored: int
    gp_n: int
    gp: float
    pass_n: int
    passed: float
    #: distinct tasks among the ``n`` scored generations (fewer than ``n``: the row has repetitions)
    tasks: int = 0


def row_sums(
    store: Any,
    *,
    corpora: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    judges: Sequence[str] | None = None,
    include_superseded: bool = False,
    leave_out: Collection[JudgeConfig] = (),
) -> list[RowSums]:
    """:class:`RowSums` per system, config hash, corpus, judge configuration and generation status: the
    per-generation query of :func:`item_scores` summed by one outer ``GROUP BY`` (a few rows reach Python)."""
    out: list[RowSums] = []
    for generations in _generation_filters(include_superseded):
        item = _item_stmt(generations, corpora, systems, judges, leave_out).subquery()
        c = item.c
        keys = (c.system, c.config_hash, c.corpus, c.judge, c.judge_config_hash, c.rubric_id, c.status)
        shifted = c.total - SQUARES_SHIFT
        stmt = select(
            *keys,
            func.count(c.total),
            func.sum(c.total),
            func.sum(shifted * shifted),
            func.count(c.total),
            func.sum(c.n_scored),
            func.sum(c.n_unscored),
            func.count(c.grade_points),
            func.sum(c.grade_points),
            func.count(c.passed),
            func.sum(c.passed),
            func.count(func.distinct(case((c.total.is_not(None), c.task_id)))),
        ).group_by(*keys)
        for r in _rows(store, stmt):
            sums = (int(r[7]), _zero(r[8]), _zero(r[9]), int(r[10]), int(r[11] or 0), int(r[12] or 0))
            out.append(
                RowSums(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    r[6],
                    *sums,
                    int(r[13]),
                    _zero(r[14]),
                    int(r[15]),
                    _zero(r[16]),
                    int(r[17]),
                )
            )
    return out


def _zero(value: Any) -> float:
    return 0.0 if value is None else float(value)


#: What :func:`validation_only_of` decides on: (configuration, corpus) -> whether the configuration judged an
#: unreviewed generation (one without a human review) of that corpus.
JudgedScopes = Mapping[tuple[JudgeConfig, str], bool]


def validation_only_of(judged: JudgedScopes) -> set[JudgeConfig]:
    """The rule of a validation-only judge configuration, for the store path (:func:`validation_only_judges`) and
    the records path (``benger.analysis.leaderboard.records.validation_only``) alike.

    A configuration (judge, judge config hash, rubric id) is validation-only when every generation it judged is
    reviewed (a validation pick) and, on a corpus it judged, a judgement **under the same rubric** is of an
    unreviewed generation: it could have judged those generations and judged the picks only, as the release's
    five secondary judges scored the 15 LLM picks only while the primary judge scored every generation under the
    same rubric. A configuration whose every generation is reviewed while no judgement of its rubric and corpus
    goes beyond the reviewed ones (a study that reviewed every generation of its main rubric, while a case's own
    Bewertungsbogen scored an unreviewed one) is the result, not a validation: it keeps its rows."""
    beyond = {config for (config, _), unreviewed in judged.items() if unreviewed}
    scopes = {(config[2], corpus) for (config, corpus), unreviewed in judged.items() if unreviewed}
    return {config for config, corpus in judged if config not in beyond and (config[2], corpus) in scopes}


def validation_only_judges(store: Any) -> set[JudgeConfig]:
    """The store's validation-only judge configurations (the rule: :func:`validation_only_of`). The leaderboard
    leaves them out (:mod:`benger.analysis.leaderboard`) and names them in its caption: such a row would rank
    systems on their one or two picks.

    A few indexed queries: the configurations and corpora of the reviewed generations' judgements (few), then per
    configuration whether it judged an unreviewed generation, and per rubric and corpus of those that did not
    whether any judgement under that rubric did (``LIMIT 1`` each); no pass over every judgement."""
    reviewed = select(HUMAN_REVIEWS.c.target_id).where(HUMAN_REVIEWS.c.target_kind == "generation")
    of_generation = _J.target_kind == "generation"
    unreviewed = and_(of_generation, _J.target_id.not_in(reviewed))

    def exists(connection: Any, *where: Any) -> bool:
        stmt = select(_J.judgement_id).join(GENERATIONS, _G.generation_id == _J.target_id).where(*where)
        return connection.execute(stmt.limit(1)).first() is not None

    with store.engine.connect() as connection:
        candidates = connection.execute(
            select(_J.judge, _J.judge_config_hash, _J.rubric_id, _G.corpus)
            .join(GENERATIONS, _G.generation_id == _J.target_id)
            .where(of_generation, _J.target_id.in_(reviewed))
            .distinct()
        ).all()
        if not candidates or not exists(connection, unreviewed):
            return set()
        judged: dict[tuple[JudgeConfig, str], bool] = {
            ((str(j), str(h), str(r)), str(k)): False for j, h, r, k in candidates
        }
        for config in {c for c, _ in judged}:
            same = (_J.judge == config[0], _J.judge_config_hash == config[1], _J.rubric_id == config[2])
            if exists(connection, *same, unreviewed):
                judged[(config, "")] = True  # it judged an unreviewed generation (of some corpus)
        for rubric, corpus in sorted({(c[2], k) for c, k in judged if k}):
            if exists(connection, _J.rubric_id == rubric, _G.corpus == corpus, unreviewed):
                judged[(("", "", rubric), corpus)] = True  # one stands for the configurations that judged one
    return validation_only_of(judged)


def own_rubric_outcomes(
    store: Any, *, corpora: Sequence[str] | None = None, systems: Sequence[str] | None = None
) -> list[tuple[str, str, str, str, int, Any]]:
    """(system, config hash, corpus, status, count, the task's own Bewertungsbogen) of the failed and excluded
    generations (not the superseded ones) of the tasks that have their own Bewertungsbogen: the leaderboard counts
    them in that rubric's rows, not the main rubric's (:func:`benger.analysis.leaderboard.counts.own_rubric_moves`).
    A few rows: the failed and excluded generations are grouped by task, and only their tasks' payloads are read."""
    import json

    keys = (_G.system, _G.config_hash, _G.corpus, _G.task_id, _G.status)
    superseded = func.coalesce(_G.reason, "").like(SUPERSEDED_REASON)  # _superseded(), NULL reason included
    stmt: Any = (
        select(*keys, func.count())
        .select_from(GENERATIONS)
        .where(or_(_G.status == "failed", and_(_G.status == "excluded", not_(superseded))))
    )
    found = _rows(store, _scope(stmt, corpora, systems).group_by(*keys).order_by(*keys))
    wanted = sorted({(r[2], r[3]) for r in found})
    rubrics: dict[tuple[str, str], Any] = {}
    text = cast(TASKS.c.payload, Text)
    with store.engine.connect() as connection:
        for corpus in sorted({c for c, _ in wanted}):
            ids = [t for c, t in wanted if c == corpus]
            where = (TASKS.c.corpus == corpus, TASKS.c.task_id.in_(ids))
            for task_id, raw in connection.execute(select(TASKS.c.task_id, text).where(*where)):
                payload = json.loads(raw) if raw and '"rubric"' in raw else None  # without the key: no rubric
                if isinstance(payload, dict) and payload.get("rubric") is not None:
                    rubrics[(corpus, task_id)] = payload["rubric"]
    return [(r[0], r[1], r[2], r[4], int(r[5]), rubrics[(r[2], r[3])]) for r in found if (r[2], r[3]) in rubrics]


def judge_names(store: Any) -> list[str]:
    """The judge names of the store's generation judgements, sorted (one indexed ``DISTINCT``): what ``benger
    leaderboard --judge`` takes."""
    stmt = select(_J.judge).where(_J.target_kind == "generation").distinct()
    with store.engine.connect() as connection:
        return sorted(str(name) for (name,) in connection.execute(stmt))


def judged_rubric_ids(store: Any) -> list[str]:
    """The rubric ids of the store's generation judgements, sorted: what ``--rubric`` of ``benger errors`` takes."""
    stmt = select(_J.rubric_id).where(_J.target_kind == "generation").distinct()
    with store.engine.connect() as connection:
        return sorted(str(rubric) for (rubric,) in connection.execute(stmt))

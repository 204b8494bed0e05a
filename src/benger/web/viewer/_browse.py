"""The Browse query of the viewer: generations and human solutions, filtered, counted and paged in SQL.

Browse lists solutions ordered by (corpus, task position, task, kind, system, id). Nothing is sorted or read
beyond what one page needs:

1. **per task**: the matching solutions are counted per task (``GROUP BY corpus, task_id``), generations from
   the covering index ``ix_generations_browse`` (migration ``0012_viewer_speed``) in its own order, so neither
   the table rows (whose texts make them ~4 kB) nor a sort are involved; a filter on the judgements (judge,
   score range, the flags ``unscored`` / ``unjudged``) reads the covering ``ix_judgements_browse`` (one judge)
   or ``ix_judgements_leaderboard`` (see :func:`_judged`);
2. **the page**: walking the tasks in their order (the tasks table, Bereich filter applied there) gives the total
   and the tasks the page falls on; only those tasks' keys are read, ordered in SQL and cut to the page;
3. **the rows**: for the (at most ``page_size``) keys, status, flags, token count and a 240-character excerpt by
   primary key, and their judge aggregates for those targets only.

The full-text filter (``q``) is :class:`benger.store._fulltext.TextSearch` (Unicode case-insensitive substring;
SQLite's FTS5 trigram index or PostgreSQL's folded column with its pg_trgm index, migration ``0014_fulltext``),
applied in each branch (the texts never enter a union).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, case, false, func, literal, or_, select, true, union_all

from benger.store._fulltext import TextSearch
from benger.store._models import GenerationRow, HumanSolutionRow, JudgementRow, TaskRow

PAGE_SIZE = 50
EXCERPT = 240
FLAGS = ("truncated", "refused", "failed", "excluded", "unscored", "unjudged")
KINDS = ("generation", "human_solution")


@dataclass
class BrowseFilter:
    """The Browse page's filters (all optional); ``system`` is a system name or ``human``."""

    corpus: str | None = None
    system: str | None = None
    judge: str | None = None
    area: str | None = None
    min_score: float | None = None
    max_score: float | None = None
    flag: str | None = None
    q: str | None = None
    page: int = 1

    def params(self, **override: Any) -> dict[str, str]:
        """The filter as query parameters (empty values left out)."""
        values = {**self.__dict__, **override}
        return {k: _text(v) for k, v in values.items() if v not in (None, "") and not (k == "page" and v == 1)}

    def needs_judgements(self) -> bool:
        """Whether the filter itself depends on the judge aggregates (else they are read for the page only)."""
        return bool(self.judge) or self.min_score is not None or self.max_score is not None or self.flag in _BY_JUDGE


_BY_JUDGE = ("unscored", "unjudged")


def _text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass
class BrowseRow:
    kind: str
    id: str
    corpus: str
    task_id: str
    system: str
    area: str
    status: str
    truncated: bool
    refused: bool
    output_tokens: int | None
    score: float | None
    n_judgements: int
    unscored: int
    excerpt: str


@dataclass
class BrowsePage:
    rows: list[BrowseRow]
    total: int
    page: int
    pages: int
    filter: BrowseFilter
    options: dict[str, list[str]] = field(default_factory=dict)


def _aggregates(judge: str | None, kind: str) -> Any:
    """Per judged target of ``kind``: the mean of the scored totals, the number of judgements and of unscored
    ones (``judge``: that judge's only), grouped by a prefix of ``ix_judgements_browse`` (a judge) or
    ``ix_judgements_leaderboard``."""
    j = JudgementRow
    stmt = select(
        j.target_id.label("target_id"),
        func.avg(case((j.status == "scored", j.total))).label("score"),
        func.count().label("n"),
        func.sum(case((j.status == "unscored", 1), else_=0)).label("unscored"),
    )
    stmt = stmt.where(j.target_kind == kind)
    if judge:
        stmt = stmt.where(j.judge == judge)
    return stmt.group_by(j.target_kind, j.target_id)


def _branches(
    f: BrowseFilter, hidden: set[str], corpora: frozenset[str] | None = None, search: TextSearch | None = None
) -> tuple[Any, Any]:
    """The generation and human-solution sides of the union as key columns, with every filter on the solution
    row itself (corpus, system, flag, full text) applied in its branch; ``corpora``: the readable corpora
    (None: all); ``search``: ``f.q``'s condition (required when ``f.q`` is set)."""
    g, h = GenerationRow, HumanSolutionRow
    gens = select(
        literal("generation").label("kind"),
        g.generation_id.label("id"),
        g.corpus.label("corpus"),
        g.task_id.label("task_id"),
        g.system.label("system"),
    )
    humans = select(
        literal("human_solution").label("kind"),
        h.solution_id.label("id"),
        h.corpus.label("corpus"),
        h.task_id.label("task_id"),
        literal("human").label("system"),
    )
    if hidden:
        humans = humans.where(h.solution_id.not_in(sorted(hidden)))
    if corpora is not None:
        gens, humans = gens.where(g.corpus.in_(sorted(corpora))), humans.where(h.corpus.in_(sorted(corpora)))
    if f.corpus:
        gens, humans = gens.where(g.corpus == f.corpus), humans.where(h.corpus == f.corpus)
    if f.q:
        if search is None or search.q != f.q:
            raise ValueError("a full-text filter needs its TextSearch (made on the connection)")
        gens = gens.where(search.clause("generation", g.text))
        humans = humans.where(search.clause("human_solution", h.text))
    if f.system == "human":
        gens = gens.where(false())
    elif f.system:
        gens, humans = gens.where(g.system == f.system), humans.where(false())
    if f.flag == "truncated":
        gens, humans = gens.where(g.truncated == true()), humans.where(false())  # a human solution never is
    elif f.flag == "refused":
        gens, humans = gens.where(g.refused == true()), humans.where(false())
    elif f.flag in ("failed", "excluded"):
        gens, humans = gens.where(g.status == f.flag), humans.where(false())  # a human solution is "ok"
    return gens, humans


def _judged(stmt: Any, f: BrowseFilter, kind: str, key: Any, correlated: bool = False) -> Any:
    """``stmt`` (one branch) restricted as ``f``'s judge filters ask. The judged targets that pass are one
    uncorrelated ``IN (... GROUP BY target_id HAVING ...)`` over the covering ``ix_judgements_browse`` /
    ``ix_judgements_leaderboard``, computed once (not a subquery per solution); "not judged" is a ``NOT EXISTS``
    per solution (an anti-join on PostgreSQL). ``correlated``: the same test as an ``EXISTS`` per solution (its
    judgements by the index), for a statement already cut to a few tasks (the page's keys): the uncorrelated
    form aggregated every judgement of the judge again there (0.1 s of a 64k PostgreSQL page)."""
    j = JudgementRow
    match = [j.target_kind == kind, *([j.judge == f.judge] if f.judge else [])]
    if f.flag == "unjudged":  # no judgement at all (by this judge): no score either
        if f.min_score is not None or f.max_score is not None:
            return stmt.where(false())
        return stmt.where(~select(literal(1)).select_from(j).where(*match, j.target_id == key).exists())
    score = func.avg(case((j.status == "scored", j.total)))
    having = [func.count() > 0]
    if f.min_score is not None:
        having.append(score >= f.min_score)
    if f.max_score is not None:
        having.append(score <= f.max_score)
    if f.flag == "unscored":
        having.append(func.sum(case((j.status == "unscored", 1), else_=0)) > 0)
    if correlated:
        one = select(literal(1)).select_from(j).where(*match, j.target_id == key).group_by(j.target_id)
        return stmt.where(one.having(and_(*having)).exists())
    passing = select(j.target_id).where(*match).group_by(j.target_id).having(and_(*having))
    return stmt.where(key.in_(passing))


def _filtered(
    f: BrowseFilter,
    hidden: set[str],
    corpora: frozenset[str] | None = None,
    search: TextSearch | None = None,
    correlated: bool = False,
) -> list[tuple[Any, Any, Any]]:
    """Per branch (generations, human solutions): the filtered statement and its corpus and task columns
    (``correlated``: see :func:`_judged`)."""
    gens, humans = _branches(f, hidden, corpora, search)
    out = []
    for stmt, row, kind, key in (
        (gens, GenerationRow, "generation", GenerationRow.generation_id),
        (humans, HumanSolutionRow, "human_solution", HumanSolutionRow.solution_id),
    ):
        if f.needs_judgements():
            stmt = _judged(stmt, f, kind, key, correlated)
        out.append((stmt, row.corpus, row.task_id))
    return out


def _per_task(connection: Any, branches: list[tuple[Any, Any, Any]]) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for stmt, corpus, task_id in branches:
        grouped = stmt.with_only_columns(corpus, task_id, func.count()).group_by(corpus, task_id)
        for c, t, n in connection.execute(grouped):
            counts[(c, t)] = counts.get((c, t), 0) + int(n)
    return counts


def _tasks(connection: Any, f: BrowseFilter) -> list[tuple[str, str, str]]:
    """(corpus, task id, Bereich) of every task in Browse's order, within the corpus and Bereich filters."""
    t = TaskRow
    stmt = select(t.corpus, t.task_id, t.area).order_by(t.corpus, t.position, t.task_id)
    if f.corpus:
        stmt = stmt.where(t.corpus == f.corpus)
    if f.area:
        stmt = stmt.where(t.area == f.area)
    return [(c, i, a) for c, i, a in connection.execute(stmt)]


def browse(
    connection: Any,
    f: BrowseFilter,
    hidden: set[str],
    page_size: int = PAGE_SIZE,
    corpora: frozenset[str] | None = None,
) -> BrowsePage:
    """One Browse page of ``f`` (its page clamped to the pages there are; ``f.page`` is set to it); ``hidden``:
    human solutions left out (those of studies hidden from the principal); ``corpora``: only solutions of these
    corpora (an organisation member's, ``Access.corpora``; None: every corpus)."""
    search = TextSearch(connection, f.q) if f.q else None
    branches = _filtered(f, hidden, corpora, search)
    counts = _per_task(connection, branches)
    tasks = [(c, i, a, counts[(c, i)]) for c, i, a in _tasks(connection, f) if counts.get((c, i))]
    total = sum(n for *_, n in tasks)
    pages = max(1, math.ceil(total / page_size))
    page = min(max(1, f.page), pages)
    start, seen, skip = (page - 1) * page_size, 0, 0
    chosen: list[tuple[str, str, str]] = []
    for c, i, a, n in tasks:  # the tasks this page falls on, and how many of the first one's rows come before it
        if seen + n > start and seen < start + page_size:
            if not chosen:
                skip = start - seen
            chosen.append((c, i, a))
        elif chosen:
            break
        seen += n
    keyed = _filtered(f, hidden, corpora, search, correlated=True) if f.needs_judgements() else branches
    found = _page_keys(connection, keyed, chosen, skip, page_size)
    areas = {(c, i): a for c, i, a in chosen}
    details = _details(connection, [(k, sid) for k, sid, *_ in found], f.judge)
    rows = []
    for kind, sid, corpus, task_id, system in found:
        status, truncated, refused, tokens, excerpt, score, n, unscored = details[(kind, sid)]
        rows.append(
            BrowseRow(
                kind=kind,
                id=sid,
                corpus=corpus,
                task_id=task_id,
                system=system,
                area=areas[(corpus, task_id)],
                status=status,
                truncated=bool(truncated),
                refused=bool(refused),
                output_tokens=tokens,
                score=score,
                n_judgements=int(n),
                unscored=int(unscored),
                excerpt=" ".join(str(excerpt or "").split()),
            )
        )
    f.page = page
    return BrowsePage(rows, total, page, pages, f)


def _page_keys(
    connection: Any, branches: list[tuple[Any, Any, Any]], chosen: list[tuple[str, str, str]], skip: int, size: int
) -> list[tuple[str, str, str, str, str]]:
    """(kind, id, corpus, task id, system) of the chosen tasks' solutions in Browse's order, ``skip`` rows cut."""
    if not chosen:
        return []
    by_corpus: dict[str, list[str]] = {}
    for c, i, _ in chosen:
        by_corpus.setdefault(c, []).append(i)
    position = {(c, i): k for k, (c, i, _) in enumerate(chosen)}
    parts = []
    for stmt, corpus, task_id in branches:
        parts.append(stmt.where(or_(*(and_(corpus == c, task_id.in_(ids)) for c, ids in by_corpus.items()))))
    u = union_all(*parts).subquery("u")
    ordered = select(u.c.kind, u.c.id, u.c.corpus, u.c.task_id, u.c.system).order_by(
        u.c.corpus, u.c.task_id, u.c.kind, u.c.system, u.c.id
    )
    rows: list[tuple[str, str, str, str, str]] = [tuple(r) for r in connection.execute(ordered)]
    rows.sort(key=lambda r: position[(r[2], r[3])])  # stable: the tasks' order, SQL's order within a task
    return rows[skip : skip + size]


def _details(connection: Any, keys: list[tuple[str, str]], judge: str | None) -> dict[tuple[str, str], tuple[Any, ...]]:
    """Per page key: (status, truncated, refused, output tokens, excerpt, score, judgements, unscored)."""
    g, h = GenerationRow, HumanSolutionRow
    out: dict[tuple[str, str], tuple[Any, ...]] = {}
    gids = [i for k, i in keys if k == "generation"]
    hids = [i for k, i in keys if k == "human_solution"]
    if gids:
        excerpt = func.substr(g.text, 1, EXCERPT)
        stmt = select(g.generation_id, g.status, g.truncated, g.refused, g.output_tokens, excerpt)
        for gid, *values in connection.execute(stmt.where(g.generation_id.in_(gids))):
            out[("generation", gid)] = tuple(values)
    if hids:
        stmt = select(h.solution_id, func.substr(h.text, 1, EXCERPT)).where(h.solution_id.in_(hids))
        for sid, text in connection.execute(stmt):
            out[("human_solution", sid)] = ("ok", False, False, None, text)
    judged: dict[tuple[str, str], tuple[Any, ...]] = {}
    for kind, ids in (("generation", gids), ("human_solution", hids)):
        if ids:
            stmt = _aggregates(judge, kind).where(JudgementRow.target_id.in_(ids))
            judged |= {(kind, r[0]): (r[1], r[2], r[3]) for r in connection.execute(stmt)}
    return {key: (*out[key], *judged.get(key, (None, 0, 0))) for key in keys}

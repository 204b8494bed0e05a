"""The Browse query of the viewer: generations and human solutions, filtered, counted and paged in SQL.

Two steps, so that no request reads more than the page's wide rows:

1. **keys**: the union of generations and human solutions as narrow key columns (kind, id, corpus, task, system),
   joined with the tasks (Bereich, position), filtered, counted and ordered by (corpus, task position, task,
   kind, system, id) with ``LIMIT``/``OFFSET``. The generation side reads the covering index
   ``ix_generations_browse`` (migration ``0012_viewer_speed``), never the table rows whose texts make them
   ~4 kB; the per-target judge aggregates join only when a filter needs them (judge, score range, the flags
   ``unscored`` / ``unjudged``), grouped by (target_kind, target_id), a prefix of the covering
   ``ix_judgements_leaderboard``.
2. **the page**: for the (at most ``page_size``) keys found, their status, flags, token count and a 240-character
   excerpt by primary key, and their judge aggregates for those targets only.

The full-text filter (``q``) is a case-insensitive ``LIKE`` over the texts, applied in each branch of the union
(the texts never enter it); it reads every text once for the count and once for the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, case, false, func, literal, or_, select, true, tuple_, union_all

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


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _aggregates(judge: str | None) -> Any:
    """Per judged target (kind, id): the mean of the scored totals, the number of judgements and of unscored
    ones (``judge``: that judge's only), grouped by a prefix of ``ix_judgements_leaderboard``."""
    j = JudgementRow
    stmt = select(
        j.target_kind.label("target_kind"),
        j.target_id.label("target_id"),
        func.avg(case((j.status == "scored", j.total))).label("score"),
        func.count().label("n"),
        func.sum(case((j.status == "unscored", 1), else_=0)).label("unscored"),
    )
    if judge:
        stmt = stmt.where(j.judge == judge)
    return stmt.group_by(j.target_kind, j.target_id)


def _branches(f: BrowseFilter, hidden: set[str]) -> tuple[Any, Any]:
    """The generation and human-solution sides of the union as key columns, with every filter on the solution
    row itself (corpus, system, flag, full text) applied in its branch."""
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
    if f.corpus:
        gens, humans = gens.where(g.corpus == f.corpus), humans.where(h.corpus == f.corpus)
    if f.q:
        pattern = f"%{_like(f.q)}%"
        gens = gens.where(g.text.ilike(pattern, escape="\\"))
        humans = humans.where(h.text.ilike(pattern, escape="\\"))
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


def _keys(f: BrowseFilter, hidden: set[str]) -> tuple[Any, tuple[Any, ...]]:
    """The filtered keys (kind, id, corpus, task_id, system, area) and their order."""
    t = TaskRow
    u = union_all(*_branches(f, hidden)).subquery("u")
    stmt = select(u.c.kind, u.c.id, u.c.corpus, u.c.task_id, u.c.system, t.area).join(
        t, and_(t.corpus == u.c.corpus, t.task_id == u.c.task_id)
    )
    if f.area:
        stmt = stmt.where(t.area == f.area)
    if f.needs_judgements():
        m = _aggregates(f.judge).subquery("m")
        on = and_(m.c.target_kind == u.c.kind, m.c.target_id == u.c.id)
        if f.flag == "unjudged":  # no judgement at all (by this judge): no score either
            stmt = stmt.outerjoin(m, on).where(or_(m.c.n.is_(None), m.c.n == 0))
        else:
            stmt = stmt.join(m, on).where(m.c.n > 0)
        if f.min_score is not None:
            stmt = stmt.where(m.c.score >= f.min_score)
        if f.max_score is not None:
            stmt = stmt.where(m.c.score <= f.max_score)
        if f.flag == "unscored":
            stmt = stmt.where(m.c.unscored > 0)
    return stmt, (u.c.corpus, t.position, u.c.task_id, u.c.kind, u.c.system, u.c.id)


def browse(session: Any, f: BrowseFilter, hidden: set[str], page_size: int = PAGE_SIZE) -> BrowsePage:
    """One Browse page of ``f`` (its page clamped to the pages there are; ``f.page`` is set to it); ``hidden``:
    human solutions left out (those of studies hidden from the principal)."""
    keys, order = _keys(f, hidden)
    total = session.scalar(select(func.count()).select_from(keys.subquery())) or 0
    pages = max(1, math.ceil(total / page_size))
    page = min(max(1, f.page), pages)
    found = session.execute(keys.order_by(*order).limit(page_size).offset((page - 1) * page_size)).all()
    details = _details(session, [(r[0], r[1]) for r in found], f.judge)
    rows = []
    for kind, sid, corpus, task_id, system, area in found:
        status, truncated, refused, tokens, excerpt, score, n, unscored = details[(kind, sid)]
        rows.append(
            BrowseRow(
                kind=kind,
                id=sid,
                corpus=corpus,
                task_id=task_id,
                system=system,
                area=area,
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


def _details(session: Any, keys: list[tuple[str, str]], judge: str | None) -> dict[tuple[str, str], tuple[Any, ...]]:
    """Per page key: (status, truncated, refused, output tokens, excerpt, score, judgements, unscored)."""
    g, h = GenerationRow, HumanSolutionRow
    out: dict[tuple[str, str], tuple[Any, ...]] = {}
    gids = [i for k, i in keys if k == "generation"]
    hids = [i for k, i in keys if k == "human_solution"]
    if gids:
        excerpt = func.substr(g.text, 1, EXCERPT)
        stmt = select(g.generation_id, g.status, g.truncated, g.refused, g.output_tokens, excerpt)
        for gid, *values in session.execute(stmt.where(g.generation_id.in_(gids))):
            out[("generation", gid)] = tuple(values)
    if hids:
        stmt = select(h.solution_id, func.substr(h.text, 1, EXCERPT)).where(h.solution_id.in_(hids))
        for sid, text in session.execute(stmt):
            out[("human_solution", sid)] = ("ok", False, False, None, text)
    judged: dict[tuple[str, str], tuple[Any, ...]] = {}
    if keys:
        j = JudgementRow
        stmt = _aggregates(judge).where(tuple_(j.target_kind, j.target_id).in_(keys))
        judged = {(r[0], r[1]): (r[2], r[3], r[4]) for r in session.execute(stmt)}
    return {key: (*out[key], *judged.get(key, (None, 0, 0))) for key in keys}

"""What the viewer reads from a store, always through an :class:`~benger.web.access.Access` (its hidden studies).

Browse is one SQL statement over the union of generations and human solutions, joined with the tasks (Bereich)
and the per-target judge means, filtered, counted and paged in the database (``LIMIT``/``OFFSET``); only the
page's rows and a 240-character excerpt reach Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, and_, case, cast, false, func, literal, null, or_, select, true, union_all

from benger.schema import FalloesungTask, Generation, HumanReview, HumanSolution, Judgement, PrincipleItem
from benger.store._models import GenerationRow, HumanReviewRow, HumanSolutionRow, JudgementRow, TaskRow
from benger.web.access import Access

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


@dataclass
class SolutionRecord:
    """One solution with what the solution page shows: the task, every judgement, the visible reviews."""

    kind: str
    id: str
    system: str
    text: str
    task: FalloesungTask | PrincipleItem | None
    generation: Generation | None
    human: HumanSolution | None
    judgements: list[Judgement]
    reviews: list[HumanReview]


class ResultsReader:
    """The read queries of the viewer; every one applies the access's hidden studies."""

    def __init__(self, access: Access) -> None:
        self.access = access
        self.store = access.store

    # -- hidden study data ------------------------------------------------------------------------------
    def hidden_solution_ids(self) -> set[str]:
        if not self.access.hidden_studies():
            return set()
        with self.store.session() as session:
            rows = session.execute(select(HumanSolutionRow.solution_id, HumanSolutionRow.meta)).all()
        return {sid for sid, meta in rows if self.access.hides(meta)}

    def _hidden_review_ids(self) -> set[str]:
        if not self.access.hidden_studies():
            return set()
        with self.store.session() as session:
            rows = session.execute(select(HumanReviewRow.review_id, HumanReviewRow.meta)).all()
        return {rid for rid, meta in rows if self.access.hides(meta)}

    # -- browse -------------------------------------------------------------------------------------------
    def options(self) -> dict[str, list[str]]:
        """The values the Browse filters offer: corpora, systems (and ``human``), judges, Bereiche."""
        with self.store.session() as session:
            corpora = list(session.scalars(select(TaskRow.corpus).distinct().order_by(TaskRow.corpus)))
            systems = list(session.scalars(select(GenerationRow.system).distinct().order_by(GenerationRow.system)))
            humans = session.scalar(select(func.count()).select_from(HumanSolutionRow)) or 0
            judges = list(session.scalars(select(JudgementRow.judge).distinct().order_by(JudgementRow.judge)))
            areas = list(session.scalars(select(TaskRow.area).distinct().order_by(TaskRow.area)))
        return {"corpus": corpora, "system": systems + (["human"] if humans else []), "judge": judges, "area": areas}

    def browse(self, f: BrowseFilter, page_size: int = PAGE_SIZE) -> BrowsePage:
        g, h, j, t = GenerationRow, HumanSolutionRow, JudgementRow, TaskRow
        gens = select(
            literal("generation").label("kind"),
            g.generation_id.label("id"),
            g.corpus.label("corpus"),
            g.task_id.label("task_id"),
            g.system.label("system"),
            g.status.label("status"),
            g.truncated.label("truncated"),
            g.refused.label("refused"),
            g.output_tokens.label("output_tokens"),
        )
        hidden = self.hidden_solution_ids()
        humans = select(
            literal("human_solution").label("kind"),
            h.solution_id.label("id"),
            h.corpus.label("corpus"),
            h.task_id.label("task_id"),
            literal("human").label("system"),
            literal("ok").label("status"),
            false().label("truncated"),
            false().label("refused"),
            cast(null(), Integer).label("output_tokens"),
        )
        if hidden:
            humans = humans.where(h.solution_id.not_in(sorted(hidden)))
        if f.q:  # in each branch: the texts never enter the union (its sort carries excerpts only)
            pattern = f"%{_like(f.q)}%"
            gens = gens.where(g.text.ilike(pattern, escape="\\"))
            humans = humans.where(h.text.ilike(pattern, escape="\\"))
        if f.system == "human":
            gens = gens.where(false())
        elif f.system:
            gens = gens.where(g.system == f.system)
            humans = humans.where(false())
        u = union_all(gens, humans).subquery("u")
        scored = j.status == "scored"
        means = select(
            j.target_id.label("target_id"),
            func.avg(case((scored, j.total))).label("score"),
            func.count().label("n"),
            func.sum(case((j.status == "unscored", 1), else_=0)).label("unscored"),
        )
        if f.judge:
            means = means.where(j.judge == f.judge)
        m = means.group_by(j.target_id).subquery("m")
        where = []
        if f.corpus:
            where.append(u.c.corpus == f.corpus)
        if f.area:
            where.append(t.area == f.area)
        if f.judge:
            where.append(m.c.n > 0)
        if f.min_score is not None:
            where.append(m.c.score >= f.min_score)
        if f.max_score is not None:
            where.append(m.c.score <= f.max_score)
        where += _flag(f.flag, u, m)
        base = (
            select(
                u.c.kind,
                u.c.id,
                u.c.corpus,
                u.c.task_id,
                u.c.system,
                t.area,
                u.c.status,
                u.c.truncated,
                u.c.refused,
                u.c.output_tokens,
                m.c.score,
                func.coalesce(m.c.n, 0),
                func.coalesce(m.c.unscored, 0),
            )
            .join(t, and_(t.corpus == u.c.corpus, t.task_id == u.c.task_id))
            .outerjoin(m, m.c.target_id == u.c.id)
            .where(and_(true(), *where))
        )
        with self.store.session() as session:
            total = session.scalar(select(func.count()).select_from(base.subquery())) or 0
            pages = max(1, math.ceil(total / page_size))
            page = min(max(1, f.page), pages)
            order = (u.c.corpus, t.position, u.c.task_id, u.c.kind, u.c.system, u.c.id)
            result = session.execute(base.order_by(*order).limit(page_size).offset((page - 1) * page_size)).all()
            excerpts = self._excerpts(session, [(r[0], r[1]) for r in result])  # texts of the page's rows only
        rows = [
            BrowseRow(
                kind=r[0],
                id=r[1],
                corpus=r[2],
                task_id=r[3],
                system=r[4],
                area=r[5],
                status=r[6],
                truncated=bool(r[7]),
                refused=bool(r[8]),
                output_tokens=r[9],
                score=r[10],
                n_judgements=int(r[11]),
                unscored=int(r[12]),
                excerpt=" ".join(excerpts.get(r[1], "").split()),
            )
            for r in result
        ]
        f.page = page
        return BrowsePage(rows, total, page, pages, f)

    @staticmethod
    def _excerpts(session: Any, keys: list[tuple[str, str]]) -> dict[str, str]:
        gids = [i for k, i in keys if k == "generation"]
        hids = [i for k, i in keys if k == "human_solution"]
        out: dict[str, str] = {}
        for column, key, ids in (
            (GenerationRow.text, GenerationRow.generation_id, gids),
            (HumanSolutionRow.text, HumanSolutionRow.solution_id, hids),
        ):
            if ids:
                rows = session.execute(select(key, func.substr(column, 1, EXCERPT)).where(key.in_(ids))).all()
                out.update({str(i): str(text or "") for i, text in rows})
        return out

    # -- one solution --------------------------------------------------------------------------------------
    def solution(self, kind: str, solution_id: str) -> SolutionRecord | None:
        """The solution ``kind``/``solution_id`` with its task, judgements and visible reviews; None when the
        store has none (or it belongs to a study hidden from this principal)."""
        gen: Generation | None = None
        human: HumanSolution | None = None
        if kind == "generation":
            gen = self.store.get_generation_by_id(solution_id)
            if gen is None:
                return None
            text, system, task_id, corpus = gen.text, gen.system, gen.task_id, gen.corpus
        elif kind == "human_solution":
            human = self.store.get_human_solution(solution_id)
            if human is None or self.access.hides(human.meta):
                return None
            text, system, task_id, corpus = human.text, f"human ({human.condition})", human.task_id, human.corpus
        else:
            return None
        judgements = [j for j in self.store.judgements(target_ids=[solution_id]) if j.target_kind == kind]
        reviews = [r for r in self.store.human_reviews(target_id=solution_id) if not self.access.hides(r.meta)]
        return SolutionRecord(
            kind,
            solution_id,
            system,
            text,
            self.store.get_task(task_id, corpus),
            gen,
            human,
            judgements,
            [r for r in reviews if r.target_kind == kind],
        )

    def task_solutions(self, corpus: str, task_id: str) -> list[tuple[str, str, str]]:
        """(kind, id, label) of every visible solution of one task, generations first."""
        hidden = self.hidden_solution_ids()
        with self.store.session() as session:
            gens = session.execute(
                select(GenerationRow.generation_id, GenerationRow.system, GenerationRow.run_index, GenerationRow.status)
                .where(GenerationRow.corpus == corpus, GenerationRow.task_id == task_id)
                .order_by(GenerationRow.system, GenerationRow.run_index, GenerationRow.generation_id)
            ).all()
            humans = session.execute(
                select(HumanSolutionRow.solution_id, HumanSolutionRow.condition)
                .where(HumanSolutionRow.corpus == corpus, HumanSolutionRow.task_id == task_id)
                .order_by(HumanSolutionRow.solution_id)
            ).all()
        out = [
            ("generation", gid, f"{system}" + (f" #{run}" if run else "") + ("" if status == "ok" else f" ({status})"))
            for gid, system, run, status in gens
        ]
        out += [("human_solution", sid, f"human ({cond}) {sid}") for sid, cond in humans if sid not in hidden]
        return out

    def visible_reviews(self) -> list[HumanReview]:
        hidden = self._hidden_review_ids()
        return [r for r in self.store.human_reviews() if r.review_id not in hidden]


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _flag(flag: str | None, u: Any, m: Any) -> list[Any]:
    if flag == "truncated":
        return [u.c.truncated == true()]
    if flag == "refused":
        return [u.c.refused == true()]
    if flag in ("failed", "excluded"):
        return [u.c.status == flag]
    if flag == "unscored":
        return [m.c.unscored > 0]
    if flag == "unjudged":
        return [or_(m.c.n.is_(None), m.c.n == 0)]
    return []

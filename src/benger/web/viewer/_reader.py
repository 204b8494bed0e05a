"""What the viewer reads from a store, always through an :class:`~benger.web._policy.Access` (its hidden studies).

Browse is :func:`benger.web.viewer._browse.browse`: filtered, counted and paged in the database; only the page's
rows and a 240-character excerpt reach Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from benger.schema import FalloesungTask, Generation, HumanReview, HumanSolution, Judgement, PrincipleItem
from benger.store._models import GenerationRow, HumanReviewRow, HumanSolutionRow, JudgementRow, TaskRow
from benger.web._policy import Access
from benger.web.viewer._browse import EXCERPT, FLAGS, KINDS, PAGE_SIZE, BrowseFilter, BrowsePage, BrowseRow, browse

__all__ = ["EXCERPT", "FLAGS", "KINDS", "PAGE_SIZE", "BrowseFilter", "BrowsePage", "BrowseRow", "ResultsReader"]


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
    """The read queries of the viewer; every one applies the access's hidden studies and readable corpora."""

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
        t, g, h, j = TaskRow, GenerationRow, HumanSolutionRow, JudgementRow
        readable = sorted(self.access.corpora) if self.access.corpora is not None else None

        def mine(stmt: Any, column: Any) -> Any:  # the readable corpora only
            return stmt if readable is None else stmt.where(column.in_(readable))

        targets = mine(select(g.generation_id), g.corpus).union(mine(select(h.solution_id), h.corpus))
        judges_q = select(j.judge).distinct().order_by(j.judge)
        with self.store.session() as session:
            corpora = list(session.scalars(mine(select(t.corpus).distinct().order_by(t.corpus), t.corpus)))
            systems = list(session.scalars(mine(select(g.system).distinct().order_by(g.system), g.corpus)))
            humans = session.scalar(mine(select(func.count()).select_from(h), h.corpus)) or 0
            judges = list(session.scalars(judges_q if readable is None else judges_q.where(j.target_id.in_(targets))))
            areas = list(session.scalars(mine(select(t.area).distinct().order_by(t.area), t.corpus)))
        return {"corpus": corpora, "system": systems + (["human"] if humans else []), "judge": judges, "area": areas}

    def browse(self, f: BrowseFilter, page_size: int = PAGE_SIZE) -> BrowsePage:
        """One Browse page of ``f`` over what this principal may see (``f.page`` is clamped to the pages)."""
        hidden = self.hidden_solution_ids()
        with self.store.engine.connect() as connection:  # Core rows, a read (no ORM session, no write lock)
            return browse(connection, f, hidden, page_size, self.access.corpora)

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
        if not self.access.sees(corpus):  # another organisation's solution: as if there were none
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
        if not self.access.sees(corpus):
            return []
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
        """The reviews of solutions of readable corpora, less those of hidden studies."""
        hidden = self._hidden_review_ids()
        reviews = [r for r in self.store.human_reviews() if r.review_id not in hidden]
        if self.access.corpora is None:
            return reviews
        names = sorted(self.access.corpora)
        with self.store.session() as session:
            targets = set(session.scalars(select(GenerationRow.generation_id).where(GenerationRow.corpus.in_(names))))
            targets |= set(
                session.scalars(select(HumanSolutionRow.solution_id).where(HumanSolutionRow.corpus.in_(names)))
            )
        return [r for r in reviews if r.target_id in targets]

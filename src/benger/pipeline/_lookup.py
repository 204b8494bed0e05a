"""Look up judge targets by id (the Store's public API finds generations by their unit key only)."""

from __future__ import annotations

from typing import Any

from benger.schema import Generation, HumanSolution


def get_generation_by_id(store: Any, generation_id: str) -> Generation | None:
    """The stored generation with this id, or None."""
    from benger.store._convert import generation
    from benger.store._models import GenerationRow

    with store.session() as session:
        row = session.get(GenerationRow, generation_id)
        return generation(row) if row is not None else None


def get_human_solution(store: Any, solution_id: str) -> HumanSolution | None:
    """The stored human solution with this id, or None."""
    from benger.store._convert import human_solution
    from benger.store._models import HumanSolutionRow

    with store.session() as session:
        row = session.get(HumanSolutionRow, solution_id)
        return human_solution(row) if row is not None else None

"""Look up judge targets by id: thin wrappers over ``Store.get_generation_by_id`` / ``Store.get_human_solution``."""

from __future__ import annotations

from typing import Any, cast

from benger.schema import Generation, HumanSolution


def get_generation_by_id(store: Any, generation_id: str) -> Generation | None:
    """The stored generation with this id, or None."""
    return cast(Generation | None, store.get_generation_by_id(generation_id))


def get_human_solution(store: Any, solution_id: str) -> HumanSolution | None:
    """The stored human solution with this id, or None."""
    return cast(HumanSolution | None, store.get_human_solution(solution_id))

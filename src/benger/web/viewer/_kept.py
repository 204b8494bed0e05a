"""The viewer's pages kept per store content (:mod:`benger.web.viewer._cache`): the leaderboard and the judge
validation blocks, for one principal's :class:`~benger.web._policy.Access`, and the systems' display names.

Nothing of the web stack (FastAPI, Starlette, Jinja) nor the study package is imported here: ``benger view``
computes the leaderboard in a thread (:mod:`benger.web.viewer._warm`) while the main thread imports FastAPI and
uvicorn, and the router (``_router``) serves what this module kept.
"""

from __future__ import annotations

from typing import Any

from benger.web._policy import Access
from benger.web.viewer import _pages
from benger.web.viewer._cache import cache_of
from benger.web.viewer._names import system_names
from benger.web.viewer._reader import ResultsReader


def validation_model(access: Access) -> list[dict[str, Any]]:
    """The validation blocks this principal sees, computed once per store content."""
    key = ("validation", access.corpora, access.hidden_studies())
    return cache_of(access.store).get(key, lambda: _pages.validation_blocks(access.store, ResultsReader(access)))


def leaderboard_model(access: Access) -> _pages.Page:
    """The leaderboard page this principal sees, computed once per store content."""

    def compute() -> _pages.Page:
        return _pages.leaderboard(access.store, _pages.judge_statuses(validation_model(access)), access.corpora)

    return cache_of(access.store).get(("leaderboard", access.corpora, access.hidden_studies()), compute)


def system_names_model(access: Access) -> dict[str, str]:
    """The store's system display names (``_names.system_names``), read once per store content."""
    return cache_of(access.store).get(("systems",), lambda: system_names(access.store))

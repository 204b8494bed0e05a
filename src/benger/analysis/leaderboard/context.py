"""What one leaderboard is computed over and how: one typed context instead of long parameter lists.

:class:`LeaderboardContext` holds the store scope (corpora, system names, judge names, rubric ids), the CI
settings (:class:`CiSettings`), the metric-signature choice and the two aggregation switches (pooled judges,
superseded generations). Every entry point (:func:`benger.analysis.leaderboard.leaderboard`,
:func:`~benger.analysis.leaderboard.leaderboard_from_store`, the CLI, ``benger run``, ``benger analyze``) builds one
and passes it down; :meth:`LeaderboardContext.of` accepts the flat keyword spelling
(``ci="normal", seed=1, n_resamples=500``) that the functions take.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from benger.analysis.leaderboard.model import CiKind

_CI_FIELDS = ("confidence", "n_resamples", "seed", "unit")


class CiSettings(BaseModel):
    """How a row's interval is computed: ``method`` (see :data:`CiKind`), level, resamples and seed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    method: CiKind = "auto"
    #: ``task``: a row with repetitions is resampled by task (its repetitions and judge repeats nested);
    #: ``generation``: every generation is a unit (the paper's rule, for reproducing its tables)
    unit: Literal["task", "generation"] = "task"
    confidence: float = Field(0.95, gt=0.0, lt=1.0)
    n_resamples: int = Field(2000, ge=1)
    seed: int = 0


def _tuple(value: Sequence[str] | None) -> tuple[str, ...] | None:
    return tuple(value) if value else None


class LeaderboardContext(BaseModel):
    """The scope and settings of one leaderboard.

    ``corpora`` / ``systems`` / ``judges`` / ``rubrics``: keep only those corpus names, system names, judge names
    and rubric ids (None: all). ``metric_signatures``: metric -> the signature to show (default: each metric's most
    frequent one). ``pool_judges``: one pooled ranking group instead of one per judge configuration.
    ``include_superseded``: count the superseded generations in their system's current row (the paper's Table 1).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    corpora: tuple[str, ...] | None = None
    systems: tuple[str, ...] | None = None
    judges: tuple[str, ...] | None = None
    rubrics: tuple[str, ...] | None = None
    ci: CiSettings = CiSettings()
    metric_signatures: dict[str, str] | None = None
    pool_judges: bool = False
    include_superseded: bool = True

    @field_validator("corpora", "systems", "judges", "rubrics", mode="before")
    @classmethod
    def _empty_is_all(cls, value: Sequence[str] | None) -> tuple[str, ...] | None:
        return _tuple(value)

    @classmethod
    def of(cls, context: LeaderboardContext | None = None, **options: Any) -> LeaderboardContext:
        """``context`` (default: the defaults) updated by flat keyword ``options``: the context's fields, with
        ``ci`` given as a method name (or :class:`CiSettings`) and ``confidence``, ``n_resamples``, ``seed``,
        ``unit`` as CI settings. An unknown option raises ``TypeError`` naming it."""
        base = context or cls()
        ci_options: dict[str, Any] = {k: options.pop(k) for k in _CI_FIELDS if k in options}
        method = options.pop("ci", None)
        if isinstance(method, CiSettings):
            ci = method.model_copy(update=ci_options)
        else:
            ci = base.ci.model_copy(update={**({"method": method} if method is not None else {}), **ci_options})
            ci = CiSettings.model_validate(ci.model_dump())
        unknown = sorted(set(options) - set(cls.model_fields))
        if unknown:
            raise TypeError(f"unknown leaderboard option(s): {', '.join(unknown)}")
        return cls.model_validate({**base.model_dump(), **options, "ci": ci})

    def store_scope(self) -> dict[str, Any]:
        """The store queries' filters: ``corpora``, ``systems`` (lists or None)."""
        return {"corpora": _list(self.corpora), "systems": _list(self.systems)}

    def keeps_rubric(self, rubric: str) -> bool:
        return self.rubrics is None or rubric in self.rubrics

    def left_out(self, validation_only: Iterable[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
        """The validation-only judge configurations (judge, judge config hash, rubric id) that make no rows: all
        of them but those of a judge that ``judges`` names; none when judges are pooled (``pool_judges`` pools
        every judge: a validation-only judge makes no row of its own there, its scores join the pooled means of
        the generations it judged)."""
        if self.pool_judges:
            return set()
        return {k for k in validation_only if not self.judges or k[0] not in self.judges}


def _list(value: tuple[str, ...] | None) -> list[str] | None:
    return list(value) if value else None

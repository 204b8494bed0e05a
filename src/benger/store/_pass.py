"""The pass value of a stored judgement, derived where the judgement was stored without one (issue 24).

The built-in Grundprinzipien rubric had no pass rule before issue 24, so its judgements stored before then carry
``passed`` NULL; its rule now is raw >= 50 of 100 (the paper's Pass column for the short items, the rubric's
``pass_total``), the same for new judgements. The store applies that rule when it reads such a row, in this one
module: :func:`pass_value` for a row read into a record, :func:`pass_column` for the SQL aggregates. The store sits
below ``benger.judge``, so the marks are listed here by rubric id; ``tests/store/test_derived_pass.py`` ties each
entry to the judge's rubric (its id and ``effective_pass_total``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, case, func

#: rubric id -> the raw total at which one of its judgements stored without a pass value passes. The built-in
#: Grundprinzipien rubric under its content-hashed id and under the bare id the released judgements carry.
DERIVED_PASS_MARKS: dict[str, float] = {"grundprinzipien@1+0a6137a3": 50.0, "grundprinzipien@1": 50.0}
#: The tolerance of ``benger.judge.Rubric.passed`` (a total on the rubric's half-point grid never needs it).
_TOLERANCE = 1e-9


def pass_value(rubric_id: str, status: str, total: float | None, passed: bool | None) -> bool | None:
    """``passed`` as stored, or for a scored judgement stored without one under a rubric of
    :data:`DERIVED_PASS_MARKS`, whether its total reaches the mark; None where there is no pass rule."""
    if passed is not None or status != "scored" or total is None:
        return passed
    mark = DERIVED_PASS_MARKS.get(rubric_id)
    return None if mark is None else total >= mark - _TOLERANCE


def pass_column(judgements: Any) -> Any:
    """The SQL form of :func:`pass_value` over a judgements table (``judgements`` is its column collection): the
    stored ``passed``, else ``total >= mark`` for a rubric with a derived mark, else NULL. Unscored rows have no
    total, so they stay NULL."""
    j = judgements
    derived = case(
        *(
            (and_(j.rubric_id == rubric_id, j.total.is_not(None)), j.total >= mark - _TOLERANCE)
            for rubric_id, mark in sorted(DERIVED_PASS_MARKS.items())
        ),
        else_=None,
    )
    return func.coalesce(j.passed, derived)

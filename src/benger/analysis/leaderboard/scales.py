"""The scale of the leaderboard's means: each rubric's total, so that a mean of 27 reads "of 30" under a 30-point
rubric and "of 100" under the paper's (issue 31).

:func:`rubric_totals` finds the totals (a task's own Bewertungsbogen, the registry, the rubrics a store keeps since
migration 0015); :func:`with_scales` names them on a finished board: ``Leaderboard.rubric_scales`` (rubric id ->
total) and each row's ``scale`` (:func:`benger.analysis._percent.scale_text`), which the provenance line of its
judge group repeats. A rubric neither holds keeps no total, and its scale says so (never the paper's 0-100).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benger.analysis._percent import scale_text
from benger.errors import BengerError

if TYPE_CHECKING:  # render imports this module, and imports no model module (the model's exports call it)
    from benger.analysis.leaderboard.model import Leaderboard
    from benger.schema import FalloesungTask, PrincipleItem


def rubric_totals(
    rubric_ids: Iterable[str], store: Any = None, tasks: Iterable[FalloesungTask | PrincipleItem] = ()
) -> dict[str, float]:
    """Rubric id -> total for those of ``rubric_ids`` that a task's own Bewertungsbogen (``tasks``), the registry
    or ``store`` holds."""
    from benger.judge import RUBRICS, load_rubric, rubric_from_data, stored_rubric

    # a task's Bewertungsbogen, a registered rubric of that exact id, a rubric the store keeps (not
    # ``pipeline.resolve_rubric``: the leaderboard command loads no pipeline, and never opens a path named by an id)
    own = {r.id: r for r in (rubric_from_data(t.rubric, f"task {t.task_id!r}") for t in tasks if t.rubric is not None)}
    totals: dict[str, float] = {}
    for rid in sorted(set(rubric_ids)):
        rubric = own.get(rid)
        name = rid.partition("@")[0]
        if rubric is None and name in RUBRICS:
            rubric = load_rubric(name)
            rubric = rubric if _same_id(rubric.id, rid) else None
        if rubric is None and store is not None and "@" in rid:
            try:
                rubric = stored_rubric(store, rid)
            except BengerError:  # two kept rubrics share the id, or one no longer hashes to it: no total
                rubric = None
        if rubric is not None:
            totals[rid] = float(rubric.max_total)
    return totals


def _same_id(found: str, wanted: str) -> bool:
    """Whether a registered rubric of id ``found`` (``name@version+sha8``) is the one ``wanted`` names (the full
    id, or ``name@version`` as older stores wrote it)."""
    return found == wanted or found.split("+", 1)[0] == wanted


def row_rubrics(rubric: str | None) -> set[str]:
    """The rubric ids of a row (a pooled row names several, joined by ", ")."""
    return set(rubric.split(", ")) if rubric else set()


def with_scales(
    board: Leaderboard, store: Any = None, tasks: Iterable[FalloesungTask | PrincipleItem] = ()
) -> Leaderboard:
    """``board`` with its rubrics' totals (``rubric_scales``) and each judged row's ``scale``."""
    totals = rubric_totals({rid for r in board.rows for rid in row_rubrics(r.rubric)}, store, tasks)
    rows = [
        r.model_copy(update={"scale": scale_text(totals, row_rubrics(r.rubric))}) if r.rubric else r for r in board.rows
    ]
    return board.model_copy(update={"rows": rows, "rubric_scales": totals})

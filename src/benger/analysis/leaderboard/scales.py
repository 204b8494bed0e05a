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
    from benger.judge import Rubric
    from benger.schema import FalloesungTask, PrincipleItem


def rubric_totals(
    rubric_ids: Iterable[str], store: Any = None, tasks: Iterable[FalloesungTask | PrincipleItem] = ()
) -> dict[str, float]:
    """Rubric id -> total for those of ``rubric_ids`` that a task's own Bewertungsbogen (``tasks``), the registry
    or ``store`` holds."""
    return {rid: float(rubric.max_total) for rid, rubric in known_rubrics(rubric_ids, store, tasks).items()}


def on_paper_scale(rubric: Rubric) -> bool:
    """Whether grade points under ``rubric`` are the paper's Notenpunkte: one of the paper's rubrics, or one whose
    grades are the paper's 0-18 table of 100 points. A user's own grade table (kurz3's grades 0-4 of 30 points)
    grades on its own scale, which the leaderboard shows as percent of the rubric's total instead."""
    from benger.judge import GRADE_UPPER_BOUNDS
    from benger.judge._rubric import BUILTIN_RUBRICS

    bounds = rubric.grade_bounds
    return rubric.name in BUILTIN_RUBRICS or (bounds is not None and bounds == tuple(map(float, GRADE_UPPER_BOUNDS)))


def known_rubrics(
    rubric_ids: Iterable[str], store: Any = None, tasks: Iterable[FalloesungTask | PrincipleItem] = ()
) -> dict[str, Rubric]:
    """Rubric id -> rubric for those of ``rubric_ids`` that a task's own Bewertungsbogen (``tasks``), the registry
    or ``store`` holds."""
    from benger.judge import RUBRICS, load_rubric, rubric_from_data, stored_rubric

    # a task's Bewertungsbogen, a registered rubric of that exact id, a rubric the store keeps (not
    # ``pipeline.resolve_rubric``: the leaderboard command loads no pipeline, and never opens a path named by an id)
    own = {r.id: r for r in (rubric_from_data(t.rubric, f"task {t.task_id!r}") for t in tasks if t.rubric is not None)}
    found: dict[str, Rubric] = {}
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
            found[rid] = rubric
    return found


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
    """``board`` with its rubrics' totals (``rubric_scales``) and each judged row's ``scale``; the one place that
    decides what a row's grade column holds: its grade points under a rubric on the paper's scale
    (:func:`on_paper_scale`), else (a user's own rubric) none and its mean as percent of the rubric's total."""
    rubrics = known_rubrics({rid for r in board.rows for rid in row_rubrics(r.rubric)}, store, tasks)
    totals = {rid: float(rubric.max_total) for rid, rubric in rubrics.items()}
    rows = []
    for r in board.rows:
        if not r.rubric:
            rows.append(r)
            continue
        update: dict[str, Any] = {"scale": scale_text(totals, row_rubrics(r.rubric))}
        own = [rid for rid in row_rubrics(r.rubric) if rid in rubrics and not on_paper_scale(rubrics[rid])]
        if own:
            scales = {totals.get(rid) for rid in row_rubrics(r.rubric)}
            total = next(iter(scales)) if len(scales) == 1 else None
            percent = 100.0 * r.mean / total if total and r.mean is not None else None
            update.update(mean_grade_points=None, mean_percent=percent)
        rows.append(r.model_copy(update=update))
    return board.model_copy(update={"rows": rows, "rubric_scales": totals})

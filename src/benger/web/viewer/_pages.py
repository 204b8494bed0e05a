"""The page models of the viewer: what each page shows, computed by the library (never re-derived here).

Leaderboard rows are :func:`benger.analysis.leaderboard_from_store` with the CLI's defaults (what ``benger
leaderboard --out`` writes); the judge validation is :func:`benger.analysis._validate_judge.validate_judge` over
the store's reviewed picks; the error analysis is :func:`benger.analysis._error_modes.error_modes_from_store`;
the marked Falllösung is :func:`benger.gutachten.analyse`.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from sqlalchemy import select

from benger.errors import BengerError
from benger.schema import FalloesungTask, HumanReview, Judgement, PrincipleItem
from benger.web.viewer import _svg
from benger.web.viewer._marks import marked
from benger.web.viewer._names import judge_name
from benger.web.viewer._reader import SolutionRecord
from benger.web.viewer._validation import AltStatus, judge_statuses, validation_blocks

__all__ = ["Page", "compare", "errors", "judge_statuses", "leaderboard", "solution", "validation", "validation_blocks"]

_LOG = logging.getLogger(__name__)


@dataclass
class Page:
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)


# -- leaderboard ----------------------------------------------------------------------------------------
def leaderboard(store: Any, statuses: dict[str, list[AltStatus]], corpora: frozenset[str] | None = None) -> Page:
    """Every judge group of the CLI's leaderboard (its default CI, seed 0, B = 2000), a figure per group and corpus;
    each group's judge status is the row's (``benger.analysis.leaderboard.judge_status``), ``statuses`` adds the
    alt-test on this store's reviewed picks (:func:`judge_statuses`); ``corpora``: the readable corpora
    (``Access.corpora``; None: every corpus), as ``benger leaderboard --corpus``."""
    from benger.analysis import leaderboard_from_store

    if corpora is None:
        board = leaderboard_from_store(store)
    elif corpora:
        board = leaderboard_from_store(store, corpora=sorted(corpora))
    else:  # no readable corpus: no rows
        from benger import __version__
        from benger.analysis.leaderboard.model import Leaderboard

        board = Leaderboard(
            rows=[], ranking=[], ci="auto", ci_method="–", seed=0, n_resamples=0, benger_version=__version__
        )
    groups = []
    for g, name in enumerate(board.groups()):
        rows = [r for r in board.rows if r.group == name]
        top, pass_mark, own = _bar_scale(rows, store)
        figures = []
        for c, corpus in enumerate(dict.fromkeys(r.corpus for r in rows)):
            items = [
                _svg.Bar(r.display or r.system, r.mean, r.ci_low, r.ci_high)
                for r in sorted(rows, key=lambda r: -(r.mean or 0))
                if r.corpus == corpus and r.mean is not None
            ]
            if items:
                label = f"{corpus} · {own} (0–{top:g})" if own else corpus
                args = {"title": f"{judge_name(name)} – {corpus}", "items": items, "fig_id": f"fig-{g}-{c}", "top": top}
                figures.append((label, _svg.Figure("bars", {**args, "pass_mark": pass_mark})))
        judge = rows[0].judge if rows else None
        groups.append(
            {
                "name": name,
                "rows": rows,
                "figures": figures,
                "status": rows[0].judge_status if rows else None,  # benger.analysis.leaderboard.judge_status
                "meaningful": all(r.scores_meaningful for r in rows),
                "here": statuses.get(judge or "", []),
                "own_scale": bool(own),
            }
        )
    left_out = _left_out(store, corpora)
    return Page("leaderboard.html", "Rangliste", {"board": board, "groups": groups, "left_out": left_out})


def _left_out(store: Any, corpora: frozenset[str] | None) -> list[tuple[str, str, str]]:
    """The judge configurations (judge, config hash, rubric id) the leaderboard leaves out because they scored
    validation picks only (:func:`benger.store._aggregate_items.validation_only_judges`), those that judged a
    generation of ``corpora`` (None: all)."""
    from benger.store._aggregate_items import validation_only_judges
    from benger.store._models import GenerationRow, JudgementRow

    found = sorted(validation_only_judges(store))
    if corpora is None or not found:
        return found
    j, g = JudgementRow, GenerationRow
    with store.engine.connect() as connection:
        seen = set(
            connection.execute(
                select(j.judge, j.judge_config_hash, j.rubric_id)
                .join(g, g.generation_id == j.target_id)
                .where(j.target_kind == "generation", g.corpus.in_(sorted(corpora)))
                .distinct()
            ).all()
        )
    return [k for k in found if tuple(k) in seen]


def _bar_scale(rows: list[Any], store: Any) -> tuple[float, float | None, str]:
    """The figure scale of one judge group: (axis top, pass line, own rubric id or ""). The paper's rubrics: 0-100
    with the pass mark 50; a user's own rubric: 0 to its total where the viewer knows the rubric (registered or
    kept in the store), else to the largest value drawn, and its own pass mark or none."""
    from benger.judge._rubric import BUILTIN_RUBRICS

    rubric_ids = {r.rubric for r in rows if r.rubric}
    if not rubric_ids or all(i.split("@")[0] in BUILTIN_RUBRICS for i in rubric_ids):
        return 100.0, 50.0, ""
    own = ", ".join(sorted(rubric_ids))
    rubric = _rubric(next(iter(rubric_ids)), store) if len(rubric_ids) == 1 else None
    if rubric is not None:  # the pass line: the lowest half-point total that passes by the rubric's own rule
        total = float(rubric.max_total)
        mark = next((x / 2 for x in range(int(2 * total) + 1) if rubric.passed(x / 2)), None)
        return total, mark, own
    drawn = [v for r in rows for v in (r.mean, r.ci_high) if v is not None]
    return (max(drawn) if drawn and max(drawn) > 0 else 1.0), None, own


# -- one solution -----------------------------------------------------------------------------------------
@dataclass
class Column:
    """One column of the solution grid: a judgement (judge, repeat) or a review (grader, role)."""

    kind: str  # "judge" | "blind" | "creator"
    head: str
    scores: dict[str, float]
    notes: dict[str, str]
    total: float | None
    grade_points: int | None
    passed: bool | None
    overall: str | None = None
    status: str = "scored"
    reason: str | None = None
    sub: str = ""
    config: tuple[str, str, str] | None = None  # a judgement's (judge, config hash, rubric id); None: a review


def _rubric(rubric_id: str, store: Any) -> Any:
    """The rubric of a judgement: registered, or kept in the store (an own rubric); None when neither."""
    from benger.pipeline._units import resolve_rubric

    try:
        return resolve_rubric(rubric_id, store)
    except (BengerError, OSError, ValueError):
        return None


def _judge_column(j: Judgement) -> Column:
    overall = j.meta.get("overall") or j.justifications.get("gesamtwuerdigung")
    return Column(
        "judge",
        j.judge,
        dict(j.dimensions or {}),
        {k: v for k, v in j.justifications.items() if k != "gesamtwuerdigung"},
        j.total,
        j.grade_points,
        j.passed,
        overall if isinstance(overall, str) else None,
        j.status,
        j.reason,
        f"{j.rubric_id} · {j.judge_config_hash[:8]} · #{j.repeat_index}",
        (j.judge, j.judge_config_hash, j.rubric_id),
    )


def _review_column(r: HumanReview, notes: dict[str, str]) -> Column:
    from benger.analysis._records import short_grader

    kind = "creator" if r.role == "creator" else "blind"
    return Column(
        kind, short_grader(r.grader_id), dict(r.dimensions), notes, r.raw_score, r.grade_points, r.passed, sub=r.role
    )


def review_notes(store: Any, reviews: list[HumanReview]) -> dict[str, dict[str, str]]:
    """Per review: its comments (the study platform's justifications and margin notes; none in the release)."""
    from benger.study._models import Review

    out: dict[str, dict[str, str]] = {}
    versions = {r.review_id: r.meta.get("version_id") for r in reviews if r.meta.get("version_id")}
    found: dict[Any, dict[str, Any]] = {}
    if versions:
        with store.session() as session:
            for rev in session.scalars(select(Review).where(Review.id.in_(list(versions.values())))):
                found[rev.id] = dict(rev.justifications or {})
    for r in reviews:
        notes = {
            k: str(v) for k, v in (r.meta.get("justifications") or found.get(versions.get(r.review_id)) or {}).items()
        }
        margin = r.meta.get("margin_notes") or []
        if margin:
            notes["_margin"] = " · ".join(f"„{m.get('quote', '')}“: {m.get('note', '')}" for m in margin)
        out[r.review_id] = notes
    return out


def solution(store: Any, rec: SolutionRecord, others: list[tuple[str, str, str]]) -> Page:
    """The task, the reference, the marked solution and the grid of judgements and reviews."""
    judgements = sorted(rec.judgements, key=lambda j: (j.judge, j.judge_config_hash, j.rubric_id, j.repeat_index))
    rubric = next((r for r in (_rubric(j.rubric_id, store) for j in judgements) if r is not None), None)
    keys = rubric.keys if rubric is not None else list(dict.fromkeys(k for j in judgements for k in j.dimensions or {}))
    if not keys:
        keys = list(dict.fromkeys(k for r in rec.reviews for k in r.dimensions))
    maxima = rubric.maxima() if rubric is not None else {}
    labels = {d.key: (d.label, d.label_en) for d in rubric.dimensions} if rubric is not None else {}
    notes = review_notes(store, rec.reviews)
    reviews = sorted(rec.reviews, key=lambda r: (r.role == "creator", r.position or 0))
    columns = [_judge_column(j) for j in judgements] + [_review_column(r, notes[r.review_id]) for r in reviews]
    diffs = _differences(keys, columns)
    task = rec.task
    text = marked(rec.text)
    reference = marked(task.reference, "r") if isinstance(task, FalloesungTask) else None
    return Page(
        "solution.html",
        "Lösung",
        {
            "rec": rec,
            "task": task,
            "is_case": isinstance(task, FalloesungTask),
            "is_item": isinstance(task, PrincipleItem),
            "text": text,
            "reference": reference,
            "keys": keys,
            "maxima": maxima,
            "labels": labels,
            "rubric": rubric,
            "columns": columns,
            "diffs": diffs,
            "others": others,
        },
    )


def _mean_of(pool: list[Column], key: str) -> float | None:
    values = [c.total if key == "total" else c.scores.get(key) for c in pool]
    present = [float(v) for v in values if v is not None]
    return fmean(present) if present else None


@dataclass
class Differences:
    """Judge − reviewer differences that compare like with like: ``rows`` (per dimension and ``total``, the grid's
    difference columns) are one judge configuration's (``judge``: the one with the most dimension scores, its
    scored repeats averaged; None when no judge scored a dimension, then there are no such columns), so the total's
    difference is the sum of the dimensions'; ``per_column`` is each judge column's own total − the reviews'."""

    judge: str | None
    sub: str
    rows: dict[str, dict[str, float | None]]
    per_column: list[dict[str, float | None]]
    blind: bool  # a blind review exists
    creator: bool  # a creator review exists


def _differences(keys: list[str], columns: list[Column]) -> Differences:
    """Per dimension (and ``total``) of one judge configuration: its mean − the mean blind review, − the creator
    review; and per judge column its total − the same (:class:`Differences`)."""
    scored = [c for c in columns if c.kind == "judge" and c.status == "scored"]
    blind = [c for c in columns if c.kind == "blind"]
    creator = [c for c in columns if c.kind == "creator"]
    b_total, c_total = _mean_of(blind, "total"), _mean_of(creator, "total")

    def minus(value: float | None, other: float | None) -> float | None:
        return None if value is None or other is None else float(value) - other

    none: dict[str, float | None] = {"blind": None, "creator": None}
    per_column = [
        {"blind": minus(c.total, b_total), "creator": minus(c.total, c_total)}
        if c.kind == "judge" and c.status == "scored"
        else none
        for c in columns
    ]
    configs: dict[tuple[str, str, str] | None, list[Column]] = defaultdict(list)
    for c in scored:
        configs[c.config].append(c)

    def dimensions(pool: list[Column]) -> int:
        return len({k for c in pool for k, v in c.scores.items() if v is not None})

    chosen = max(configs.values(), key=dimensions, default=[])  # max keeps the first of equals: column order
    rows: dict[str, dict[str, float | None]] = {}
    if chosen and dimensions(chosen):
        for key in [*keys, "total"]:
            j = _mean_of(chosen, key)
            rows[key] = {"blind": minus(j, _mean_of(blind, key)), "creator": minus(j, _mean_of(creator, key))}
    config = chosen[0].config if rows else None
    return Differences(
        config[0] if config else None,
        f"{config[2]} · {config[1][:8]}" if config else "",
        rows,
        per_column,
        bool(blind),
        bool(creator),
    )


# -- compare ----------------------------------------------------------------------------------------------
def compare(store: Any, task: Any, solutions: list[tuple[str, str, str]], picked: list[SolutionRecord]) -> Page:
    """Every solution of one task in a dimension x solution matrix (each judge's mean over its scored judgements, a
    dimension over those that scored it), then two side by side."""
    matrix: list[dict[str, Any]] = []
    for kind, sid, label in solutions:
        js = [j for j in store.judgements(target_ids=[sid]) if j.target_kind == kind and j.status == "scored"]
        by_judge: dict[str, list[Judgement]] = defaultdict(list)
        for j in js:
            by_judge[j.judge].append(j)
        for judge, group in sorted(by_judge.items()):
            dims: dict[str, float] = {}  # a dimension a judgement did not score is left out of its mean, not 0
            for k in dict.fromkeys(k for j in group for k in j.dimensions or {}):
                scores = [float(v) for j in group if (v := (j.dimensions or {}).get(k)) is not None]
                if scores:
                    dims[k] = fmean(scores)
            totals = [float(j.total) for j in group if j.total is not None]
            matrix.append(
                {
                    "kind": kind,
                    "id": sid,
                    "label": label,
                    "judge": judge,
                    "n": len(group),
                    "dims": dims,
                    "total": fmean(totals) if totals else None,
                    "first": group[0],
                }
            )
    keys = list(dict.fromkeys(k for m in matrix for k in m["dims"]))
    rubric = next((r for m in matrix if (r := _rubric(m["first"].rubric_id, store)) is not None), None)
    labels: dict[str, tuple[str, str]] = {}
    if rubric is not None:  # the rubric's order and labels; keys of other rubrics after them
        keys = [k for k in rubric.keys if k in keys] + [k for k in keys if k not in rubric.keys]
        labels = {d.key: (d.label, d.label_en) for d in rubric.dimensions}
    for m in matrix:
        del m["first"]
    sides = [solution(store, rec, []) for rec in picked]
    return Page(
        "compare.html",
        "Vergleich",
        {"task": task, "matrix": matrix, "keys": keys, "labels": labels, "sides": sides, "solutions": solutions},
    )


def validation(blocks: list[dict[str, Any]]) -> Page:
    return Page("validation.html", "Judge-Validierung", {"blocks": blocks})


# -- error analysis ----------------------------------------------------------------------------------------
def errors(store: Any, corpora: frozenset[str] | None = None) -> Page:
    """The error modes of the generations of ``corpora`` (None: every corpus)."""
    from benger.analysis._error_modes import MODES, error_modes_from_store

    try:
        report = error_modes_from_store(store, corpora=corpora)
    except BengerError as exc:
        return Page(
            "errors.html", "Fehleranalyse", {"report": None, "error": getattr(exc, "reason", str(exc)), "modes": MODES}
        )
    flagged = {m: [it for it in report.items if m in it.modes] for m in MODES}
    return Page("errors.html", "Fehleranalyse", {"report": report, "flagged": flagged, "modes": MODES})

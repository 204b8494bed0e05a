"""The judge validation page's model: per reviewed corpus the validate-judge table, the per-annotator alt-tests
and the scatter plots of judge vs reviewer mean per pick (:func:`benger.analysis._validate_judge.validate_judge`
over the store's reviewed picks), and the judge statuses the leaderboard shows from them.

The blocks are kept for both languages (``_cache``): they hold numbers, names and :class:`~benger.web.viewer._svg.
Figure` values, never a sentence of the viewer's; the templates word them (``validation.html``,
``leaderboard.html``). The table's headers, verdicts and method line are validate-judge's own (the CLI's words),
which the template shows in the page's language (``_words``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean
from typing import Any

from benger.errors import BengerError, InputError
from benger.schema import FalloesungTask
from benger.web.viewer import _svg
from benger.web.viewer._names import judge_name

_LOG = logging.getLogger(__name__)

#: The x axis of the scatter plots (translated when drawn).
REVIEWERS_MEAN = "Gutachter*innen (Mittel)"
#: A block's error when no judge scored a reviewed solution (translated in the template).
NO_JUDGE = "Kein Judge hat eine begutachtete Lösung bewertet."


@dataclass(frozen=True)
class AltStatus:
    """One alt-test verdict of a judge: on the blind pool of one corpus's picks of one pool (human / llm)."""

    corpus: str
    pool: str
    omega: float
    passes: bool


def validation_blocks(store: Any, reader: Any) -> list[dict[str, Any]]:
    """Per reviewed corpus: the validate-judge table, per-annotator alt-tests, scatter judge vs reviewer mean."""
    blocks = []
    for corpus in _reviewed_corpora(store, reader):
        try:
            blocks.append(_validation_block(store, reader, corpus))
        except (BengerError, ValueError, ZeroDivisionError, KeyError) as exc:  # too few picks for a statistic
            _LOG.info("validation of %s not available: %s", corpus, exc)
            blocks.append({"corpus": corpus, "error": str(exc)})
    return blocks


def _reviewed_corpora(store: Any, reader: Any) -> list[str]:
    reviews = reader.visible_reviews()
    if not reviews:
        return []
    tasks = {r.task_id for r in reviews}
    out = []
    for corpus in reader.access.corpus_names():
        ids = {t.task_id for t in store.load_corpus(corpus).tasks if isinstance(t, FalloesungTask)}
        if ids & tasks:
            out.append(corpus)
    return out


def _validation_block(store: Any, reader: Any, corpus: str) -> dict[str, Any]:
    import dataclasses

    from benger.analysis import StudyData
    from benger.analysis._percent import PERCENT_SCALE, as_percent
    from benger.analysis._validate_judge import headers, table_rows, validate_judge
    from benger.pipeline._corpus_rubrics import corpus_rubrics

    # each reviewed solution's rubric: its task's Bewertungsbogen, else the corpus rubric its judgements were made
    # with (registered or kept in the store), else the built-in one; an own rubric known to neither is refused
    try:
        data = StudyData.from_store(store, corpus=corpus, rubrics=corpus_rubrics(store, [corpus]))
    except InputError as exc:  # an own rubric the store does not keep (judged before it kept rubrics)
        reason = exc.reason.partition("; name the")[0]
        raise InputError(
            f"{reason}. The viewer cannot put these scores on percent of that rubric's total; `benger validate-judge "
            f"CONFIG --db STORE --corpus {corpus}` validates the judge with the run config's rubric"
        ) from None
    visible = {r.review_id for r in reader.visible_reviews()}
    hidden_targets = {r.target_id for r in store.human_reviews() if r.review_id not in visible}
    if hidden_targets:
        data = dataclasses.replace(
            data,
            reviews=[r for r in data.reviews if r.solution_id not in hidden_targets],
            solutions={k: v for k, v in data.solutions.items() if k not in hidden_targets},
            judge_scores={
                j: {k: v for k, v in s.items() if k not in hidden_targets} for j, s in data.judge_scores.items()
            },
        )
    scale = {}
    if data.rubric_totals:  # a user's own rubric: one rule with validate-judge --corpus (benger.analysis._percent)
        data = as_percent(data, data.rubric_totals)
        scale = {"scale": PERCENT_SCALE}
    judges = [j for j, s in data.judge_scores.items() if s]
    if not judges:
        return {"corpus": corpus, "error": NO_JUDGE, "n_picks": len(data.solutions)}
    primary = data.primary_judge if data.primary_judge in judges else judges[0]
    others = tuple(j for j in judges if j != primary)
    result = validate_judge(
        data,
        data.judge_scores[primary],
        label=primary,
        provenance={"store": store.url, "corpus": corpus, "judge": primary, **scale},
        paper_judges=others,
    )
    blocks = {primary: result["candidate"], **result["paper_judges"]}
    blind: dict[str, list[float]] = defaultdict(list)
    for r in data.reviews:
        if r.role != "creator":
            blind[r.solution_id].append(r.raw)
    figures = []
    for i, judge in enumerate([primary, *others]):
        points = [
            _svg.Point(fmean(blind[s]), score, s, data.solutions[s].pool)
            for s, score in sorted(data.judge_scores[judge].items())
            if blind.get(s)
        ]
        name = judge_name(judge)
        args = {"title": name, "points": points, "fig_id": f"sc-{corpus}-{i}", "x_label": REVIEWERS_MEAN}
        figures.append((judge, _svg.Figure("scatter", {**args, "y_label": name})))
    return {
        "corpus": corpus,
        "header": headers(result),
        "scale": scale.get("scale"),
        "rows": table_rows(result, suffix=""),  # the store's judges: none is "the paper's" here
        "blocks": blocks,
        "coverage": result["coverage"],
        "method": result["method"],
        "figures": figures,
    }


def judge_statuses(blocks: list[dict[str, Any]]) -> dict[str, list[AltStatus]]:
    """Per judge name: its validation status from the validation blocks (none when not validated): the blind-pool
    alt-test omega and verdict per corpus and pick pool."""
    out: dict[str, list[AltStatus]] = defaultdict(list)
    for block in blocks:
        for judge, b in block.get("blocks", {}).items():
            for pool in ("human", "llm"):
                alt = b["alt_test_blind"].get(pool) or {}
                if alt.get("omega") is not None:
                    out[judge].append(AltStatus(block["corpus"], pool, float(alt["omega"]), bool(alt.get("passes"))))
    return dict(out)

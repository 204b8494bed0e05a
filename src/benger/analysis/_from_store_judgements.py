"""What :func:`benger.analysis._from_store.study_from_store` takes from a store's scored judgements, read in one
pass over them (a 256k-generation store holds 256k judgements: one loop per view cost ~1.5 CPU-s; issue 26)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from benger.store._aggregate import JudgementColumns

JudgeKey = tuple[str, str, str]  # judge name, judge config hash, rubric id


def primary_config(
    judgements: list[JudgementColumns], corpus_targets: Collection[str], name: str | None
) -> JudgeKey | None:
    """The judge configuration with the most scored first-pass judgements of the corpus's generations (among
    the configurations of judge ``name`` when given)."""
    counts = Counter(
        (j.judge, j.judge_config_hash, j.rubric_id)
        for j in judgements
        if j.target_id in corpus_targets and j.repeat_index == 0 and (name is None or j.judge == name)
    )
    return min(counts, key=lambda k: (-counts[k], k)) if counts else None


def repeat_means(judgements: list[JudgementColumns], key: JudgeKey | None) -> dict[str, float]:
    """Per target: the mean total over judge configuration ``key``'s scored repeats."""
    totals: dict[str, list[float]] = defaultdict(list)
    for j in judgements:
        if key is not None and (j.judge, j.judge_config_hash, j.rubric_id) == key and j.total is not None:
            totals[j.target_id].append(float(j.total))
    return {t: sum(v) / len(v) for t, v in totals.items()}


@dataclass
class JudgementViews:
    """The views of the judgements a study is built from (see :func:`judgement_views`)."""

    #: generation -> the mean total over the primary configuration's scored repeats (:func:`repeat_means`)
    means: dict[str, float]
    #: the generations with a first pass (repeat 0) of the primary configuration
    first: set[str]
    #: generation -> the primary configuration's later repeats' totals, in repeat order
    repeats: dict[str, list[float]]
    #: judge -> reviewed solution -> its first-pass total
    judge_scores: dict[str, dict[str, float]]
    #: judge -> generation -> its first-pass total (no validation-only configuration)
    per_generation: dict[str, dict[str, float]]
    #: human solution -> the primary judge's first-pass total
    primary_human: dict[str, float]
    #: reviewed solution -> the rubric ids it was judged under
    judged_rubrics: dict[str, set[str]]
    #: the judgements of the corpus's generations and of the reviewed solutions
    n_judgements: int


def judgement_views(
    judgements: list[JudgementColumns],
    key: JudgeKey | None,
    primary: str,
    generations: Collection[str],
    solutions: Collection[str],
    validation_only: Collection[Any],
) -> JudgementViews:
    """Every view of ``judgements`` (in their order, so each dict's keys in first-appearance order) in one pass:
    ``key`` is the primary judge configuration (None: none), ``primary`` its judge name, ``generations`` the
    corpus's generation ids, ``solutions`` the reviewed solution ids, ``validation_only`` the judge
    configurations whose scores are no per-generation scores."""
    totals: dict[str, float | list[float]] = {}  # one repeat (the rule): its total, no list per generation
    first: set[str] = set()
    repeats: dict[str, list[float]] = defaultdict(list)
    judge_scores: dict[str, dict[str, float]] = defaultdict(dict)
    per_generation: dict[str, dict[str, float]] = defaultdict(dict)
    primary_human: dict[str, float] = {}
    judged: dict[str, set[str]] = defaultdict(set)
    n_judgements = 0
    for j in judgements:
        target = j.target_id
        generation, solution = target in generations, target in solutions
        if not (generation or solution or j.judge == primary):
            continue
        n_judgements += generation or solution
        total = float(j.total or 0.0)
        config = (j.judge, j.judge_config_hash, j.rubric_id)
        if generation and config == key:
            if j.total is not None:
                before = totals.get(target)
                if before is None:
                    totals[target] = float(j.total)
                elif isinstance(before, list):
                    before.append(float(j.total))
                else:
                    totals[target] = [before, float(j.total)]
            if j.repeat_index == 0:
                first.add(target)
            else:
                repeats[target].append(total)
        if solution:
            judged[target].add(j.rubric_id)
        if j.repeat_index == 0:
            if solution:
                judge_scores[j.judge][target] = total
            if generation and config not in validation_only:
                per_generation[j.judge][target] = total
            if j.judge == primary and j.target_kind == "human_solution":
                primary_human[target] = total
    # sum(v) / len(v) as repeat_means gives it; of one value v + 0.0 (sum starts from 0), which is v itself but for
    # -0.0 (the float object shared with the other views: 6 MiB less at 256k generations)
    means = {t: sum(v) / len(v) if isinstance(v, list) else v if v else v + 0.0 for t, v in totals.items()}
    return JudgementViews(means, first, repeats, judge_scores, per_generation, primary_human, judged, int(n_judgements))

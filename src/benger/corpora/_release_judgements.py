"""The release's judge scores as records: the primary judge's evaluations of every generation
(``model_evaluations*.json``) and the paper's six judges' raw scores of the validation picks
(``creator_calibration_anchors.csv``), as :class:`benger.schema.Generation` / :class:`benger.schema.Judgement`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from benger.corpora._release_io import JsonFile
from benger.corpora._release_models import EvaluationRecord
from benger.judge import falloesung_rubric, grade_points, passed
from benger.judge._released import (
    PAPER_JUDGE_NAMES,
    PRIMARY_JUDGE,
    RELEASE_JUDGE_CONFIG_HASH,
    RELEASED_RUBRIC_ID,
    released_config_hash,
)
from benger.schema import Generation, Judgement, stable_hash


def evaluations(
    path: Path, texts: dict[str, str], hashes: dict[str, str], verify: Callable[[JsonFile, list[Any]], None]
) -> tuple[list[Any], list[Any]]:
    file = JsonFile(path)
    records: list[EvaluationRecord] = file.validate(
        list[EvaluationRecord], context={"maxima": falloesung_rubric().maxima()}, unique="generation_id"
    )
    verify(file, records)
    gens, judgements = [], []
    rubric_id = RELEASED_RUBRIC_ID  # the released judgements carry the id without our content hash
    judge_hash = RELEASE_JUDGE_CONFIG_HASH
    for rec in records:
        gid = rec.generation_id
        gens.append(
            Generation(
                generation_id=gid,
                task_id=rec.task_id,
                system=rec.system,
                config_hash=hashes.get(rec.system, stable_hash({"system": rec.system})),
                text=texts.get(gid, ""),
                output_tokens=rec.output_tokens,
            )
        )
        judgements.append(
            Judgement(
                judgement_id=f"{gid}:{PRIMARY_JUDGE}:0",
                target_kind="generation",
                target_id=gid,
                judge=PRIMARY_JUDGE,
                judge_config_hash=judge_hash,
                rubric_id=rubric_id,
                status="scored",
                dimensions=dict(rec.dimensions),
                total=rec.raw_score,
                grade_points=grade_points(rec.raw_score),
                passed=passed(rec.raw_score),
            )
        )
    return gens, judgements


def pick_judgements(anchors: list[Any], human_picks: set[str], llm_picks: set[str]) -> tuple[Judgement, ...]:
    """The paper's six judges' scores of the validation picks (``creator_calibration_anchors.csv``, raw only) as
    judgements: judge name and config hash as the released validations name them (:data:`PAPER_JUDGE_NAMES`,
    :func:`released_config_hash`), rubric ``falloesung@1``, no dimensions, ``meta["anchor_key"]`` the file's key.

    The 30 human picks (``human_solution`` judgements; Opus-4.7 did not score P25 and P28: 28) for all six
    judges, and the 15 LLM picks (``generation`` judgements) for the five judges other than the primary one,
    whose scores of every generation are the generation judgements: 6 x 30 - 2 + 5 x 15 = 253. Those five
    judged nothing but reviewed picks, so the leaderboard leaves them out (validation-only judge configurations,
    :mod:`benger.analysis.leaderboard`). The legacy keys are left out."""
    out = []
    for a in anchors:
        name = PAPER_JUDGE_NAMES.get(a.judge)
        if name is None:
            continue
        if a.solution_id in human_picks:
            kind = "human_solution"
        elif a.solution_id in llm_picks and name != PRIMARY_JUDGE:
            kind = "generation"
        else:
            continue
        out.append(
            Judgement(
                judgement_id=f"{a.solution_id}:{name}:0",
                target_kind=kind,
                target_id=a.solution_id,
                judge=name,
                judge_config_hash=released_config_hash(name),
                rubric_id=RELEASED_RUBRIC_ID,
                status="scored",
                total=a.y_judge,
                grade_points=grade_points(a.y_judge),
                passed=passed(a.y_judge),
                meta={"source": "release", "anchor_key": a.judge, "scores": "raw only (creator_calibration_anchors)"},
            )
        )
    return tuple(out)

"""``benger validate-judge --recorded LOG``: a judge's scores on the validation picks from an inspect_ai log.

The log is one of the task ``benger/validation_picks`` (:func:`benger.interop.inspect_tasks.validation_picks`):
each sample is a released pick (id = its solution id), its ``rubric_judge`` score benger's total (0-100 raw
points) of one judge. Read with inspect's own reader (``.eval`` and ``.json``); with several epochs the scores of
a pick are averaged, as ``--repeats`` does. Unscored samples are left out and counted, never 0.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benger.errors import InputError
from benger.interop.inspect_log import _judge_record, _read_log
from benger.interop.inspect_tasks import KEY

LOG_SUFFIXES = (".eval", ".json")


@dataclass(frozen=True)
class PickScores:
    """The judge's mean raw score per pick (solution id -> 0-100), its label and the log's provenance."""

    scores: dict[str, float]
    label: str
    provenance: dict[str, Any] = field(default_factory=dict)


def read_pick_scores(path: str | Path, picks: Collection[str]) -> PickScores:
    """Pick id -> mean total of the log's ``rubric_judge`` scores; ``picks``: the released solution ids.

    InputError naming the log (and the sample) for a file inspect cannot read, a log of another task (a sample
    without a pick), a pick that is not released, a log of two judges or rubrics, and a log without any score."""
    path = Path(path)
    log = _read_log(path)
    if not log.samples:
        raise InputError(f"the log holds no samples (status {log.status})", file=path)
    per_pick: dict[str, list[float]] = {}
    unscored: dict[str, str] = {}
    judges: set[tuple[str, str, str]] = set()
    for number, sample in enumerate(log.samples, start=1):
        pick = ((sample.metadata or {}).get(KEY) or {}).get("pick")
        if not isinstance(pick, dict) or "solution_id" not in pick:
            raise InputError(
                f"sample {sample.id!r} is not a validation pick: not a log of benger/validation_picks "
                f"(task {log.eval.task!r}); run `inspect eval benger/validation_picks` with your judge",
                file=path,
                record=number,
            )
        sid = str(pick["solution_id"])
        if sid not in picks:
            raise InputError(
                f"sample {sample.id!r}: {sid!r} is not a released validation pick", file=path, record=number
            )
        record = _judge_record(sample)
        if record is None or sample.error:
            unscored.setdefault(sid, sample.error.message if sample.error else "no rubric_judge score")
            continue
        judges.add((str(record.get("judge")), str(record.get("judge_config_hash")), str(record.get("rubric_id"))))
        if record.get("status") == "scored" and isinstance(record.get("total"), int | float):
            per_pick.setdefault(sid, []).append(float(record["total"]))
        else:
            unscored.setdefault(sid, str(record.get("reason") or "unscored"))
    if len(judges) > 1:
        raise InputError(f"the log holds scores of {len(judges)} judges or rubrics; give a log of one judge", file=path)
    if not per_pick:
        raise InputError(f"no pick of the log is scored ({len(unscored)} unscored): nothing to validate", file=path)
    judge, config_hash, rubric_id = judges.pop()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    provenance = {  # no "judge_config_hash" key: validate-judge stores only what it judged itself
        "inspect_log": f"{path.resolve()} (sha256 {digest})",
        "inspect_eval_id": log.eval.eval_id,
        "judge_config": config_hash,
        "rubric_id": rubric_id,
        "picks_scored": len(per_pick),
        "picks_unscored": len({k for k in unscored if k not in per_pick}),
        "epochs": max((int(s.epoch) for s in log.samples), default=1),
    }
    scores = {sid: statistics.fmean(values) for sid, values in per_pick.items()}
    return PickScores(scores=scores, label=f"{judge} [{config_hash[:8]}] (inspect log)", provenance=provenance)

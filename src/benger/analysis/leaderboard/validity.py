"""Judge validity beside the scores (issue 24 item 4): a judge configuration's status from its stored
validations, for every leaderboard row, the report and the viewer.

States: ``passes`` (validated: the alt-test passes), ``failed`` (the alt-test fails, or is undefined and the
judge's r with the blind pool is <= 0: its scores are not meaningful), ``undefined`` (validated on too few picks
for a verdict), ``not validated``. The paper's primary judge carries its released validation
(:data:`RELEASED_VALIDATIONS`: Table 15/17 of the paper, reproduced from the release by ``benger reproduce``).
:func:`judge_status` is the one function the viewer, the leaderboard and the report call.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel

from benger.corpora._release import PRIMARY_JUDGE, RELEASE_JUDGE_CONFIG_HASH
from benger.judge._rubric import RELEASED_RUBRIC_ID
from benger.store._validations import JudgeValidation

State = Literal["passes", "failed", "undefined", "not validated"]
NOT_MEANINGFUL = "scores not meaningful"
PAPER_PICKS = "BenGER picks"

#: The paper's primary judge on the 30 human picks vs the mean blind pool (r, kappa of pass/fail) and the
#: Calderon alt-test (blind pool, epsilon 0.15): the release's values (targets.json
#: ``judge_vs_mean_blind_pool_human_picks``, ``calderon_blind_pool_primary_judge_human_picks_eps015``).
RELEASED_VALIDATIONS: tuple[JudgeValidation, ...] = (
    JudgeValidation(
        judge=PRIMARY_JUDGE,
        judge_config_hash=RELEASE_JUDGE_CONFIG_HASH,
        rubric_id=RELEASED_RUBRIC_ID,
        picks=PAPER_PICKS,
        n_picks=30,
        pearson=0.757437,
        kappa=0.603175,
        icc=None,
        omega=0.6,
        verdict="passes",
        source="release",
        validated_at=datetime(2026, 4, 30, tzinfo=UTC),
    ),
)


class JudgeStatus(BaseModel):
    """A judge configuration's status: ``state``, a short ``label`` for tables, ``meaningful`` (False for a failed
    judge: its rows are marked "scores not meaningful"), and the validation it rests on."""

    state: State
    label: str
    meaningful: bool = True
    validation: JudgeValidation | None = None


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}".replace("-", "−")


def status_of(v: JudgeValidation) -> JudgeStatus:
    """The status one validation gives."""
    where = f"on {v.picks}" + ("" if v.rubric_id in ("", RELEASED_RUBRIC_ID) else f" ({v.rubric_id})")
    if v.verdict == "fails" or (v.verdict == "undefined" and v.pearson is not None and v.pearson <= 0):
        return JudgeStatus(
            state="failed",
            label=f"failed {where}: r = {_f(v.pearson)}, ω = {_f(v.omega)} — {NOT_MEANINGFUL}",
            meaningful=False,
            validation=v,
        )
    if v.verdict == "passes":
        return JudgeStatus(state="passes", label=f"validated {where}: ω = {_f(v.omega)}, passes", validation=v)
    return JudgeStatus(
        state="undefined", label=f"validated {where}: r = {_f(v.pearson)}, no alt-test verdict", validation=v
    )


def judge_status(
    judge: str | None,
    judge_config_hash: str | None,
    validations: Sequence[JudgeValidation] = (),
    *,
    store: Any = None,
) -> JudgeStatus:
    """The status of a judge configuration: its newest validation (by config hash; else the newest of the same
    judge name, said in the label), from ``validations`` and, when given, ``store.judge_validations()``, and the
    released ones. ``not validated`` when there is none."""
    found = [*validations, *(store.judge_validations() if store is not None else ()), *RELEASED_VALIDATIONS]
    exact = [v for v in found if v.judge_config_hash == judge_config_hash]
    if exact:
        return status_of(max(exact, key=lambda v: v.validated_at))
    named = [v for v in found if judge is not None and v.judge == judge and v.source != "release"]
    if named:
        status = status_of(max(named, key=lambda v: v.validated_at))
        other = f"judge config {status.validation.judge_config_hash[:8]}" if status.validation else ""
        return status.model_copy(update={"label": f"{status.label} (as {other})"})
    return JudgeStatus(state="not validated", label="not validated")

"""Judge validity beside the scores (issue 24 item 4): a judge configuration's status from its stored
validations, for every leaderboard row, the report and the viewer.

States: ``passes`` (validated: the alt-test passes), ``failed`` (the alt-test fails, or is undefined and the
judge's r with the blind pool is <= 0: its scores are not meaningful), ``undefined`` (validated on too few picks
for a verdict), ``not validated``. The paper's six judges carry their released validations
(:data:`RELEASED_VALIDATIONS`: Tables 13/15/17 of the paper, as ``benger validate-judge --recorded KEY`` computes them).
:func:`judge_status` is the one function the viewer, the leaderboard and the report call.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel

from benger.judge._released import PRIMARY_JUDGE, RELEASED_RUBRIC_ID, released_config_hash
from benger.store._validations import JudgeValidation

State = Literal["passes", "failed", "undefined", "not validated"]
NOT_MEANINGFUL = "scores not meaningful"
PAPER_PICKS = "BenGER picks"

#: The paper's six judges (primary first): ``(key in the release's creator_calibration_anchors.csv, judge name,
#: scored picks, Pearson r and pass/fail kappa vs the mean blind pool on the human picks, mean ICC(2,k) with the
#: judge in a blind reviewer's place, blind-pool alt-test omega at epsilon 0.15, verdict)``: the numbers
#: ``benger validate-judge --recorded KEY`` computes from the release (Tables 13, 15, 17 of the paper;
#: tests/analysis/test_judge_validity_release.py recomputes every one). Only GPT-5.4-mini and Opus-4.7 pass.
_RELEASED: tuple[tuple[str, str, int, float, float, float, float, str], ...] = (
    ("gpt54mini", PRIMARY_JUDGE, 45, 0.757437, 0.603175, 0.817581, 0.6, "passes"),
    ("cfgB_opus", "cfgB_opus", 43, 0.807286, 0.502959, 0.865521, 0.6, "passes"),
    ("cfgB_gemini", "cfgB_gemini", 45, 0.817892, 0.666667, 0.843327, 0.4, "fails"),
    ("deepseek", "deepseek", 45, 0.820322, 0.603175, 0.852760, 0.2, "fails"),
    ("qwen", "qwen", 45, 0.767242, 0.583333, 0.808086, 0.0, "fails"),
    ("sonnet", "sonnet", 45, 0.812387, 0.561404, 0.849909, 0.4, "fails"),
)


#: The released validation of each of the paper's six judges (see ``_RELEASED``).
RELEASED_VALIDATIONS: tuple[JudgeValidation, ...] = tuple(
    JudgeValidation(
        judge=judge,
        judge_config_hash=released_config_hash(judge),
        rubric_id=RELEASED_RUBRIC_ID,
        picks=PAPER_PICKS,
        n_picks=n,
        pearson=r,
        kappa=kappa,
        icc=icc,
        omega=omega,
        verdict=verdict,
        source="release",
        validated_at=datetime(2026, 4, 30, tzinfo=UTC),
        details={"anchor_key": key},
    )
    for key, judge, n, r, kappa, icc, omega, verdict in _RELEASED
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


def status_block(judge: str, judge_config_hash: str | None, *, store: Any = None) -> dict[str, Any]:
    """:func:`judge_status` of one judge configuration as results.json's ``meta.judge_status`` holds it (judge,
    judge_config_hash, state, label, scores_meaningful), with ``store``'s validations when given."""
    status = judge_status(judge, judge_config_hash, store=store)
    return {
        "judge": judge,
        "judge_config_hash": judge_config_hash,
        "state": status.state,
        "label": status.label,
        "scores_meaningful": status.meaningful,
    }

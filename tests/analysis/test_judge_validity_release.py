"""Issue 24: the paper's six judges carry their released validation (before: only the primary judge had one, the
other five were "not validated"), with the numbers ``benger validate-judge --recorded KEY`` computes."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.analysis.leaderboard.validity import RELEASED_VALIDATIONS, judge_status, released_config_hash
from benger.judge._released import PRIMARY_JUDGE

# the paper's §6.5 / Table 17: blind-pool alt-test on the human picks, epsilon 0.15
VERDICTS = {
    PRIMARY_JUDGE: ("passes", "validated on BenGER picks: ω = 0.60, passes"),
    "cfgB_opus": ("passes", "validated on BenGER picks: ω = 0.60, passes"),
    "cfgB_gemini": ("failed", "failed on BenGER picks: r = 0.82, ω = 0.40 — scores not meaningful"),
    "deepseek": ("failed", "failed on BenGER picks: r = 0.82, ω = 0.20 — scores not meaningful"),
    "qwen": ("failed", "failed on BenGER picks: r = 0.77, ω = 0.00 — scores not meaningful"),
    "sonnet": ("failed", "failed on BenGER picks: r = 0.81, ω = 0.40 — scores not meaningful"),
}


@pytest.mark.parametrize("judge", list(VERDICTS))
def test_each_paper_judge_carries_its_released_verdict(judge: str) -> None:
    status = judge_status(judge, released_config_hash(judge))
    assert (status.state, status.label) == VERDICTS[judge]
    assert status.validation is not None and status.validation.source == "release"


@pytest.mark.slow
def test_released_validations_are_what_validate_judge_recorded_computes(release_dir: Path) -> None:
    from benger.analysis._data import StudyData
    from benger.analysis._validate_judge import validate_judge, validation_record

    data = StudyData.from_release(release_dir)
    assert len(RELEASED_VALIDATIONS) == 6
    for v in RELEASED_VALIDATIONS:
        key = (v.details or {})["anchor_key"]
        result = validate_judge(data, dict(data.judge_scores[key]), label=key, provenance={})
        got = validation_record(result, judge=v.judge, judge_config_hash=v.judge_config_hash, rubric_id=v.rubric_id)
        assert (got.n_picks, got.verdict, got.omega) == (v.n_picks, v.verdict, v.omega), key
        for name in ("pearson", "kappa", "icc"):
            assert getattr(got, name) == pytest.approx(getattr(v, name), abs=5e-7), (key, name)

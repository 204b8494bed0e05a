"""``benger validate-judge --recorded LOG`` (issue 29): ``inspect eval benger/validation_picks`` of a few released
picks, judged by benger's stub server, then the log's scores validated like a recorded judge of the paper."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

pytest.importorskip("inspect_ai")

_register_commands()
runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
TASK_FILE = REPO / "src" / "benger" / "interop" / "inspect_tasks.py"
PICKS = ["P01", "P02", "P03", "P04", "P05", "P06"]


def _inspect() -> str:
    found = shutil.which("inspect", path=str(Path(sys.executable).parent)) or shutil.which("inspect")
    if found is None:
        pytest.skip("the inspect console script is not installed")
    return found


@pytest.fixture(scope="module")
def picks_log(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from benger.testing import run_stub_server

    root = tmp_path_factory.mktemp("inspect-picks")
    with run_stub_server(latency_ms=0) as stub:
        env = {
            **os.environ,
            "STUB_BASE_URL": stub.base_url,
            "STUB_API_KEY": "stub-key",
            "PYTHONPATH": str(REPO / "src"),
            "INSPECT_LOG_DIR": str(root / "logs"),
            "INSPECT_DISPLAY": "none",
        }
        command = [
            _inspect(),
            "eval",
            f"{TASK_FILE}@validation_picks",
            "--model",
            "openai-api/stub/judge",
            "-T",
            f"release={release_dir}",
            "-T",
            f"picks={','.join(PICKS)}",
            "--log-format",
            "eval",
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    logs = sorted((root / "logs").glob("*.eval"))
    assert len(logs) == 1, done.stdout[-2000:]
    return logs[0]


@pytest.mark.slow
def test_validate_judge_reads_the_picks_log(picks_log: Path, release_dir: Path, tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    from benger.corpora import load_release

    release = load_release(release_dir)
    by_pick = {p.pick_id: p for p in release.picks}
    log = read_eval_log(str(picks_log))
    totals: dict[str, float] = {}
    for sample in log.samples or []:
        (score,) = (sample.scores or {}).values()
        assert isinstance(score.value, int | float)  # the stub judge answers every pick
        assert sample.output.completion == by_pick[sample.metadata["benger"]["pick"]["pick_id"]].text  # stored text
        totals[str(sample.id)] = float(score.value)  # benger's total
    assert sorted(totals) == sorted(by_pick[p].subject_id for p in PICKS)
    out = tmp_path / "vj"
    result = runner.invoke(
        app, ["validate-judge", "--recorded", str(picks_log), "--release", str(release_dir), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "validate-judge.json").read_text(encoding="utf-8"))
    candidate = report["candidate"]
    human = [p for p in PICKS if by_pick[p].subject_type == "human"]
    agreement = candidate["agreement"]["human"]
    assert agreement["n"] == len(human)
    # by hand: the judge's raw score minus the mean of the pick's three blind reviews, averaged over the picks
    blind: dict[str, list[float]] = {}
    for review in release.reviews:
        if review.role == "blind":
            blind.setdefault(review.target_id, []).append(review.raw_score)
    offsets = [totals[by_pick[p].subject_id] - statistics.fmean(blind[by_pick[p].subject_id]) for p in human]
    assert agreement["offset_raw"] == pytest.approx(statistics.fmean(offsets))
    assert report["coverage"]["n_scored"] == len(PICKS) and report["provenance"]["picks_scored"] == len(PICKS)
    assert report["provenance"]["inspect_log"].startswith(str(picks_log.resolve()))
    # the printed table: the candidate's row shows n human and the offset computed above
    (row,) = [line for line in result.output.splitlines() if line.startswith("| openai-api/stub/judge [")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[0].endswith("(inspect log)") and cells[1] == str(len(human))
    assert cells[7] == f"{statistics.fmean(offsets):.1f}"
    # the same log is no system: `benger import inspect` sends it here
    imported = runner.invoke(app, ["import", "inspect", str(picks_log), "--db", str(tmp_path / "s.db")])
    assert imported.exit_code == 2 and "validate-judge --recorded" in imported.output, imported.output
    other = _log_of(tmp_path, {"benger": {"corpus": "benchathon", "task": {}, "prompt_hash": "x"}})
    refused = runner.invoke(app, ["validate-judge", "--recorded", str(other), "--release", str(release_dir)])
    assert refused.exit_code == 2, refused.output
    assert "other.eval" in refused.output and "not a log of benger/validation_picks" in refused.output
    assert "Traceback" not in refused.output


def _log_of(tmp_path: Path, metadata: dict[str, Any]) -> Path:
    """A one-sample inspect log (written by inspect itself) whose sample carries ``metadata``."""
    from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec, write_eval_log

    spec = EvalSpec(
        created="2026-12-01T00:00:00+00:00",
        task="corpus",
        dataset=EvalDataset(),
        model="openai-api/stub/candidate",
        config=EvalConfig(),
    )
    sample = EvalSample(id="gp-0001", epoch=1, input="x", target="Ja", metadata=metadata)
    path = tmp_path / "other.eval"
    write_eval_log(EvalLog(eval=spec, samples=[sample], status="success"), str(path))
    return path


def test_a_log_that_is_not_of_the_picks_is_refused(tmp_path: Path) -> None:
    """A file inspect cannot read and a log of another benger task are refused with one message naming the log."""
    from benger.errors import InputError
    from benger.interop.inspect_picks import read_pick_scores

    bad = tmp_path / "x.eval"
    bad.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="not a readable inspect log"):
        read_pick_scores(bad, picks={"a"})
    other = _log_of(tmp_path, {"benger": {"corpus": "grundprinzipien", "task": {}, "prompt_hash": "x"}})
    with pytest.raises(InputError, match="not a log of benger/validation_picks") as caught:
        read_pick_scores(other, picks={"a"})
    assert "other.eval" in str(caught.value)
    stranger = _log_of(tmp_path, {"benger": {"pick": {"solution_id": "not-a-pick"}}})
    with pytest.raises(InputError, match="'not-a-pick' is not a released validation pick"):
        read_pick_scores(stranger, picks={"a"})

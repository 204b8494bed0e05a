"""BenGER as an inspect_ai task, and the log back in benger (issue 29): ``inspect eval`` of 3 Grundprinzipien items
and 1 Benchathon case against benger's stub server (inspect's ``openai-api`` provider pointed at it), then
``benger import inspect LOG`` ranks the run on the leaderboard with the log's own scores."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

pytestmark = pytest.mark.slow
pytest.importorskip("inspect_ai")

_register_commands()
runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
TASK_FILE = REPO / "src" / "benger" / "interop" / "inspect_tasks.py"
GP_ITEMS = ["gp-0001", "gp-0002", "gp-0003"]


def test_pyproject_declares_the_inspect_entry_point() -> None:
    """inspect resolves ``benger/benchathon`` by loading the ``benger`` entry point of the group ``inspect_ai``."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    module = data["project"]["entry-points"]["inspect_ai"]["benger"]
    assert module == "benger.interop.inspect_tasks"
    assert {"hf", "inspect"} <= set(data["project"]["optional-dependencies"])
    from inspect_ai._util.registry import registry_info

    tasks = __import__(module, fromlist=["x"])
    for name in ("benchathon", "grundprinzipien", "zjs", "corpus", "validation_picks"):
        assert registry_info(getattr(tasks, name)).name.endswith(name)


def _inspect() -> str:
    found = shutil.which("inspect", path=str(Path(sys.executable).parent)) or shutil.which("inspect")
    if found is None:
        pytest.skip("the inspect console script is not installed")
    return found


@pytest.fixture(scope="module")
def logged(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from benger.corpora import load_release
    from benger.testing import run_stub_server

    case = load_release(release_dir).benchathon.tasks[0].task_id
    root = tmp_path_factory.mktemp("inspect")
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
            f"{TASK_FILE}@corpus",
            "--model",
            "openai-api/stub/candidate",
            "-T",
            f"source=release:{release_dir}",
            "-T",
            f"tasks={','.join([*GP_ITEMS, case])}",
            "-T",
            "judge=openai-api/stub/judge",
            "--log-format",
            "eval",
            "--no-fail-on-error",
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    logs = sorted((root / "logs").glob("*.eval"))
    assert len(logs) == 1, done.stdout[-2000:]
    return {"log": logs[0], "root": root, "case": case}


def _log_scores(log: Path) -> dict[str, dict[str, Any]]:
    from inspect_ai.log import read_eval_log

    out: dict[str, dict[str, Any]] = {}
    for sample in read_eval_log(str(log)).samples or []:
        scores = {name.split("/")[-1]: score for name, score in (sample.scores or {}).items()}
        out[str(sample.id)] = {
            "total": scores["rubric_judge"].value,
            "benger": scores["rubric_judge"].metadata["benger"],
            "ja_nein": scores["ja_nein"].value if "ja_nein" in scores else None,
        }
    return out


def test_the_log_carries_benger_scores_and_provenance(logged: dict[str, Any]) -> None:
    scores = _log_scores(logged["log"])
    assert sorted(scores) == sorted([*(f"grundprinzipien/{i}" for i in GP_ITEMS), f"benchathon/{logged['case']}"])
    case = scores[f"benchathon/{logged['case']}"]
    assert case["benger"]["rubric_id"].startswith("falloesung@1+")
    assert case["benger"]["judge"] == "openai-api/stub/judge" and len(case["benger"]["judge_config_hash"]) == 16
    assert case["total"] == sum(case["benger"]["dimensions"].values())  # benger's own total, not the model's
    assert 0 <= case["benger"]["grade_points"] <= 18
    for item in GP_ITEMS:
        gp = scores[f"grundprinzipien/{item}"]
        assert gp["benger"]["rubric_id"].startswith("grundprinzipien@1+")
        assert gp["ja_nein"] in ("C", "I")


def test_import_inspect_ranks_the_run_with_the_same_scores(logged: dict[str, Any], release_dir: Path) -> None:
    db = logged["root"] / "store.db"
    assert runner.invoke(app, ["import", f"release:{release_dir}", "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["import", "inspect", str(logged["log"]), "--db", str(db), "--as", "stub-candidate"])
    assert result.exit_code == 0, result.output
    assert "generations: 4" in result.output and "judgements: 4" in result.output
    out = logged["root"] / "board"
    board = runner.invoke(app, ["leaderboard", "--db", str(db), "--out", str(out), "--ci", "normal"])
    assert board.exit_code == 0, board.output
    rows = list(csv.DictReader(io.StringIO((out / "leaderboard.csv").read_text(encoding="utf-8"))))
    ours = {r["corpus"]: r for r in rows if r["system"] == "stub-candidate"}
    assert set(ours) == {"benchathon", "grundprinzipien"}
    assert any(r["system"] != "stub-candidate" and r["corpus"] == "benchathon" for r in rows)  # beside the paper's
    scores = _log_scores(logged["log"])
    gp = [scores[f"grundprinzipien/{i}"] for i in GP_ITEMS]
    assert int(ours["grundprinzipien"]["n"]) == 3 and int(ours["benchathon"]["n"]) == 1
    assert float(ours["grundprinzipien"]["mean"]) == pytest.approx(sum(s["total"] for s in gp) / 3)
    assert float(ours["benchathon"]["mean"]) == pytest.approx(scores[f"benchathon/{logged['case']}"]["total"])
    assert float(ours["grundprinzipien"]["accuracy"]) == pytest.approx(sum(s["ja_nein"] == "C" for s in gp) / 3)
    from inspect_ai.log import read_eval_log

    metrics = {
        name: metric.value
        for score in read_eval_log(str(logged["log"]), header_only=True).results.scores
        for name, metric in score.metrics.items()
    }
    totals = [s["total"] for s in scores.values()]
    assert metrics["scored_mean"] == pytest.approx(sum(totals) / len(totals))  # the log's own summary agrees
    assert metrics["answered_accuracy"] == pytest.approx(float(ours["grundprinzipien"]["accuracy"]))
    assert metrics["unscored"] == 0
    assert ours["benchathon"]["judge"] == "openai-api/stub/judge"
    assert ours["benchathon"]["rubric"].startswith("falloesung@1")
    again = runner.invoke(app, ["import", "inspect", str(logged["log"]), "--db", str(db), "--as", "stub-candidate"])
    assert again.exit_code == 0, again.output  # a second import changes nothing


def test_a_log_that_is_not_benger_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.eval"
    bad.write_bytes(b"not a zip")
    result = runner.invoke(app, ["import", "inspect", str(bad), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 2 and "x.eval: not a readable inspect log" in result.output, result.output
    assert not (tmp_path / "s.db").exists()
    missing = runner.invoke(app, ["import", "inspect", str(tmp_path / "nope.eval"), "--db", str(tmp_path / "s.db")])
    assert missing.exit_code == 2 and "no such log file" in missing.output

"""The release store out to a Hugging Face datasets folder and back (issue 29): identical leaderboard CSV and
results.json, and ``datasets`` reads the export offline (``load_dataset("parquet", ...)`` and by its card)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

pytestmark = pytest.mark.slow
pytest.importorskip("pyarrow")

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def exported(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hf")
    paths = {"a": root / "a.db", "b": root / "b.db", "out": root / "export"}
    for args in (
        ["import", f"release:{release_dir}", "--db", str(paths["a"])],
        ["export", "hf", str(paths["a"]), str(paths["out"])],
        ["import", "hf", str(paths["out"]), "--db", str(paths["b"])],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    return paths


def test_release_round_trip_gives_the_same_leaderboard_and_results(exported: dict[str, Path]) -> None:
    outputs = {}
    for key in ("a", "b"):
        out = exported[key].with_suffix(".out")
        board = runner.invoke(app, ["leaderboard", "--db", str(exported[key]), "--out", str(out)])
        assert board.exit_code == 0, board.output
        analysis = runner.invoke(app, ["analyze", "--db", str(exported[key]), "--out", str(out / "analysis")])
        assert analysis.exit_code == 0, analysis.output
        outputs[key] = out
    for name in ("leaderboard.csv", "leaderboard.json", "analysis/results.json"):
        a = (outputs["a"] / name).read_text(encoding="utf-8")
        b = (outputs["b"] / name).read_text(encoding="utf-8")
        if name.endswith("results.json"):  # its provenance names the store file (path, size) and the command
            results_a, results_b = json.loads(a), json.loads(b)
            assert set(results_a) == set(results_b) and "rq5" in results_a
            a, b = (json.dumps({k: v for k, v in r.items() if k != "provenance"}) for r in (results_a, results_b))
        assert a == b, name
    rows = (outputs["a"] / "leaderboard.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) > 12  # the paper's 12 systems on two corpora
    assert (exported["out"] / "results" / "leaderboard.csv").read_text(encoding="utf-8") == "\n".join(rows) + "\n"


def test_the_export_card_names_the_release_licence_and_counts(exported: dict[str, Path]) -> None:
    card = (exported["out"] / "README.md").read_text(encoding="utf-8")
    assert "license: cc-by-4.0" in card
    assert "| tasks | grundprinzipien | grundprinzipien | 531 |" in card
    assert "| human_reviews | benchathon | benchathon | 180 |" in card
    assert "falloesung@1" in card  # the rubric the released judgements name
    manifest = json.loads((exported["out"] / "benger_export.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["generations"]["benchathon"] == 208  # 180 final + 28 superseded


LOAD = """
import json, sys
from datasets import load_dataset
folder = sys.argv[1]
judgements = load_dataset(folder, "judgements")
tasks = load_dataset("parquet", data_files={"benchathon": f"{folder}/tasks/benchathon.parquet",
                                            "grundprinzipien": f"{folder}/tasks/grundprinzipien.parquet"})
reviews = load_dataset(folder, "human_reviews", split="benchathon")
print(json.dumps({
    "judgement_splits": sorted(judgements),
    "n_judgements": judgements["benchathon"].num_rows,
    "dimensions": str(judgements["benchathon"].features["dimensions"]),
    "tasks": {k: v.num_rows for k, v in tasks.items()},
    "first_gp": tasks["grundprinzipien"][0]["task_id"],
    "reviews": reviews.num_rows,
}))
"""


def test_datasets_loads_the_export_offline(exported: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("datasets")
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    done = subprocess.run(
        [sys.executable, "-c", LOAD, str(exported["out"])],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["judgement_splits"] == ["benchathon"]
    # the generations' primary judge, the six judges on the human picks, the five others on the LLM picks
    assert got["n_judgements"] == 208 + 178 + 75
    assert "score" in got["dimensions"] and "float64" in got["dimensions"]
    assert got["tasks"] == {"benchathon": 15, "grundprinzipien": 531}
    assert got["first_gp"] == "gp-0001"
    assert got["reviews"] == 180

"""Grade points (Notenpunkte, the leaderboard's "GP" / "Grade pts") are the paper's 0-18 table of its 100-point
rubric: a row judged under a user's own rubric (examples/own-study: kurz3 with its own grades 0-4, a case's own
20-point Bewertungsbogen) shows no grade points but the percent of its rubric's total, the rubric named; a row under
the paper's rubric keeps its grade points. Chosen in one place per row (``analysis.leaderboard.scales``)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest
from tests.analysis.leaderboard_stores import tiny_store
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge._released import PRIMARY_JUDGE
from benger.testing.stub_server import run_stub_server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "own-study"
_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def own_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("own") / "own-study"
    shutil.copytree(EXAMPLE, folder)
    config = folder / "run.yaml"
    db = folder / "own.db"
    with run_stub_server(latency_ms=1) as stub:
        text = config.read_text(encoding="utf-8").replace("http://127.0.0.1:8765/v1", stub.base_url)
        config.write_text(text, encoding="utf-8")
        result = runner.invoke(app, ["run", str(config), "--db", str(db), "-q"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture(scope="module")
def paper_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("paper") / "paper.db"
    tiny_store(path, {"a": {PRIMARY_JUDGE: [60.0, 70.0, 80.0]}}).close()
    return path


def _board(db: Path, out: Path) -> tuple[list[dict[str, str]], str, str]:
    result = runner.invoke(app, ["leaderboard", "--db", str(db), "--out", str(out)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO((out / "leaderboard.csv").read_text(encoding="utf-8"))))
    return rows, (out / "leaderboard.md").read_text(encoding="utf-8"), result.output


# (store, rubric name, total, whether its grades are the paper's Notenpunkte)
CASES = [
    ("own_db", "kurz3", 30.0, False),
    ("own_db", "bogen-mm-03", 20.0, False),
    ("paper_db", "falloesung", 100.0, True),
]


@pytest.mark.parametrize(("store", "rubric", "total", "notenpunkte"), CASES, ids=[c[1] for c in CASES])
def test_grade_points_only_on_the_papers_scale(
    request: pytest.FixtureRequest, tmp_path: Path, store: str, rubric: str, total: float, notenpunkte: bool
) -> None:
    rows, markdown, printed = _board(request.getfixturevalue(store), tmp_path / "out")
    (row,) = [r for r in rows if r["rubric"].split("@")[0] == rubric]
    mean = float(row["mean"])
    line = next(ln for ln in markdown.splitlines() if ln.startswith("|") and f"| {float(row['mean']):.1f} |" in ln)
    cells = [c.strip() for c in line.strip("|").split("|")]
    grade_cell = cells[["Rank", "System", "Config", "Tier", "Judge", "Judge cfg", "Corpus", "n", "Mean", "95% CI",
                        "Grade pts"].index("Grade pts")]  # fmt: skip
    if notenpunkte:
        assert row["mean_grade_points"] != "" and row["mean_percent"] == ""
        assert grade_cell == f"{float(row['mean_grade_points']):.1f}"
    else:
        assert row["mean_grade_points"] == "", row  # the own table's grades are no Notenpunkte
        assert float(row["mean_percent"]) == pytest.approx(100 * mean / total)
        assert grade_cell == f"{100 * mean / total:.0f}%"
        flat = " ".join(printed.split())
        assert f"Grade pts of rubric {row['rubric']}: percent of its total {total:g}" in flat, flat
    assert "Notenpunkte" not in printed or notenpunkte

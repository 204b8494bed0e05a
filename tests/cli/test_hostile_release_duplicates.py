"""A release file that holds a record twice is refused, naming both (2026-12-01 (c), hostile user).

Before, a review given twice (same pick, same grader) was counted twice ("human reviews: 181"), and an anchor
score given twice (same judge, same pick) silently replaced the first: the paper judge GPT-5.4-mini's r on the
human picks fell from 0.76 to 0.52 in ``benger validate-judge --recorded gpt54mini``, exit 0.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()


def _damaged(release_dir: Path, tmp_path: Path, damage: str) -> Path:
    copy = tmp_path / "release"
    shutil.copytree(release_dir, copy)
    if damage == "review twice":
        grades = copy / "data/processed/benchathon_human_grades.json"
        records = json.loads(grades.read_text(encoding="utf-8"))
        grades.write_text(json.dumps([*records, records[0]], indent=1), encoding="utf-8")
    else:
        anchors = copy / "data/processed/csv/creator_calibration_anchors.csv"
        row = next(r for r in anchors.read_text(encoding="utf-8").splitlines() if r.startswith("gpt54mini,"))
        judge, label, pick, pool, _, creator = row.split(",")
        with anchors.open("a", encoding="utf-8") as fh:
            fh.write(f"{judge},{label},{pick},{pool},0.0000,{creator}\n")
    return copy


@pytest.mark.parametrize(
    ("damage", "where", "message"),
    [
        ("review twice", "benchathon_human_grades.json:", "record 181, field 'grader_id': duplicate solution_id + "
         "grader_id"),
        ("anchor twice", "creator_calibration_anchors.csv:360", "field 'solution_id': duplicate judge + "
         "solution_id ('gpt54mini', "),
    ],
)  # fmt: skip
def test_a_release_record_given_twice_is_refused(
    damage: str, where: str, message: str, tmp_path: Path, release_dir: Path
) -> None:
    copy = _damaged(release_dir, tmp_path, damage)
    db = tmp_path / "r.db"
    for args in (["import", f"release:{copy}", "--db", str(db)], ["validate-judge", "--recorded", "gpt54mini",
                                                                    "--release", str(copy)]):  # fmt: skip
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert where in result.output and message in result.output, result.output
        assert "(first " in result.output
    assert not db.exists()

"""Table 1 of ``benger analyze`` names what it leaves out (the project's rule: a left-out row is named).

Before: ``benger analyze --corpus faelle`` on an own study whose case f3 has its own Bewertungsbogen (20 points,
the other cases a 30-point rubric) showed the 30-point group as Table 1 and left f3's generations out without a
word. Table 1 is still one rubric's group (a mean over both would add points of two scales), and each scored
group of the primary judge that it leaves out is named in ``rq1.leaderboard.left_out`` (its rubric, its cases,
its generations and why), in the report's notes and on the command's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.analysis.test_leaderboard_task_rubrics import (
    BOGEN,
    BOGEN_RUBRIC,
    KURZ,
    KURZ_RUBRIC,
    SCORES,
    _records,
    _tasks,
)
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge import save_rubrics
from benger.schema import Corpus
from benger.store import open_store

_register_commands()
runner = CliRunner()


def _store(path: Path, scores: list[tuple[str, str, str, float]]) -> Path:
    store = open_store(path)
    try:
        store.add_corpus(Corpus(name="faelle", tasks=list(_tasks().values())))
        gens, judgements = _records(scores)
        for g in gens:
            store.save_generation(g)
        for j in judgements:
            store.save_judgement(j)
        save_rubrics(store, [KURZ_RUBRIC, BOGEN_RUBRIC])
    finally:
        store.close()
    return path


# (scores, the groups Table 1 leaves out: (rubric, cases, n))
CASES = {
    "a case with its own Bewertungsbogen": (SCORES, [(BOGEN, ["f3"], 2)]),
    "one rubric only": ([s for s in SCORES if s[2] == KURZ], []),
}


@pytest.mark.parametrize("case", CASES)
def test_table1_names_the_groups_it_leaves_out(case: str, tmp_path: Path) -> None:
    scores, expected = CASES[case]
    db, out = _store(tmp_path / "own.db", scores), tmp_path / "out"
    args = ["analyze", "--db", str(db), "--corpus", "faelle", "--out", str(out), "--n-boot", "100"]
    result = runner.invoke(app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    block = json.loads((out / "results.json").read_text(encoding="utf-8"))["rq1"]["leaderboard"]
    assert {r["rubric"] for r in block["rows"] if r.get("kind") == "system"} == {KURZ}  # Table 1: one rubric
    assert [(g["rubric"], g["tasks"], g["n"]) for g in block["left_out"]] == expected
    printed = [line for line in result.output.splitlines() if "left out of Table 1" in line]
    assert len(printed) == len(expected), result.output
    for (rubric, cases, n), line in zip(expected, printed, strict=True):
        assert f"{n} scored generation(s)" in line and rubric in line and f"case {cases[0]}" in line, line
    report = (out / "report.html").read_text(encoding="utf-8")
    assert all(f"own Bewertungsbogen of case {cases[0]}" in report for _, cases, _ in expected)

"""docs/own-study.md followed as written (issue 31, "Done when"): a copy of examples/own-study, the stub server as
system and judge, then every ``benger`` command of the page's bash blocks in order (run, analyze, import-reviews,
validate-judge), with a reviews file in the page's format for the three stored generations, and analyze again:
each exits 0 and the report gets the judge-human agreement block the page promises."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "own-study.md"


def _commands() -> list[list[str]]:
    """The ``benger ...`` commands of the page's bash blocks, in order, without comments and the stub server."""
    text = DOC.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip().removesuffix("&").strip()
            if line.startswith("benger ") and not line.startswith("benger stub-server"):
                commands.append(shlex.split(line)[1:])
    return commands


def _reviews_csv(db: Path) -> str:
    """The page's review format (one column per dimension) for every stored generation: 2 blind, 1 creator."""
    store = open_store(db)
    try:
        gens = sorted(store.generations(), key=lambda g: g.task_id)
    finally:
        store.close()
    assert len(gens) == 3
    # valid under kurz3 (10/10 step 2/10) and mm-03's Bogen (8/8 step 2/4) alike
    marks = [((6, 6, 3), (7, 4, 4), (6, 6, 4)), ((4, 4, 2), (5, 6, 3), (6, 6, 4)), ((3, 2, 4), (8, 8, 1), (5, 4, 2))]
    lines = ["solution_id,reviewer,role,ergebnis,aufbau,argumentation"]
    for g, rows in zip(gens, marks, strict=True):
        for who, dims in zip(("R1,blind", "R2,blind", "Prof-A,creator"), rows, strict=True):
            lines.append(f"{g.generation_id},{who},{','.join(map(str, dims))}")
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_own_study_page_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commands = _commands()
    assert [c[0] for c in commands] == ["run", "analyze", "import-reviews", "validate-judge"]
    _register_commands()
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "examples" / "own-study", tmp_path / "examples" / "own-study")
    with run_stub_server(latency_ms=1) as stub:
        config = tmp_path / "examples" / "own-study" / "run.yaml"
        text = config.read_text(encoding="utf-8")
        assert "http://127.0.0.1:8765/v1" in text  # the page's `benger stub-server --port 8765`
        config.write_text(text.replace("http://127.0.0.1:8765/v1", stub.base_url), encoding="utf-8")
        printed = {}
        for args in commands:
            if args[0] == "import-reviews":
                Path(args[1]).write_text(_reviews_csv(tmp_path / "study.db"), encoding="utf-8")
            done = runner.invoke(app, args)
            assert done.exit_code == 0, (args, done.output)
            printed[args[0]] = " ".join(done.output.split())
        again = runner.invoke(app, commands[1])  # "Afterwards `benger analyze --corpus faelle` adds ..."
        assert again.exit_code == 0, again.output
    assert "imported 9 reviews (6 blind, 3 creator) of 3 solutions by 3 reviewers" in printed["import-reviews"]
    assert "Judge validation on the reviewed solutions of faelle" in printed["validate-judge"]
    assert (tmp_path / "vj" / "validate-judge.json").is_file()
    results = json.loads((tmp_path / "analysis" / "results.json").read_text(encoding="utf-8"))
    assert results["provenance"]["corpus"] == "faelle"
    skipped = {s["block"] for s in results["skipped"]}
    assert not any(b.startswith("rq5.judge_vs_pool") or b == "rq5.agreement" for b in skipped), skipped
    assert (tmp_path / "analysis" / "report.html").is_file()
    block = results["rq5"]["judge_vs_pool"]["mein-judge"]["llm"]
    # blind totals per generation (15, 15), (10, 14) of kurz3's 30 and (9, 17) of mm-03's 20-point Bogen: percent
    # means 50, 40, 65 (analyze compares on percent of each solution's rubric total, as validate-judge does)
    assert block["n"] == 3 and block["mean_pool"] == pytest.approx(155 / 3)
    assert block["unit"].startswith("percent of each solution's rubric total")

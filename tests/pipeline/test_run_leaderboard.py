"""Issue 17: the leaderboard is built by the caller after the run (the pipeline never imports analysis).

``benger run`` prints and exports the board of the run's corpora and systems (the ``--system`` filter
applied), ranked by the config's ``leaderboard`` options; ``run_config`` rejects a "leaderboard" stage.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.analysis import leaderboard_from_store
from benger.pipeline import STAGES, RunConfig, run_config
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

from .conftest import make_corpora


def _write_config(path: Path, base_url: str, leaderboard: str) -> None:
    common = f"provider: openai-compatible, model: stub, base_url: '{base_url}'"
    path.write_text(
        "corpora: [e2e-fall, e2e-gp]\n"
        f"systems:\n  - {{name: a, {common}}}\n  - {{name: b, {common}, temperature: 0.5}}\n"
        f"judges:\n  - {{name: j1, {common}}}\n  - {{name: j2, {common}, temperature: 0.5}}\n"
        f"{leaderboard}"
        "retry: {max_retries: 0}\n",
        encoding="utf-8",
    )


def _invoke(args: list[str]) -> tuple[int, str]:
    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    result = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    return result.exit_code, result.output


def test_benger_run_ranks_the_run_with_the_configs_leaderboard_options(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    store = open_store(db)
    for corpus in make_corpora(n_fall=2, n_gp=1):
        store.add_corpus(corpus)
    store.close()
    config, out = tmp_path / "run.yaml", tmp_path / "out"
    with run_stub_server(latency_ms=1) as stub:
        _write_config(config, stub.base_url, "leaderboard: {ci: bootstrap, seed: 3, n_resamples: 200, judges: [j2]}\n")
        # system b's outputs are in the store too: the run's --system filter keeps them off the board
        code, output = _invoke(["generate", str(config), "--db", str(db), "--system", "b", "-q"])
        assert code == 0, output
        code, output = _invoke(["run", str(config), "--db", str(db), "--system", "a", "-q", "--out", str(out)])
    assert code == 0, output
    printed = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    store = open_store(db)
    expected = leaderboard_from_store(store, corpora=["e2e-fall", "e2e-gp"], systems=["a"], judges=["j2"],
                                      ci="bootstrap", seed=3, n_resamples=200)  # fmt: skip
    store.close()
    assert printed == json.loads(expected.to_json())
    rows = [r for r in expected.rows if r.n]
    # system a only (b filtered out), judge j2 only (the leaderboard's judges), 2 Falllösungen + 1 item
    assert sorted((r.system, r.judge, r.corpus, r.n) for r in rows) == [
        ("a", "j2", "e2e-fall", 2),
        ("a", "j2", "e2e-gp", 1),
    ]
    assert (expected.ci, expected.seed, expected.n_resamples) == ("bootstrap", 3, 200)
    assert "a" in output and "j2" in output


def test_without_leaderboard_judges_the_board_has_the_runs_judges(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    store = open_store(db)
    for corpus in make_corpora(n_fall=1, n_gp=1):
        store.add_corpus(corpus)
    store.close()
    config, other = tmp_path / "run.yaml", tmp_path / "other.yaml"
    with run_stub_server(latency_ms=1) as stub:
        _write_config(config, stub.base_url, "leaderboard: {ci: normal}\n")
        # judge j2 also scores the outputs (another config): the run of j1 alone shows j1's rows only
        _write_config(other, stub.base_url, "")
        code, output = _invoke(["run", str(other), "--db", str(db), "-q"])
        assert code == 0, output
        text = config.read_text(encoding="utf-8").replace("  - {name: j2", "  # - {name: j2")
        config.write_text(text, encoding="utf-8")
        code, output = _invoke(["run", str(config), "--db", str(db), "-q", "--out", str(tmp_path / "out")])
    assert code == 0, output
    printed = json.loads((tmp_path / "out" / "leaderboard.json").read_text(encoding="utf-8"))
    judged = sorted({(r["system"], r["judge"]) for r in printed["rows"] if r["n"]})
    assert judged == [("a", "j1"), ("b", "j1")]


async def test_run_config_has_no_leaderboard_stage(tmp_path: Path) -> None:
    assert STAGES == ("generate", "judge")
    store = open_store(tmp_path / "s.db")
    with pytest.raises(ValueError, match=r"unknown stage\(s\) 'leaderboard'.*leaderboard_from_store"):
        await run_config(RunConfig(corpora=["demo"]), store, stages=("generate", "judge", "leaderboard"))
    assert store.corpus_names() == []  # rejected before any work
    store.close()

"""Two systems (or judges) of one run config with the same name are refused, naming both entries.

Observed (new-user attack, 2026-12-03): two entries ``name: a`` with different models gave exit 0; the
leaderboard showed two identical names told apart only by config hash, and the bundle merged them into one
Browse page."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.errors import InputError
from benger.pipeline import load_run_config

HEAD = "corpora: [demo-grundprinzipien]\n"
STUB_A = "{name: a, provider: openai-compatible, model: one, base_url: 'http://127.0.0.1:9/v1'}"
STUB_A2 = "{name: a, provider: openai-compatible, model: two, base_url: 'http://127.0.0.1:9/v1'}"
STUB_B = "{name: b, provider: openai-compatible, model: one, base_url: 'http://127.0.0.1:9/v1'}"


@pytest.mark.parametrize(
    ("body", "section", "field"),
    [
        (f"systems: [{STUB_A}, {STUB_A2}]\n", "systems", "systems[1].name"),
        (f"systems: [{STUB_A}, {STUB_B}, {STUB_A}]\n", "systems", "systems[2].name"),
        ("systems: [qwen2.5-coder-0.5b-instruct, qwen2.5-coder-0.5b-instruct]\n", "systems", "systems[1].name"),
        (f"systems: [{STUB_B}]\njudges: [{STUB_A}, {STUB_A2}]\n", "judges", "judges[1].name"),
    ],
)
def test_a_second_system_of_the_same_name_is_refused(tmp_path: Path, body: str, section: str, field: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(InputError) as caught:  # the config's systems and judges are resolved when it is loaded
        load_run_config(path)
    assert caught.value.field == field
    assert field.split("[")[0] == section
    assert caught.value.file == str(path)
    assert "is already used by" in caught.value.reason


@pytest.mark.parametrize(
    "body",
    [f"systems: [{STUB_A}, {STUB_B}]\njudges: [{STUB_A}]\n", f"systems: [{STUB_A}]\njudges: [{STUB_B}]\n"],
    ids=["system-and-judge-share-a-name", "distinct"],
)
def test_distinct_names_and_a_judge_named_like_a_system_are_accepted(tmp_path: Path, body: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    config = load_run_config(path)
    assert len(config.resolved_systems()) + len(config.resolved_judges()) >= 2


def test_the_command_refuses_before_any_store_is_written(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(HEAD + f"systems: [{STUB_A}, {STUB_A2}]\n", encoding="utf-8")
    db = tmp_path / "run.db"
    result = CliRunner().invoke(app, ["generate", str(path), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert "systems[1].name" in result.output and "'a'" in result.output
    assert "Traceback" not in result.output
    if db.exists():  # an empty file at most: no corpus was imported
        with sqlite3.connect(db) as con:
            assert con.execute("select count(*) from sqlite_master where type='table'").fetchone()[0] == 0

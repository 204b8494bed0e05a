"""A command that fails on bad input leaves no store behind and changes none (2026-12-01 (c), hostile user).

Before: ``benger import BAD.jsonl`` and ``benger import release:DAMAGED`` created an empty store (``./benger.db``
without ``--db``) before they read the file; ``benger estimate CONFIG --release DAMAGED`` did too;
``benger validate-judge CONFIG`` with no ``judges:`` imported the whole release into a new store and then died
with "internal error: IndexError: list index out of range" (exit 1); ``--judge nobody`` imported the release
before saying the judge is unknown. And ``benger leaderboard`` on a store with nothing to rank printed an
empty table and nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
STUB = "{name: j, provider: openai-compatible, model: j, base_url: 'http://127.0.0.1:9/v1'}"


def _files(tmp_path: Path) -> dict[str, Path]:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"task_id": "a1", "case": "Fall"\n', encoding="utf-8")
    not_a_release = tmp_path / "norelease"
    not_a_release.mkdir()
    run = tmp_path / "run.yaml"
    run.write_text(f"corpora: [demo]\nsystems:\n  - {STUB}\n", encoding="utf-8")
    return {"bad": bad, "norelease": not_a_release, "run": run}


# (arguments with {placeholders}, a phrase of the message); every one is exit 2 and creates no store
WITHOUT_RELEASE = [
    (["import", "{bad}"], "bad.jsonl:1: invalid JSON"),
    (["import", "release:{norelease}"], "not a BenGER release folder"),
    (["estimate", "{run}", "--release", "{norelease}"], "not a BenGER release folder"),
]


@pytest.mark.parametrize(("args", "message"), WITHOUT_RELEASE, ids=lambda a: a[0] if isinstance(a, list) else None)
def test_a_failed_command_creates_no_store(args: list[str], message: str, tmp_path: Path) -> None:
    files = _files(tmp_path)
    db = tmp_path / "new.db"
    result = runner.invoke(app, [a.format(**files) for a in args] + ["--db", str(db)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not db.exists()


def test_import_without_db_creates_no_default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BENGER_DB", raising=False)
    result = runner.invoke(app, ["import", str(files["bad"])])
    assert result.exit_code == 2, result.output
    assert not (tmp_path / "benger.db").exists()


def test_leaderboard_of_a_store_with_nothing_to_rank_says_so(tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    assert runner.invoke(app, ["import", "demo", "--db", db]).exit_code == 0
    result = runner.invoke(app, ["leaderboard", "--db", db])
    assert result.exit_code == 0, result.output  # an empty store can be read (tests/cli/test_store_errors.py)
    assert "nothing to rank: the store holds no generation yet" in result.output


# ------------------------------------------------------------------------- with the released data
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["CONFIG"], "run.yaml, field 'judges': nothing to run: no judges"),  # was IndexError, exit 1
        (["--judge", "nobody"], "field 'judges[0]': unknown judge 'nobody'"),  # was: release imported first
    ],
)
def test_validate_judge_without_a_judge_leaves_no_store(
    extra: list[str], message: str, tmp_path: Path, release_dir: Path
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text("corpora: [benchathon]\nconcurrency: 2\n", encoding="utf-8")
    db = tmp_path / "vj.db"
    args = [str(config) if a == "CONFIG" else a for a in extra]
    result = runner.invoke(app, ["validate-judge", *args, "--release", str(release_dir), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert message in result.output and "internal error" not in result.output
    assert "importing the release" not in result.output
    assert not db.exists()

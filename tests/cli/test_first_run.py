"""What a new user meets on the first run (issue 26, "Also on the first run"): `benger estimate` and
`benger run --dry-run` print the same table when they see the same release, and `benger serve` on a store
without accounts says how to create the first one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import uvicorn
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store

REPO = Path(__file__).resolve().parents[2]
KEYS = {name: "not-used" for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "DEEPINFRA_API_KEY")}
_register_commands()
runner = CliRunner()


def _table(args: list[str], env: dict[str, str]) -> str:
    result = runner.invoke(app, args, env={"COLUMNS": "250", **env})
    assert result.exit_code == 0, result.output
    return result.output


def test_estimate_and_dry_run_print_the_same_table(tmp_path: Path) -> None:
    config = shutil.copy(REPO / "examples" / "stub.yaml", tmp_path / "stub.yaml")
    db = str(tmp_path / "run.db")
    estimate = _table(["estimate", str(config), "--db", db], {})
    assert "1,240,256" in estimate  # the judge's input tokens of examples/stub.yaml on the demo corpus
    assert _table(["run", str(config), "--db", db, "--dry-run"], {}) == estimate


def test_estimate_and_dry_run_agree_on_the_release(tmp_path: Path, release_dir: Path) -> None:
    """The paper's systems on the release: estimate --release and --dry-run under BENGER_RELEASE (the output
    lengths observed in the release) are the same table; without the release the dry run counts every call at
    max_output_tokens, and says so."""
    db = tmp_path / "paper.db"
    store = open_store(str(db))
    try:
        store.import_release(release_dir)
    finally:
        store.close()
    config = str(REPO / "examples" / "paper-systems.yaml")
    estimate = _table(["estimate", config, "--db", str(db), "--release", str(release_dir)], KEYS)
    dry_run = _table(["run", config, "--db", str(db), "--dry-run"], {**KEYS, "BENGER_RELEASE": str(release_dir)})
    assert dry_run == estimate
    opus = next(line for line in estimate.splitlines() if "generate" in line and "claude-opus-4-7" in line)
    assert "4,296,435" in opus and "release mean words" in opus  # the estimate figure
    without = _table(["run", config, "--db", str(db), "--dry-run"], {**KEYS, "BENGER_RELEASE": ""})
    opus = next(line for line in without.splitlines() if "generate" in line and "claude-opus-4-7" in line)
    assert "4,368,000" in opus and "max_output_tokens" in opus  # 546 calls x 8,000: the dry-run figure


@pytest.mark.parametrize("accounts", [0, 1])
def test_serve_names_the_first_account_to_create(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, accounts: int
) -> None:
    pytest.importorskip("fastapi")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: None)  # no server: only what serve prints
    db = str(tmp_path / "study.db")
    if accounts:
        made = runner.invoke(app, ["study", "create-user", "admin", "--role", "admin", "--db", db,
                                   "--password", "ein-langes-Passwort-2026"])  # fmt: skip
        assert made.exit_code == 0, made.output
    result = runner.invoke(app, ["serve", "--db", db], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    hint = f"no accounts yet: create the first admin with `benger study create-user NAME --role admin --db {db}`"
    assert (hint in result.output) == (accounts == 0), result.output

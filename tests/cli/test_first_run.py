"""What a new user meets on the first run (issue 26, "Also on the first run"): `benger estimate` and
`benger run --dry-run` print the same table when they see the same release, and `benger serve` on a store
without accounts says how to create the first one."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
@pytest.mark.parametrize("accounts", [0, 1])
def test_serve_names_the_first_account_to_create(tmp_path: Path, accounts: int) -> None:
    """The real `benger serve` process (in-process, uvicorn's logging configuration and the app's threads would
    outlive the test runner's captured streams: the whole test session crashed on 'lost sys.stderr')."""
    pytest.importorskip("fastapi")
    db = str(tmp_path / "study.db")
    if accounts:
        made = runner.invoke(app, ["study", "create-user", "admin", "--role", "admin", "--db", db,
                                   "--password", "ein-langes-Passwort-2026"])  # fmt: skip
        assert made.exit_code == 0, made.output
    else:
        open_store(db).close()
    command = [sys.executable, "-c", "from benger.cli import main; main()", "serve", "--db", db,
               "--port", str(_free_port())]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "250", "PYTHONUNBUFFERED": "1"})  # fmt: skip
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        for line in proc.stdout:  # up to uvicorn's own start line: everything serve prints before it serves
            lines.append(line)
            if "Uvicorn running" in line or "Application startup complete" in line or time.monotonic() > deadline:
                break
    finally:
        proc.kill()
        proc.wait(timeout=30)
    output = "".join(lines)
    assert "benger study app on http://127.0.0.1" in output, output
    hint = f"no accounts yet: create the first admin with `benger study create-user NAME --role admin --db {db}`"
    assert (hint in output) == (accounts == 0), output

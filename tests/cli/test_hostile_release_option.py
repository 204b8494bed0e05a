"""``--release FILE`` says it is a file, not "no such folder" (2026-12-01 (c), hostile user)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()


@pytest.mark.parametrize(
    "command", [["demo", "--db", "{tmp}/d.db"], ["validate-judge", "--recorded", "gpt54mini"]], ids=lambda c: c[0]
)
@pytest.mark.parametrize(("make", "what"), [("file", "a file, not a folder"), ("nothing", "no such folder")])
def test_the_release_option_names_what_is_there(command: list[str], make: str, what: str, tmp_path: Path) -> None:
    release = tmp_path / "benger-release.zip"
    if make == "file":
        release.write_bytes(b"PK")
    result = runner.invoke(app, [c.format(tmp=tmp_path) for c in command] + ["--release", str(release)])
    assert result.exit_code == 2, result.output
    assert f"error: --release {release}: {what}" in result.output
    assert not (tmp_path / "d.db").exists()

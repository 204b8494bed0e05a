"""Every ``--out PATH`` option is checked in one place (``out_folder``) before the command does any work."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()

# commands taking --out, each with a store/release that does not exist: were --out checked after the work, the
# message would be about the missing store, not about --out
COMMANDS = [
    ["leaderboard", "--db", "{tmp}/missing.db"],
    ["analyze", "--db", "{tmp}/missing.db"],
    ["reproduce", "--release", "{tmp}/no-release"],
    ["study", "export", "--study", "1", "--db", "{tmp}/missing.db"],
    ["validate-judge", "--recorded", "gpt54mini", "--release", "{tmp}/no-release"],
    ["estimate", "{tmp}/missing.yaml"],
]


def _invoke(command: list[str], tmp_path: Path, out: Path) -> tuple[int, str]:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command] + ["--out", str(out)]
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    return result.exit_code, result.output


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_an_existing_file_is_not_a_folder(command: list[str], tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("keep me")
    code, output = _invoke(command, tmp_path, target)
    assert code == 2, output
    assert output.strip().splitlines() == [f"error: field '--out': {target}: a file, not a folder"]
    assert target.read_text() == "keep me"
    assert not (tmp_path / "missing.db").exists()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_folder_that_cannot_be_created(command: list[str], tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    code, output = _invoke(command, tmp_path, tmp_path / "a-file" / "sub")
    assert code == 2, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: field '--out': {tmp_path / 'a-file' / 'sub'}: cannot")
    assert "internal error" not in output


def test_a_new_folder_passes_and_the_check_leaves_nothing_behind(tmp_path: Path) -> None:
    out = tmp_path / "new" / "deep"
    code, output = _invoke(["leaderboard", "--db", "{tmp}/missing.db"], tmp_path, out)
    assert code == 2  # the missing store, reported after --out was accepted
    assert "--out" not in output and "no benger store" in output
    assert not (tmp_path / "new").exists()


def test_the_check_keeps_existing_folders_and_removes_only_what_it_made(tmp_path: Path) -> None:
    from benger.cli._options import out_folder

    out = tmp_path / "new" / "deep"
    assert out_folder(out) == out and not (tmp_path / "new").exists()
    (tmp_path / "kept").mkdir()
    assert out_folder(tmp_path / "kept") == tmp_path / "kept" and (tmp_path / "kept").is_dir()

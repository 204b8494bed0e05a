"""An output file that cannot be written is named, exit 2, not "internal error" (2026-12-01 (c), hostile user).

``--out`` is checked up front (a folder benger can create and write), but a folder named like one of the
output files (``out/leaderboard.csv/``), a read-only output file or a full disk only show when the file is
written. Before: "internal error: IsADirectoryError: [Errno 21] Is a directory: 'out/leaderboard.csv' (a bug in
benger ...)", exit 1, from leaderboard, estimate, validate-judge and reproduce alike (reproduce named its
temporary file). The CLI's one error boundary now turns an OSError that names a file into
``error: FILE: reason``, exit 2 (for a rename: the destination).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands, report_error

_register_commands()
runner = CliRunner()


def test_leaderboard_and_estimate_name_the_file_in_the_way(tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    assert runner.invoke(app, ["import", "demo", "--db", db]).exit_code == 0
    config = tmp_path / "run.yaml"
    config.write_text(
        "corpora: [demo]\nsystems:\n  - {name: s, provider: openai-compatible, model: s, "
        "base_url: 'http://127.0.0.1:9/v1'}\n",
        encoding="utf-8",
    )
    for args, name in ((["leaderboard"], "leaderboard.csv"), (["estimate", str(config)], "estimate.json")):
        out = tmp_path / f"out-{name}"
        (out / name).mkdir(parents=True)
        result = runner.invoke(app, [*args, "--db", db, "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert f"error: {out / name}: Is a directory" in result.output
        assert "internal error" not in result.output


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (IsADirectoryError(21, "Is a directory", "out/x.csv"), "error: out/x.csv: Is a directory"),
        (PermissionError(13, "Permission denied", "out/x.md"), "error: out/x.md: Permission denied"),
        (OSError(28, "No space left on device", "out/x.json"), "error: out/x.json: No space left on device"),
        (IsADirectoryError(21, "Is a directory", "out/.x.tmp", None, "out/x.json"), "error: out/x.json: Is a dir"),
    ],
)
def test_an_os_error_naming_a_file_is_one_line_exit_2(
    exc: OSError, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report_error(exc, debug=False) == 2
    assert capsys.readouterr().err.startswith(line)


def test_an_os_error_without_a_file_is_still_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    assert report_error(ConnectionResetError(104, "Connection reset by peer"), debug=False) == 1
    assert "internal error: ConnectionResetError" in capsys.readouterr().err


def test_reproduce_names_the_results_file(tmp_path: Path, release_dir: Path) -> None:
    (tmp_path / "results.json").mkdir()
    result = runner.invoke(app, ["reproduce", "--release", str(release_dir), "--out", str(tmp_path), "--n-boot", "100"])
    assert result.exit_code == 2, result.output
    assert f"error: {tmp_path / 'results.json'}: Is a directory" in result.output

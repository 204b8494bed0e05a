"""``benger study create-user`` / ``set-password`` without a terminal read the password from standard input's first
line, without Python's "GetPassWarning: Can not control echo on the terminal" (attack of 2026-12-04: the warning came
before benger's own message)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # new processes

BENGER = [sys.executable, "-c", "from benger.cli import main; main()"]


def _benger(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BENGER, *args], input=stdin, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("ending", ["\n", "\r\n", ""])
def test_a_piped_password_creates_the_account_without_a_warning(tmp_path: Path, ending: str) -> None:
    db = str(tmp_path / "s.db")
    created = _benger(["study", "create-user", "anna", "--role", "admin", "--db", db], f"lang-genug-123{ending}")
    assert created.returncode == 0 and created.stderr == "", created.stderr
    assert created.stdout.startswith("created anna (admin)")
    reset = _benger(["study", "set-password", "anna", "--db", db], "noch-laenger-456\nsecond line ignored\n")
    assert reset.returncode == 0 and reset.stderr == "", reset.stderr


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "error: the input ended while benger was asking for a value; give it as an option instead"),
        ("\n", "A password needs at least"),
    ],
)
def test_no_or_an_empty_piped_password_is_refused_in_one_line(tmp_path: Path, stdin: str, message: str) -> None:
    db = tmp_path / "s.db"
    refused = _benger(["study", "create-user", "anna", "--role", "admin", "--db", str(db)], stdin)
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], refused.stderr
    assert "GetPassWarning" not in refused.stderr

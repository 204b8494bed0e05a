"""A reader that goes away (``benger systems | head -1``): exit 141 (128 + SIGPIPE, what a shell reports), nothing
on stderr, wherever the broken pipe is met: a rich table, typer's echo, typer's help, an eager option.

Before: exit 1 (rich's own handling and typer's) for every one of them, which scripts read as a failure of
benger, and "internal error: BrokenPipeError" for a command that wrote with typer.echo.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benger._console import EXIT_BROKEN_PIPE, console

BENGER = [sys.executable, "-c", "from benger.cli import main; main()"]

# (id, arguments; {db} is a store holding the demo corpora): each writes to stdout in its own way
COMMANDS = [
    ("rich-table", ["systems"]),
    ("rich-store-table", ["corpora", "--db", "{db}"]),
    ("typer-help", ["--help"]),
    ("command-help", ["run", "--help"]),
    ("eager-version", ["--version"]),
    ("typer-echo", ["local-model", "smollm2-135m"]),
]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pipe") / "s.db"
    subprocess.run([*BENGER, "import", "demo", "--db", str(path)], check=True, capture_output=True, timeout=120)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("args", [c[1] for c in COMMANDS], ids=[c[0] for c in COMMANDS])
def test_a_closed_reader_ends_benger_quietly_with_141(db: Path, args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before benger writes its first byte
    try:
        done = subprocess.run(
            [*BENGER, *[a.replace("{db}", str(db)) for a in args]],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (EXIT_BROKEN_PIPE, "")


@pytest.mark.slow
def test_an_open_reader_still_gets_everything_and_exit_0() -> None:
    done = subprocess.run([*BENGER, "systems"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "gpt-5.4-mini" in done.stdout and done.stderr == ""


class _Gone(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_every_benger_console_leaves_with_141_on_a_broken_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        console(file=_Gone()).print("Zeile")
    assert leaving.value.code == EXIT_BROKEN_PIPE == 141

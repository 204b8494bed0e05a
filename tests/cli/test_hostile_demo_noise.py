"""``benger demo --release`` with a bad store prints one error line, no llama.cpp noise (2026-12-01 (c)).

Before, the vocabulary-only load of the demo model (token counting for the plan) let llama.cpp's C code write
"llama_context: n_ctx_seq (512) > n_ctx_train (0) -- possible training context overflow" to the terminal
before anything else, here right before the one error line: a warning about a context
overflow that does not exist. The load now runs with file descriptor 2 sent to /dev/null.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENGER = Path(sys.executable).with_name("benger")


@pytest.mark.slow
def test_the_vocabulary_load_writes_nothing_to_the_terminal(tmp_path: Path, release_dir: Path) -> None:
    bad = tmp_path / "not-a-store.db"
    bad.write_text("not a database\n", encoding="utf-8")
    proc = subprocess.run(
        [str(BENGER), "demo", "--release", str(release_dir), "--db", str(bad), "--limit", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    advice = "run benger import/generate first, or pass --db"
    assert proc.stderr.splitlines() == [f"error: {bad}: not an SQLite database, not a benger store ({advice})"]


@pytest.mark.slow
def test_native_writes_to_fd_2_are_silenced_and_restored() -> None:
    code = (
        "import os, sys\n"
        "from benger.llm._llama import _native_stderr_silenced\n"
        "with _native_stderr_silenced():\n"
        "    os.write(2, b'native noise\\n')\n"
        "os.write(2, b'after\\n')\n"
        "print('python', file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "after\npython\n"

"""``benger leaderboard`` loads OpenBLAS (numpy's copy; scipy's where ``--ci t`` asks it) with one thread (issue
26: each copy's worker thread spun ~40 ms CPU at load on a 2-core machine; the leaderboard calls no BLAS routine).
A user's own ``OPENBLAS_NUM_THREADS`` wins, and the environment is as before after the command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benger.cli._leaderboard import BLAS_THREADS, one_blas_thread

from .test_lazy_imports import _small_store


def test_one_thread_inside_the_block_and_the_environment_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BLAS_THREADS, raising=False)
    with one_blas_thread():
        assert os.environ[BLAS_THREADS] == "1"
    assert BLAS_THREADS not in os.environ


def test_the_users_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BLAS_THREADS, "4")
    with one_blas_thread():
        assert os.environ[BLAS_THREADS] == "4"
    assert os.environ[BLAS_THREADS] == "4"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
def test_the_command_runs_in_one_os_thread(tmp_path: Path) -> None:
    db = tmp_path / "small.db"
    _small_store(db)
    probe = (
        "import os, sys, contextlib, io\nfrom benger.cli import main\n"
        f"sys.argv = ['benger', 'leaderboard', '--db', {str(db)!r}]\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main()\n"
        "assert 'numpy' in sys.modules and 'scipy' not in sys.modules\n"  # auto's t at n = 3: benger.stats._t_table
        "print(len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != BLAS_THREADS}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "None"]

"""Stores that cannot be opened or written: one message that says what to do, exit 2; reading still works.

File permissions are checked for real: when the tests run as root (who may write anything) the console
script runs as the unprivileged user ``nobody`` through ``setpriv``.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

BENGER = Path(sys.executable).with_name("benger")
ADVICE = "make the file and its folder writable for this user, or copy the store to a writable folder"


def _as_user(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: permissions cannot be tested")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    env = {k: v for k, v in os.environ.items() if k not in ("BENGER_DB", "BENGER_DEBUG")}
    env.update(HOME=str(home), COLUMNS="200")
    return subprocess.run([*prefix, str(BENGER), *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder the unprivileged user can enter (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="benger-ro-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for sub in (path, *path.rglob("*")):
            if sub.is_dir():
                sub.chmod(0o755)
        shutil.rmtree(path)


def _store_with_demo(path: Path, home: Path) -> None:
    proc = _as_user("import", "demo", "--db", str(path), home=home)
    assert proc.returncode == 0, proc.stderr


def test_read_only_store_file_reads_and_refuses_writes_clearly(shared_dir: Path) -> None:
    home = shared_dir
    shared_dir.chmod(0o777)
    store = shared_dir / "ro.db"
    _store_with_demo(store, home)
    store.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = store.read_bytes()
    files = sorted(p.name for p in shared_dir.iterdir())
    listing = _as_user("corpora", "--db", str(store), home=home)
    assert listing.returncode == 0, listing.stderr
    assert "demo-falloesung" in listing.stdout
    assert sorted(p.name for p in shared_dir.iterdir()) == files  # no -wal/-shm of the reader's left behind
    extra = shared_dir / "extra.jsonl"
    extra.write_text('{"bereich": "Zivilrecht", "sachverhalt": "A kauft.", "musterloesung": "B."}\n', "utf-8")
    extra.chmod(0o644)
    write = _as_user("import", str(extra), "--db", str(store), home=home)
    assert write.returncode == 2
    expected = f"error: the store {store} is read-only for this user: {ADVICE} and pass --db with the copy"
    assert write.stderr.strip() == expected
    assert store.read_bytes() == before


def test_store_in_a_read_only_folder_can_be_listed(shared_dir: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="benger-home-"))
    home.chmod(0o777)
    try:
        folder = shared_dir / "ro"
        folder.mkdir()
        folder.chmod(0o777)
        store = folder / "s.db"
        _store_with_demo(store, home)
        folder.chmod(0o555)
        listing = _as_user("corpora", "--db", str(store), home=home)
        assert listing.returncode == 0, listing.stderr
        assert "demo-grundprinzipien" in listing.stdout
        board = _as_user("leaderboard", "--db", str(store), home=home)
        assert board.returncode == 0, board.stderr
        new = _as_user("import", "demo", "--db", str(folder / "new.db"), home=home)
        assert new.returncode == 2
        assert f"cannot create the store {folder / 'new.db'}: the folder {folder} is not writable" in new.stderr
        missing = _as_user("corpora", "--db", str(folder / "new.db"), home=home)  # a reader creates nothing
        assert missing.returncode == 2 and f"{folder / 'new.db'}: no benger store here" in missing.stderr
        assert sorted(p.name for p in folder.iterdir()) == ["s.db"]  # no -wal/-shm left behind, nothing created
    finally:
        shutil.rmtree(home)


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("postgresql+psycopg://::::/", "cannot parse the store URL 'postgresql+psycopg://::::/': expected a file path"),
        ("postgresql+psycopg://u@h:99999/d", "port 99999 is not in 1..65535"),
        ("mysql://u@h/d", "unsupported store URL mysql://u@h/d: benger stores data in SQLite or PostgreSQL"),
    ],
)
def test_bad_store_urls(db: str, message: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    result = CliRunner().invoke(app, ["corpora", "--db", db])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and message in result.output
    assert "Traceback" not in result.output


def test_a_folder_as_store(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    result = CliRunner().invoke(app, ["corpora", "--db", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output == f"error: the store {tmp_path} is a folder: give the path of an SQLite file\n"

"""A reader of a store it may not write leaves the folder as it found it (new-user report, 2026-12-04).

A read-only store file in a writable folder was opened ``mode=ro``: SQLite created the ``-wal`` and ``-shm`` files of
the WAL store and, a read-only connection never removing them, left both behind after every reading command (owned
by the reader, unusable for the owner's next writer). Now ``mode=ro`` only joins a WAL in use (both files there);
otherwise the file is read as immutable, as in a read-only folder (``benger.store._engine._sqlite_read_only``).
The folder is listed before and after each reading command, for a read-only file and for a read-only folder; a
live writer's WAL is still read through (its rows not yet in the main file are seen) and left as it was.

Root may write any file, so "may not write" is what ``os.access`` answers for the store (and its folder); the
console script as an unprivileged user is tests/cli/test_store_errors.py.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store
from benger.study import create_study

_register_commands()
runner = CliRunner()

# every reading command, with what it must print (the store holds the demo corpora and one study)
READERS: dict[str, tuple[list[str], str]] = {
    "corpora": (["corpora"], "demo-falloesung"),
    "leaderboard": (["leaderboard"], ""),
    "study list": (["study", "list"], "Sommer"),
    "study export": (["study", "export", "--study", "Sommer", "--out", "{out}"], ""),
}
#: what is read-only for this process: the store file (its folder writable), or the folder too
WHERE = ("file", "folder")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with the demo corpora and a study, closed (no -wal/-shm left)."""
    path = tmp_path_factory.mktemp("ro-template") / "s.db"
    assert runner.invoke(app, ["import", "demo", "--db", str(path)]).exit_code == 0
    store = open_store(path)
    create_study(store, "Sommer", "demo-falloesung", seed=1)
    store.close()
    assert sorted(p.name for p in path.parent.iterdir()) == ["s.db"]
    return path


@pytest.fixture
def read_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[set[Path]]:
    """The paths ``os.access`` says this process may not write (whoever runs the tests)."""
    denied: set[Path] = set()
    real = os.access

    def access(path: str | os.PathLike[str], mode: int, *args: object, **kwargs: object) -> bool:
        if mode & os.W_OK and Path(path).resolve() in denied:
            return False
        return real(path, mode, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    yield denied


def _listing(folder: Path) -> list[tuple[str, int]]:
    return sorted((p.name, p.stat().st_size) for p in folder.iterdir())


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("reader", list(READERS), ids=str)
def test_a_reader_leaves_the_folder_of_a_read_only_store_as_it_found_it(
    reader: str, where: str, template: Path, tmp_path: Path, read_only: set[Path]
) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    db = folder / "s.db"
    shutil.copyfile(template, db)
    db.chmod(0o444)
    read_only.add(db.resolve())
    if where == "folder":
        read_only.add(folder.resolve())
    args, expected = READERS[reader]
    before = _listing(folder)
    result = runner.invoke(app, [*(a.format(out=tmp_path / "out") for a in args), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert expected in result.output
    assert _listing(folder) == before


def test_a_live_writers_wal_is_read_through_and_left_as_it_was(
    template: Path, tmp_path: Path, read_only: set[Path]
) -> None:
    db = tmp_path / "s.db"
    shutil.copyfile(template, db)
    writer = sqlite3.connect(db)  # a writer of its owner, still open: its commit lives in the WAL
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE studies SET name = 'Winter'")
        writer.commit()
        read_only.add(db.resolve())
        before = _listing(tmp_path)
        assert {"s.db-wal", "s.db-shm"} <= {name for name, _ in before}
        result = runner.invoke(app, ["study", "list", "--db", str(db)])
        assert result.exit_code == 0, result.output
        assert "Winter" in result.output
        assert _listing(tmp_path) == before
    finally:
        writer.close()

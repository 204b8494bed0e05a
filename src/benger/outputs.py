"""The one writer of output folders: everything a command writes under ``--out`` appears complete or not at all.

Every output folder (``analyze``, ``reproduce``, ``report``, ``leaderboard --out``, ``validate-judge --out``,
``study export``, exports of other formats) is written through :func:`output_folder`::

    from benger.outputs import output_folder

    with output_folder(out) as folder:            # out: the user's --out path (str or Path)
        folder.write_text("results.json", text)   # paths are relative to the output folder
        folder.write_bytes("figures/a.png", png)
        fig.savefig(folder.path_for("figures/b.svg"))  # a library that writes a file itself
        folder.discard("tables/old.md")           # a file an earlier run wrote that is now stale

While the block runs, the files go into a hidden staging folder beside the target
(``.<name>.partial-<pid>-<random>``, same file system). When the block ends without an exception:

* if the target does not exist (or is an empty folder), the staging folder is renamed onto it: one atomic step;
* otherwise (a folder written earlier, or a user's folder such as ``--out .``) the target's old
  :data:`MANIFEST` is removed first, each staged file is renamed into place, stale files are removed (those the
  old manifest lists and this run did not write, and those given to :meth:`OutputFolder.discard`), and the new
  manifest is written last. Files of the target that benger did not write are never touched.

Either way :data:`MANIFEST` (``.benger-manifest.json``: the files, their sizes and sha256) is written last, so
a folder without it is not a finished output. An exception or a kill inside the block leaves the target as it
was; the staging folder is removed on an exception and, after a kill, by the next run into the same target.

Files and folders are created with the user's umask (``0o666``/``0o777`` masked), not tempfile's ``0o600``.
:func:`atomic_write_bytes` writes one file the same way (temporary file in the same folder, then a rename).

Errors: an ``out`` that is an existing file, or a folder whose parent cannot be created, raises
:class:`benger.errors.InputError` naming the path; a file that cannot be moved into place (a folder of its
name in the way, a read-only file, a full disk) raises the ``OSError`` naming it, before anything is moved when
it is a folder in the way (the CLI prints ``error: FILE: reason``, exit code 2).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from benger.errors import InputError

#: The file written last into every finished output folder (relative path -> size and sha256).
MANIFEST = ".benger-manifest.json"
_PARTIAL = ".partial-"


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (which must not exist) with the user's umask, write ``data`` and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and an atomic rename.

    The file gets the user's umask (an existing file keeps its mode)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        _write_new(tmp, data)
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 ``text`` atomically (:func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def _relative(rel: str | PurePosixPath) -> PurePosixPath:
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or not p.parts or str(p) == MANIFEST:
        raise ValueError(f"not a relative output path: {rel!r}")
    return p


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep_stale(target: Path) -> None:
    """Remove staging folders a killed run left beside ``target`` (their process is gone)."""
    prefix = f".{target.name}{_PARTIAL}"
    with contextlib.suppress(OSError):
        for entry in target.parent.iterdir():
            if entry.name.startswith(prefix) and entry.is_dir():
                pid = entry.name[len(prefix) :].split("-", 1)[0]
                if pid.isdigit() and not _pid_alive(int(pid)):
                    shutil.rmtree(entry, ignore_errors=True)


def read_manifest(folder: str | Path) -> dict[str, dict[str, object]] | None:
    """The files a finished output folder holds (relative path -> ``{"bytes", "sha256"}``), or ``None`` when the
    folder has no readable manifest (not written by benger, or not finished)."""
    try:
        data = json.loads((Path(folder) / MANIFEST).read_text(encoding="utf-8"))
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return files if isinstance(files, dict) else None


class OutputFolder:
    """An output folder being written; see the module docstring. Build it with :func:`output_folder`."""

    def __init__(self, target: str | Path) -> None:
        self.target = Path(target)
        if self.target.exists() and not self.target.is_dir():
            raise InputError("the output path is a file, not a folder", file=self.target)
        parent = self.target.absolute().parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            _sweep_stale(self.target.absolute())
            self.staging = parent / f".{self.target.name}{_PARTIAL}{os.getpid()}-{secrets.token_hex(4)}"
            self.staging.mkdir()
        except OSError as exc:
            raise InputError(f"cannot create the output folder: {exc.strerror or exc}", file=self.target) from exc
        self._discard: set[str] = set()

    def path_for(self, rel: str) -> Path:
        """The staging path of ``rel`` (parent folders created) for a library that writes the file itself."""
        p = _relative(rel)
        path = self.staging.joinpath(*p.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def write_bytes(self, rel: str, data: bytes) -> Path:
        """Write ``data`` as ``rel`` (a POSIX path relative to the folder); returns the file's final path."""
        path = self.path_for(rel)
        path.unlink(missing_ok=True)
        _write_new(path, data)
        return self.target / rel

    def write_text(self, rel: str, text: str) -> Path:
        """Write UTF-8 ``text`` as ``rel``; returns the file's final path."""
        return self.write_bytes(rel, text.encode("utf-8"))

    def discard(self, rel: str) -> None:
        """Remove ``rel`` from the target when the folder is committed (a file an earlier run wrote)."""
        self._discard.add(str(_relative(rel)))

    def _staged(self) -> dict[str, Path]:
        """Every file staged so far (relative POSIX path -> staging path)."""
        return {p.relative_to(self.staging).as_posix(): p for p in sorted(self.staging.rglob("*")) if p.is_file()}

    def _manifest(self, staged: dict[str, Path]) -> bytes:
        files = {}
        for rel, path in staged.items():
            data = path.read_bytes()
            files[rel] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        return json.dumps({"files": files}, indent=2).encode("utf-8")

    def commit(self) -> None:
        """Move the finished folder into place (see the module docstring); the manifest comes last."""
        staged = self._staged()
        manifest = self._manifest(staged)
        target = self.target
        empty = not target.exists() or (target.is_dir() and not any(target.iterdir()))
        if empty:
            _write_new(self.staging / MANIFEST, manifest)
            if target.exists():
                target.rmdir()
            os.replace(self.staging, target)
            return
        for rel in staged:  # a folder in the way of an output file: refuse before anything is moved
            dest = target.joinpath(*PurePosixPath(rel).parts)
            if dest.is_dir():
                raise IsADirectoryError(errno.EISDIR, "Is a directory", str(dest))
        old = read_manifest(target) or {}
        (target / MANIFEST).unlink(missing_ok=True)
        for rel, path in staged.items():
            dest = target.joinpath(*PurePosixPath(rel).parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, dest)
        for rel in (set(old) | self._discard) - set(staged):
            with contextlib.suppress(ValueError, OSError):
                target.joinpath(*_relative(rel).parts).unlink(missing_ok=True)
        atomic_write_bytes(target / MANIFEST, manifest)
        shutil.rmtree(self.staging, ignore_errors=True)

    def abort(self) -> None:
        """Drop what was staged; the target stays as it was."""
        shutil.rmtree(self.staging, ignore_errors=True)


@contextlib.contextmanager
def output_folder(target: str | Path) -> Iterator[OutputFolder]:
    """Stage an output folder for ``target`` and move it into place when the block ends without an exception.

    Raises :class:`InputError` when ``target`` is a file or cannot be created; see the module docstring."""
    folder = OutputFolder(target)
    try:
        yield folder
    except BaseException:
        folder.abort()
        raise
    try:
        folder.commit()
    finally:
        folder.abort()  # what is left of the staging folder (nothing after a commit)

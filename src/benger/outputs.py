"""The one writer of output folders: everything a command writes into a folder appears complete or not at all,
and no command deletes or overwrites a file it did not write itself.

Every command that writes a folder (``analyze``, ``reproduce``, ``leaderboard --out``, ``validate-judge --out``,
``estimate --out``, ``export hf``, ``view --bundle``, ``study export``) writes it through :func:`output_folder`,
naming itself::

    from benger.outputs import output_folder

    with output_folder(out, "analyze") as folder:  # out: the user's folder (str or Path); the command's name
        folder.write_text("results.json", text)   # paths are relative to the output folder
        folder.write_bytes("figures/a.png", png)
        fig.savefig(folder.path_for("figures/b.svg"))  # a library that writes a file itself
        folder.discard("tables/old.md")           # a file an earlier run of this command wrote that is now stale

While the block runs, the files go into a hidden staging folder beside the target
(``.<name>.partial-<pid>-<random>``, same file system). When the block ends without an exception:

* if the target does not exist (or is an empty folder), the staging folder is renamed onto it: one atomic step;
* otherwise (a folder written earlier, by this or another command, or a user's folder such as ``--out .``) each
  staged file is renamed into place, then the files this command's earlier run wrote and this run did not (and
  those given to :meth:`OutputFolder.discard`) are removed, and the new manifest is written last.

The folder's :data:`MANIFEST` (``.benger-manifest.json``) lists every file benger wrote there with its size,
sha256 and the command that wrote it. The ownership rule, the same for every command:

* a rerun of a command replaces (and removes) only the files its earlier run wrote;
* the files another benger command wrote into the same folder are kept (``analyze`` and ``leaderboard --out``
  share a folder); a file of the same name that another command wrote is refused;
* a file benger did not write (no manifest lists it) is never overwritten or removed: a run that would write a file
  of that name is refused with :class:`benger.errors.InputError` naming the file (``error: FILE: reason``, exit
  code 2) before anything in the target is changed. Files of other names are kept as they are.

A manifest of an older benger (entries without a command) is read as files benger wrote: any command may
replace them; none removes them as stale. While files are moved the manifest lists the old and the new files
(marked ``"partial": true``, which :func:`read_manifest` reads as unfinished), so a kill within the moves leaves
no file of benger's unlisted. An exception or a kill inside the block leaves the target as it was; the staging
folder is removed on an exception and, after a kill, by the next run into the same target.

Files and folders are created with the user's umask (``0o666``/``0o777`` masked), not tempfile's ``0o600``.
:func:`atomic_write_bytes` writes one file the same way (temporary file in the same folder, then a rename).

Errors: an ``out`` that is an existing file, or a folder whose parent cannot be created, raises
:class:`benger.errors.InputError` naming the path; a file that cannot be moved into place (a folder of its
name in the way, a read-only file, a full disk) raises the ``OSError`` naming it, before anything is moved when
it is a folder or a file in the way.
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


def _entries(folder: Path) -> tuple[dict[str, dict[str, object]] | None, bool]:
    """Every entry of ``folder``'s manifest (relative path -> ``{"bytes", "sha256", "command"}``) and whether it
    is a partial one (a run was moving files); ``(None, False)`` when there is no readable manifest."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None, False
    if not isinstance(files, dict):
        return None, False
    return {str(k): v for k, v in files.items() if isinstance(v, dict)}, bool(data.get("partial"))


def read_manifest(folder: str | Path, command: str | None = None) -> dict[str, dict[str, object]] | None:
    """The files a finished output folder holds (relative path -> ``{"bytes", "sha256", "command"}``; with
    ``command`` only those that command wrote), or ``None`` when the folder has no readable manifest (not written
    by benger, or not finished)."""
    files, partial = _entries(Path(folder))
    if files is None or partial:
        return None
    return {rel: e for rel, e in files.items() if command is None or e.get("command") == command}


def _owner(entry: dict[str, object] | None) -> str | None:
    command = (entry or {}).get("command")
    return command if isinstance(command, str) else None


class OutputFolder:
    """An output folder being written by ``command``; see the module docstring. Build it with
    :func:`output_folder`."""

    def __init__(self, target: str | Path, command: str) -> None:
        self.target = Path(target)
        self.command = command
        #: The files this run wrote (relative path -> bytes), filled when the folder is committed.
        self.written: dict[str, int] = {}
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
        self._old = (_entries(self.target)[0] or {}) if self.target.is_dir() else {}

    def _claim(self, rel: str, old: dict[str, dict[str, object]]) -> None:
        """Refuse (InputError naming the file) to write ``rel`` over a file that benger did not write or that
        another benger command wrote."""
        dest = self.target.joinpath(*PurePosixPath(rel).parts)
        if not os.path.lexists(dest) or dest.is_dir():
            return
        nothing = "; nothing was changed"
        if rel not in old:
            raise InputError(
                "a file benger did not write (its manifest does not list it): benger never overwrites it; move it "
                f"or write into another folder{nothing}",
                file=dest,
            )
        owner = _owner(old[rel])
        if owner is not None and owner != self.command:
            raise InputError(
                f"written by `benger {owner}`, not by `benger {self.command}`: rerun `benger {owner}` to replace "
                f"it, or write into another folder{nothing}",
                file=dest,
            )

    def path_for(self, rel: str) -> Path:
        """The staging path of ``rel`` (parent folders created) for a library that writes the file itself.

        InputError naming the target's file when a file of that name is not this command's (module docstring)."""
        p = _relative(rel)
        self._claim(p.as_posix(), self._old)
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
        """Remove ``rel`` from the target when the folder is committed, if this command wrote it earlier."""
        self._discard.add(str(_relative(rel)))

    def _staged(self) -> dict[str, Path]:
        """Every file staged so far (relative POSIX path -> staging path)."""
        return {p.relative_to(self.staging).as_posix(): p for p in sorted(self.staging.rglob("*")) if p.is_file()}

    def _manifest_entries(self, staged: dict[str, Path]) -> dict[str, dict[str, object]]:
        files: dict[str, dict[str, object]] = {}
        for rel, path in staged.items():
            data = path.read_bytes()
            files[rel] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "command": self.command}
        return files

    def _check_target(self, staged: dict[str, Path], old: dict[str, dict[str, object]]) -> None:
        """Everything that would stop a move, before anything is moved: a folder (or a file) in the way of an
        output file or of its parent folders, or a file that is not this command's."""
        for rel in staged:
            parts = PurePosixPath(rel).parts
            for i in range(1, len(parts)):
                above = self.target.joinpath(*parts[:i])
                if os.path.lexists(above) and not above.is_dir():
                    raise NotADirectoryError(errno.ENOTDIR, "Not a directory", str(above))
            dest = self.target.joinpath(*parts)
            if dest.is_dir() and not dest.is_symlink():
                raise IsADirectoryError(errno.EISDIR, "Is a directory", str(dest))
            self._claim(rel, old)

    def commit(self) -> None:
        """Move the finished folder into place (see the module docstring); the manifest comes last."""
        staged = self._staged()
        entries = self._manifest_entries(staged)
        self.written = {rel: int(str(e["bytes"])) for rel, e in entries.items()}
        target = self.target
        if not target.exists() or (target.is_dir() and not any(target.iterdir())):
            _write_new(self.staging / MANIFEST, json.dumps({"files": entries}, indent=2).encode("utf-8"))
            if target.exists():
                target.rmdir()
            os.replace(self.staging, target)
            return
        old = _entries(target)[0] or {}
        self._check_target(staged, old)
        mine = {rel for rel, e in old.items() if _owner(e) == self.command}
        legacy = {rel for rel, e in old.items() if _owner(e) is None}
        stale = (mine | (self._discard & legacy)) - set(staged)
        kept = {
            rel: e
            for rel, e in old.items()
            if rel not in staged and rel not in stale and os.path.lexists(target.joinpath(*_relative(rel).parts))
        }
        moving = {**kept, **{rel: old[rel] for rel in stale}, **entries}
        atomic_write_bytes(target / MANIFEST, json.dumps({"files": moving, "partial": True}, indent=2).encode())
        for rel, path in staged.items():
            dest = target.joinpath(*PurePosixPath(rel).parts)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, dest)
        for rel in stale:
            with contextlib.suppress(ValueError, OSError):
                target.joinpath(*_relative(rel).parts).unlink(missing_ok=True)
        atomic_write_bytes(target / MANIFEST, json.dumps({"files": {**kept, **entries}}, indent=2).encode("utf-8"))
        shutil.rmtree(self.staging, ignore_errors=True)

    def abort(self) -> None:
        """Drop what was staged; the target stays as it was."""
        shutil.rmtree(self.staging, ignore_errors=True)


@contextlib.contextmanager
def output_folder(target: str | Path, command: str) -> Iterator[OutputFolder]:
    """Stage an output folder for ``target`` written by ``command`` (its name after ``benger``, e.g.
    ``"analyze"``) and move it into place when the block ends without an exception.

    Raises :class:`InputError` when ``target`` is a file or cannot be created, or when a file the command writes
    would replace one it did not write; see the module docstring."""
    folder = OutputFolder(target, command)
    try:
        yield folder
    except BaseException:
        folder.abort()
        raise
    try:
        folder.commit()
    finally:
        folder.abort()  # what is left of the staging folder (nothing after a commit)

"""An uploaded corpus, read by the CLI's own importers: a ``.jsonl``/``.csv`` file (``load_corpus_file``, as
``benger import FILE``) or the release folder as a ``.zip``/``.tar``/``.tar.gz`` archive (``load_release``, as
``benger import release:PATH``; its two corpora, Benchathon and Grundprinzipien).

Every problem the importer finds is reported as :class:`UploadProblem` (where: line and field; what), with the
uploaded file's own name in place of the temporary path. An archive is unpacked into a temporary folder that
is removed afterwards; a member with an absolute path, a ``..`` component, a link or a device is refused
before anything is written, and so is an archive that would unpack to more than ``MAX_UNPACKED`` bytes.
"""

from __future__ import annotations

import re
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from benger.cli._checks import check_corpus_name
from benger.corpora import CorpusFileError, load_corpus_file, load_release
from benger.corpora._user import SUFFIXES
from benger.errors import InputError
from benger.schema import Corpus

#: The largest upload read (bytes), and the most an archive may unpack to.
MAX_UPLOAD = 64 * 1024 * 1024
MAX_UNPACKED = 512 * 1024 * 1024
#: The longest uploaded file name taken (a file system takes 255 bytes; the stored corpus name ``SLUG/stem`` 200).
MAX_NAME = 120
ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz")


@dataclass(frozen=True)
class UploadProblem:
    """One problem of an upload: ``where`` (e.g. ``line 3, field 'area'``) and ``message``."""

    where: str
    message: str


class UploadError(Exception):
    """An upload that was not imported; ``problems`` lists why (nothing was stored)."""

    def __init__(self, file: str, problems: list[UploadProblem]) -> None:
        self.file = file
        self.problems = problems
        super().__init__(f"{file}: " + "; ".join(f"{p.where}: {p.message}" for p in problems))


def safe_name(filename: str) -> str:
    """The base name of an uploaded file without path or odd characters (``../x y.jsonl`` -> ``x_y.jsonl``);
    UploadError when it is longer than ``MAX_NAME`` (it names the file written to disk and the corpus)."""
    base = PurePosixPath(filename.replace("\\", "/")).name
    name = re.sub(r"[^\w.\-]+", "_", base).strip("._") or "upload"
    if len(name) > MAX_NAME:
        short = f"{name[:40]}...{name[-10:]}"
        raise UploadError(
            short, [UploadProblem(short, f"file name longer than {MAX_NAME} characters; rename the file")]
        )
    return name


def problems_of(exc: InputError, replace: list[tuple[str, str]], file: str = "file") -> list[UploadProblem]:
    """The importer's problems, each with its line/record and field; temporary paths replaced (``replace``:
    (old, new) pairs, in order) by the uploaded file's name or a path inside the archive; a problem of the
    whole file (no line, no field) is placed at ``file``, the uploaded file's name."""

    def clean(text: str) -> str:
        for old, new in replace:
            text = text.replace(old, new)
        return text

    if isinstance(exc, CorpusFileError):
        return [UploadProblem(clean(_where(p.where(), p.line, file)), clean(p.message)) for p in exc.problems]
    where = [clean(exc.file)] if exc.file else []
    where += [f"line {exc.line}"] if exc.line is not None else []
    where += [f"record {exc.record}"] if exc.record is not None else []
    where += [f"field '{exc.field}'"] if exc.field is not None else []
    return [UploadProblem(", ".join(where) or file, clean(exc.reason))]


def _where(where: str, line: int | None, file: str) -> str:
    """A corpus problem's place, with the file's name where the problem has no line (the importer says "file")."""
    return where if line is not None else file + where.removeprefix("file")


def read_upload(filename: str, data: bytes) -> list[Corpus]:
    """The corpora of an uploaded file; UploadError listing every problem when it cannot be imported."""
    name = safe_name(filename)
    if len(data) > MAX_UPLOAD:
        raise UploadError(name, [UploadProblem(name, f"larger than {MAX_UPLOAD // 2**20} MiB")])
    lower = name.lower()
    with tempfile.TemporaryDirectory(prefix="benger-upload-") as temp:
        folder = Path(temp)
        replace = [(f"{folder}/", "")]
        try:
            if lower.endswith(SUFFIXES):
                path = folder / name
                path.write_bytes(data)
                corpus = load_corpus_file(path)
                check_corpus_name(corpus.name, name)
                return [corpus]
            if lower.endswith(ARCHIVES):
                root = _unpack(name, data, folder / "unpacked")
                replace = [(f"{root}/", ""), (str(root), name), *replace]
                release = load_release(root)
                return [release.benchathon, release.grundprinzipien]
        except InputError as exc:
            raise UploadError(name, problems_of(exc, replace, name)) from None
    expected = ", ".join((*SUFFIXES, *ARCHIVES))
    raise UploadError(name, [UploadProblem(name, f"unsupported file type; expected one of {expected}")])


def _unpack(name: str, data: bytes, target: Path) -> Path:
    """Unpack the archive ``data`` into ``target``; the release root inside it (the folder holding ``data/``)."""
    target.mkdir()
    archive = target.parent / name
    archive.write_bytes(data)
    members: list[tuple[str, int]] = []
    try:
        if name.lower().endswith(".zip"):
            with zipfile.ZipFile(archive) as zipped:
                members = [(i.filename, i.file_size) for i in zipped.infolist()]
                _check(members, name, links=[i.filename for i in zipped.infolist() if i.external_attr >> 28 == 0xA])
                zipped.extractall(target)
        else:
            with tarfile.open(archive) as tarred:
                infos = tarred.getmembers()
                members = [(i.name, i.size) for i in infos]
                _check(members, name, links=[i.name for i in infos if not (i.isfile() or i.isdir())])
                tarred.extractall(target, filter="data")
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError) as exc:
        raise InputError(f"not a readable archive: {exc}", file=name) from None
    return _root(target, name)


def _check(members: list[tuple[str, int]], name: str, *, links: list[str]) -> None:
    if links:
        raise InputError(f"the archive holds a link or special file ({links[0]}); only files and folders", file=name)
    for member, _ in members:
        path = PurePosixPath(member.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts:
            raise InputError(f"the archive member {member!r} points outside the archive", file=name)
    if sum(size for _, size in members) > MAX_UNPACKED:
        raise InputError(f"the archive unpacks to more than {MAX_UNPACKED // 2**20} MiB", file=name)


def _root(target: Path, name: str) -> Path:
    """``target`` or its one top-level folder, whichever holds ``data/``."""
    if (target / "data").is_dir():
        return target
    children = [p for p in target.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    if len(children) == 1 and (children[0] / "data").is_dir():
        return children[0]
    raise InputError("the archive holds no BenGER release (a folder with data/interim and data/processed)", file=name)

"""The SHA-256 of an SQLite store file, for a report's provenance, read by a child process.

A process that holds SQLite connections on a file must never open and close that file itself: closing *any*
descriptor of it releases every POSIX lock the process holds on it, those of its open connections too, and another
process may then checkpoint and delete the write-ahead log under them (sqlite.org/howtocorrupt.html, section 2.2;
tests/store/test_open_locks.py). ``benger analyze`` hashes its store while it reads it, so the bytes are read by a
short-lived ``python`` child, which holds no connection (and hashes on a core of its own).
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from benger.errors import InputError

#: what the child runs: the file's hex SHA-256 on stdout
_HASH = (
    "import hashlib, sys\nwith open(sys.argv[1], 'rb') as f:\n    print(hashlib.file_digest(f, 'sha256').hexdigest())"
)
_POLL_S = 0.05


def store_file_sha256(path: str | Path, stop: threading.Event | None = None) -> str:
    """Hex SHA-256 of the bytes of the store file at ``path`` (the main database file, not its -wal).

    ``stop`` set: the child is killed and InterruptedError raised within ``_POLL_S``. InputError naming the file
    when it cannot be read."""
    child = subprocess.Popen(
        [sys.executable, "-I", "-c", _HASH, str(path)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while True:
        try:
            out, err = child.communicate(timeout=_POLL_S)
            break
        except subprocess.TimeoutExpired:
            if stop is not None and stop.is_set():
                child.kill()
                child.communicate()
                raise InterruptedError(f"hashing {path} stopped") from None
    if child.returncode != 0:
        reason = (err.strip().splitlines() or [f"exit {child.returncode}"])[-1]
        raise InputError(f"cannot read the store file to hash it: {reason}", file=path)
    return out.strip()

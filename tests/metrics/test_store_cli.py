"""`benger metrics` on a real SQLite store: values persisted with signatures, reruns skip finished work."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benger.metrics import all_metrics, compute, rouge
from benger.schema import Corpus, FalloesungTask, Generation, HumanSolution, SystemConfig
from benger.store import open_store

REFERENCE = "Der Käufer schuldet dem Verkäufer nach § 433 Abs. 2 BGB die Zahlung des Kaufpreises."
TEXTS = {
    "g1": "Nach § 433 Abs. 2 BGB schuldet der Käufer die Zahlung des Kaufpreises.",
    "g2": "Die Möller GmbH haftet nicht.",
}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real ``benger`` entry point in a subprocess."""
    code = "from benger.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "m.db")
    store = open_store(path)
    task = FalloesungTask(task_id="t1", corpus="mini", area="Zivilrecht", facts="A kauft von B.", reference=REFERENCE)
    store.add_corpus(Corpus(name="mini", tasks=[task]))
    system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
    store.upsert_system(system)
    for run, (gid, text) in enumerate(TEXTS.items()):
        store.save_generation(
            Generation(
                generation_id=gid,
                task_id="t1",
                system="sys-a",
                config_hash=system.config_hash(),
                run_index=run,
                text=text,
            )
        )
    store.add_human_solution(
        HumanSolution(solution_id="h1", task_id="t1", participant_id="p1", condition="traditional", text=REFERENCE)
    )
    return path


def test_metrics_command_persists_and_resumes(db: str) -> None:
    result = run_cli("metrics", "--db", db, "--metrics", "rouge1,chrf", "-q")
    assert result.returncode == 0, result.stderr
    assert "rouge1: 3 computed, 0 already stored" in result.stdout
    values = {(v.target_id, v.metric): v for v in open_store(db).metric_values()}
    assert set(values) == {(t, m) for t in ("g1", "g2", "h1") for m in ("rouge1", "chrf")}
    assert values[("g1", "rouge1")].value == pytest.approx(rouge(TEXTS["g1"], REFERENCE)["rouge1"].value)
    assert values[("h1", "rouge1")].value == pytest.approx(1.0)  # the human solution equals the reference
    assert values[("g1", "rouge1")].signature.startswith("rouge1|tok:unicode-lower-v1|stem:snowball-de|")
    assert values[("g1", "chrf")].details is None or isinstance(values[("g1", "chrf")].details, dict)
    again = run_cli("metrics", "--db", db, "--metrics", "rouge1,chrf,meteor", "-q")
    assert again.returncode == 0, again.stderr
    assert "rouge1: 0 computed, 3 already stored" in again.stdout
    assert "meteor: 3 computed, 0 already stored" in again.stdout
    assert len(open_store(db).metric_values()) == 9


def test_systems_filter_and_unknown_metric(db: str) -> None:
    result = run_cli("metrics", "--db", db, "--metrics", "bleu", "--systems", "sys-a", "--limit", "1", "-q")
    assert result.returncode == 0, result.stderr
    assert [v.target_id for v in open_store(db).metric_values()] == ["g1"]
    bad = run_cli("metrics", "--db", db, "--metrics", "bleurt")
    assert bad.returncode == 2
    assert "unknown metric 'bleurt'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_compute_returns_tidy_rows() -> None:
    rows = compute([TEXTS["g1"], TEXTS["g2"]], [REFERENCE, REFERENCE], "lexical")
    lexical = [k for k, d in all_metrics().items() if d.family == "lexical"]
    assert {"bleu", "chrf", "rouge1", "rouge2", "rougeL", "meteor"} <= set(lexical)
    assert [(r.index, r.metric) for r in rows] == [(i, m) for i in (0, 1) for m in lexical]
    assert all(0.0 <= r.value <= 1.0 and "|" in r.signature for r in rows)
    by = {(r.index, r.metric): r.value for r in rows}
    assert by[(0, "chrf")] > by[(1, "chrf")]


@pytest.mark.slow
def test_parallel_lexical_equals_serial() -> None:
    cands = [f"{TEXTS['g1']} Fall {i}." for i in range(40)]  # 40 pairs -> 2 chunks of <= 32 -> 2 worker tasks
    refs = [REFERENCE] * 40
    serial = compute(cands, refs, "lexical", workers=1)
    parallel = compute(cands, refs, "lexical", workers=2)
    assert [(r.index, r.metric, r.value) for r in parallel] == [(r.index, r.metric, r.value) for r in serial]

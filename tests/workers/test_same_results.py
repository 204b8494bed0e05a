"""Celery workers against the stub give the same store contents as the local asyncio executor."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
import yaml

from benger.pipeline import run_config
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

from .conftest import BENGER, Workers, free_port, make_corpora, stub_system
from .conftest import run_config as make_config

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def _contents(store: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """What a run produces, without the wall-clock fields (latency, completion time)."""
    gens = sorted(
        (g.generation_id, g.task_id, g.status, g.text, g.answer, g.input_tokens, g.output_tokens, g.meta["attempts"])
        for g in store.generations()
    )
    judgements = sorted(
        (j.judgement_id, j.target_id, j.status, j.total, tuple(sorted((j.dimensions or {}).items())), j.answer)
        for j in store.judgements()
    )
    return gens, judgements


async def test_celery_run_matches_local_run(pg_url: str, shared_redis: str, workers: Workers, tmp_path: Any) -> None:
    local_store = open_store(tmp_path / "local.db")
    celery_store = open_store(pg_url)
    for store in (local_store, celery_store):
        for corpus in make_corpora(n_fall=6, n_gp=4):
            store.add_corpus(corpus)
    workers.start(1, concurrency=2)  # one worker with 2 processes, one with 2 threads (own event loops)
    workers.start(1, concurrency=2, pool="threads")
    faults = {"WFALL-02": ["500"], "WPRINZIP-01": ["malformed"]}
    stages = ("generate", "judge")
    port = free_port()  # one stub per run (faults are counted per stub) on one port (the URL is in the config hash)
    with run_stub_server(port=port, latency_ms=30, faults=faults) as stub:
        local = await run_config(make_config(stub.base_url, executor="local"), local_store, stages=stages)
        calls_local = len(stub.log)
    with run_stub_server(port=port, latency_ms=30, faults=faults) as stub:
        remote = await run_config(make_config(stub.base_url, executor="celery"), celery_store, stages=stages)
        calls_celery = len(stub.log)
    assert local.generation is not None and remote.generation is not None
    assert local.judgement is not None and remote.judgement is not None
    # 10 items: all ok (WFALL-02 retried after one 500, WPRINZIP-01 re-asked once); 10 judged
    assert remote.generation.counts == local.generation.counts == {"ok": 10}
    assert remote.judgement.counts == local.judgement.counts == {"scored": 10}
    assert not remote.generation.errors and not remote.judgement.errors
    # the same calls: 10 generations + 1 retry + 1 re-ask + 10 judgements = 22 each way
    assert calls_local == calls_celery == 22
    assert _contents(celery_store) == _contents(local_store)
    gens, judgements = _contents(celery_store)
    assert len(gens) == 10 and len(judgements) == 10
    local_store.close()
    celery_store.close()


def test_cli_run_on_workers_respects_the_shared_rate_limit(
    pg_url: str, shared_redis: str, workers: Workers, tmp_path: Any
) -> None:
    store = open_store(pg_url)
    for corpus in make_corpora(n_fall=0, n_gp=6):
        store.add_corpus(corpus)
    workers.start(2, concurrency=1)  # 2 calls could run at once without the limit

    def generate(system: dict[str, Any], name: str) -> subprocess.CompletedProcess[str]:
        config = tmp_path / f"{name}.yaml"
        config.write_text(yaml.safe_dump({"corpora": ["w-gp"], "systems": [system]}), encoding="utf-8")
        return subprocess.run(
            [str(BENGER), "generate", str(config), "--db", pg_url, "--executor", "celery"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    with run_stub_server(latency_ms=300) as stub:
        # warm-up without a limit: each worker process makes its first (slow: lazy SDK imports) HTTP call
        warm = generate(stub_system(stub.base_url, "stub-warm"), "warm")
        assert warm.returncode == 0, warm.stderr
        first = len(stub.log)
        done = generate({**stub_system(stub.base_url, "stub-gen"), "requests_per_minute": 60}, "limited")
        starts = sorted(entry["ts"] for entry in list(stub.log)[first:])
    assert done.returncode == 0, done.stderr
    assert "generate: 6/6 (ok 6)" in done.stderr  # the local runner's progress summary
    assert first == 6 and len(starts) == 6 and len(store.generations(status="ok")) == 12
    # 60/min = 1 call/s shared by both workers, bucket of 1: tokens are granted 0, 1, ..., 5 s after the first
    # (without the limit, 2 at a time every 0.3 s: 0.6 s). A call starts some delay d after its token
    # (0 <= d < 0.5 s even on a loaded machine), so any j - i consecutive calls span at least (j - i) - 0.5 s.
    spans = {(i, j): round(starts[j] - starts[i], 3) for i in range(6) for j in range(i + 1, 6)}
    assert all(span >= (j - i) - 0.5 for (i, j), span in spans.items()), spans
    store.close()

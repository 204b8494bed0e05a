"""Failures mid-run: a worker killed with SIGKILL, Redis restarted (queues lost), Redis gone for good."""

from __future__ import annotations

import asyncio
import collections
import re
import time
from typing import Any

import pytest

from benger.errors import BengerError
from benger.pipeline import run_config
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

from .conftest import RedisServer, Workers, make_corpora
from .conftest import run_config as make_config

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def _store_with_tasks(url: str, n_fall: int, n_gp: int) -> Any:
    store = open_store(url)
    for corpus in make_corpora(n_fall=n_fall, n_gp=n_gp):
        store.add_corpus(corpus)
    return store


def _task_ids(log: bytes, event: bytes) -> set[bytes]:
    """Celery task ids of the worker log lines ``Task benger.generate[ID] <event>``."""
    return set(re.findall(rb"benger\.generate\[([0-9a-f-]+)\] " + event, log))


async def _wait_for(condition: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.05)


async def test_worker_killed_mid_run_loses_nothing(
    pg_url: str, shared_redis: str, workers: Workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store_with_tasks(pg_url, n_fall=10, n_gp=8)
    # a killed worker's message comes back after 4 s; its lease expires 3 s after the last refresh
    workers.start(3, concurrency=1, BENGER_VISIBILITY_TIMEOUT="4", BENGER_LEASE_SECONDS="3")
    with run_stub_server(latency_ms=600) as stub:
        config = make_config(stub.base_url, executor="celery", judges=False)
        run = asyncio.create_task(run_config(config, store, stages=("generate",)))
        # kill worker 0 while it is inside a call: 3 calls answered, so every worker is busy with its next one
        await _wait_for(lambda: len(stub.log) >= 3)
        await asyncio.sleep(0.2)
        workers.kill9(0)
        result = await asyncio.wait_for(run, timeout=90)
        log = list(stub.log)
    assert result.generation is not None and not result.generation.errors
    assert result.generation.counts == {"ok": 18}  # 10 Falllösungen + 8 Grundprinzipien, nothing lost
    gens = store.generations()
    assert len(gens) == 18 and {g.status for g in gens} == {"ok"}
    per_prompt = collections.Counter(entry["key"] for entry in log)
    assert len(per_prompt) == 18  # every item asked
    repeated = [key for key, n in per_prompt.items() if n > 1]
    # only the one call in flight on the killed worker (concurrency 1) may be asked again: its answer died
    # with the worker before it reached the store. No finished item is ever generated twice.
    assert len(repeated) <= 1 and len(log) == 18 + len(repeated)
    # the killed worker had messages it never finished, and every one of them was finished by another worker
    lost = _task_ids(workers.log(0), b"received") - _task_ids(workers.log(0), b"succeeded")
    assert lost and lost <= _task_ids(workers.log(1) + workers.log(2), b"succeeded")
    store.close()


async def test_redis_restart_mid_run_recovers(
    pg_url: str, own_redis: RedisServer, workers: Workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store_with_tasks(pg_url, n_fall=8, n_gp=8)
    workers.start(2, concurrency=2)
    with run_stub_server(latency_ms=400) as stub:
        config = make_config(stub.base_url, executor="celery", judges=False)
        run = asyncio.create_task(run_config(config, store, stages=("generate",)))
        await _wait_for(lambda: len(stub.log) >= 4)
        own_redis.kill()  # no persistence: every queued message and result is gone
        await asyncio.sleep(2.0)
        own_redis.start()
        result = await asyncio.wait_for(run, timeout=90)
    assert result.generation is not None and not result.generation.errors
    assert result.generation.counts == {"ok": 16}  # 8 + 8 items, every one in the store
    gens = store.generations()
    assert len(gens) == 16 and {g.status for g in gens} == {"ok"}
    assert len({(g.task_id, g.config_hash, g.run_index) for g in gens}) == 16
    store.close()


async def test_redis_gone_for_good_fails_with_a_clear_message(
    pg_url: str, own_redis: RedisServer, workers: Workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store_with_tasks(pg_url, n_fall=6, n_gp=0)
    monkeypatch.setenv("BENGER_REDIS_RECOVERY_SECONDS", "3")
    workers.start(1, concurrency=1)
    with run_stub_server(latency_ms=500) as stub:
        config = make_config(stub.base_url, executor="celery", judges=False)
        run = asyncio.create_task(run_config(config, store, stages=("generate",)))
        await _wait_for(lambda: len(stub.log) >= 1)
        own_redis.kill()
        with pytest.raises(BengerError) as info:
            await asyncio.wait_for(run, timeout=60)
    message = str(info.value)
    finished = len([g for g in store.generations() if g.status == "ok"])
    assert 1 <= finished < 6
    # the message names how many units are left and how to resume them
    assert f"{6 - finished} unit(s) are unfinished" in message and "run the same command again" in message
    store.close()

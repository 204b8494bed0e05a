"""The Redis-shared rate limit and unit leases, and the task body's idempotency (real Redis, no mocks)."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Mapping
from pathlib import Path

import pytest
import redis
from celery.exceptions import Retry

from benger.errors import ConfigError
from benger.pipeline import GenerationUnit, PromptSet
from benger.schema import SystemConfig
from benger.store import open_store
from benger.testing.stub_server import run_stub_server
from benger.workers import LeaseHeld, Leases, RateLimiter, parse_queues, record_id, store_url
from benger.workers._tasks import generate

from .conftest import BENGER, make_corpora, stub_system

pytestmark = pytest.mark.redis


@pytest.fixture
def client(shared_redis: str) -> redis.Redis:
    return redis.Redis.from_url(shared_redis)


def test_token_bucket_spaces_calls_fairly(client: redis.Redis) -> None:
    limiter = RateLimiter(client, prefix=f"test:{uuid.uuid4().hex}:")
    # 60/min = 1 token/s, bucket of 1: the first call goes now, each later one waits one more second
    waits = [limiter.reserve("stub", 60) for _ in range(3)]
    assert waits[0] == 0.0
    assert waits[1] == pytest.approx(1.0, abs=0.05) and waits[2] == pytest.approx(2.0, abs=0.05)
    # 120/min = 2 tokens/s with a burst of 3: three calls now, the fourth waits for 1 token at 2/s = 0.5 s
    waits = [limiter.reserve("other", 120, burst=3) for _ in range(4)]
    assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] == pytest.approx(0.5, abs=0.05)


def test_token_bucket_is_shared_between_clients(shared_redis: str) -> None:
    prefix = f"test:{uuid.uuid4().hex}:"
    a = RateLimiter(redis.Redis.from_url(shared_redis), prefix=prefix)
    b = RateLimiter(redis.Redis.from_url(shared_redis), prefix=prefix)
    # one bucket of 1 token at 30/min (0.5 tokens/s): a takes it, b waits 1 / 0.5 = 2 s, a then 4 s
    assert a.reserve("ep", 30) == 0.0
    assert b.reserve("ep", 30) == pytest.approx(2.0, abs=0.05)
    assert a.reserve("ep", 30) == pytest.approx(4.0, abs=0.05)


def test_lease_is_exclusive_released_and_expires(client: redis.Redis) -> None:
    leases = Leases(client, prefix=f"test:{uuid.uuid4().hex}:", ttl=1)
    with leases.hold("unit-1"):
        with pytest.raises(LeaseHeld), leases.hold("unit-1"):
            pass
        with leases.hold("unit-2"):  # other units are independent
            pass
    with leases.hold("unit-1"):  # released on exit
        pass
    # a holder that dies without releasing (a SIGKILLed worker) loses the lease after ttl
    client.set(leases.prefix + "unit-3", "dead-worker", ex=1)
    with pytest.raises(LeaseHeld), leases.hold("unit-3"):
        pass
    time.sleep(1.2)
    with leases.hold("unit-3"):
        pass


def test_queue_names_are_checked() -> None:
    assert parse_queues("generation, judging,generation") == ["generation", "judging"]
    with pytest.raises(ConfigError, match="unknown queue 'judge'; choose from generation, judging, metrics"):
        parse_queues("generation,judge")


def test_worker_command_rejects_bad_queue_and_missing_broker() -> None:
    bad = subprocess.run([str(BENGER), "worker", "--queues", "nope"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown queue 'nope'" in bad.stderr and "Traceback" not in bad.stderr
    env = {**os.environ, "BENGER_BROKER_URL": "redis://127.0.0.1:1/0"}  # nothing listens on port 1
    down = subprocess.run([str(BENGER), "worker"], capture_output=True, text=True, timeout=60, env=env)
    assert down.returncode == 2 and "cannot reach the broker at redis://127.0.0.1:1/0" in down.stderr


@pytest.mark.usefixtures("shared_redis")
def test_redelivered_task_never_calls_twice(tmp_path: Path) -> None:
    store = open_store(tmp_path / "store.db")
    for corpus in make_corpora(n_fall=0, n_gp=2):
        store.add_corpus(corpus)
    with run_stub_server(latency_ms=0) as stub:
        system = SystemConfig.model_validate(stub_system(stub.base_url, "stub-gen"))
        unit = GenerationUnit(task_id="w-gp-01", system=system)
        payload = {"unit": unit.model_dump(mode="json"), "db": store_url(store), "prompts": {}, "options": {}}
        first = generate(payload)  # runs the task body in this process
        again = generate(payload)  # a redelivery of the same message
        assert first == again and first["status"] == "ok" and len(stub.log) == 1
        # while another delivery holds the unit's lease, this one makes no call and asks to be retried later
        other = GenerationUnit(task_id="w-gp-02", system=system)
        payload["unit"] = other.model_dump(mode="json")
        leases = Leases(redis.Redis.from_url(os.environ["BENGER_BROKER_URL"]))
        with leases.hold(record_id(store, other, PromptSet())), pytest.raises((Retry, LeaseHeld)):
            generate(payload)
        assert len(stub.log) == 1 and len(store.generations()) == 1
        assert generate(payload)["status"] == "ok" and len(stub.log) == 2
    store.close()


class _Resend:
    """Stands in for the signature a retry re-sends (the broker is not what this test is about)."""

    def __init__(self, sent: list[tuple[object, ...]]) -> None:
        self.sent = sent

    def __call__(self, *args: object, **kwargs: object) -> _Resend:
        resent = args[1] if len(args) > 1 else kwargs.get("args")  # (request, args, kwargs, ...)
        self.sent.append(tuple(resent or ()))  # type: ignore[arg-type]
        return self

    def apply_async(self, *args: object, **kwargs: object) -> None:
        return None


def _as_delivery(retries: int, payload: Mapping[str, object]) -> dict[str, object]:
    """Request fields of a worker delivery that has been retried ``retries`` times already."""
    return {"retries": retries, "called_directly": False, "is_eager": False, "id": uuid.uuid4().hex,
            "args": (payload,), "kwargs": {}}  # fmt: skip


@pytest.mark.usefixtures("shared_redis")
def test_obs11_waiting_for_a_lease_never_runs_out_of_retries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 10, observation 11: a unit leased by a live worker for a long call (here: 50 looks, 100 s) is
    retried again, not failed with MaxRetriesExceededError (Celery's default budget is 3)."""
    store = open_store(tmp_path / "store.db")
    store.add_corpora(make_corpora(n_fall=0, n_gp=1))
    sent: list[tuple[object, ...]] = []
    monkeypatch.setattr(generate, "signature_from_request", _Resend(sent))
    with run_stub_server(latency_ms=0) as stub:
        system = SystemConfig.model_validate(stub_system(stub.base_url, "stub-gen"))
        unit = GenerationUnit(task_id="w-gp-01", system=system)
        payload = {"unit": unit.model_dump(mode="json"), "db": store_url(store), "prompts": {}, "options": {}}
        leases = Leases(redis.Redis.from_url(os.environ["BENGER_BROKER_URL"]))
        generate.push_request(**_as_delivery(50, payload))
        try:
            with leases.hold(record_id(store, unit, PromptSet())), pytest.raises(Retry):
                generate.run(payload)
        finally:
            generate.pop_request()
        assert len(sent) == 1 and len(stub.log) == 0  # re-sent, nothing paid
    store.close()


def test_redis_failures_have_their_own_budget(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from benger.workers import _tasks

    class _AwayLeases:
        def hold(self, key: str) -> object:
            raise redis.ConnectionError("Redis is away")

    def no_redis() -> tuple[None, _AwayLeases]:
        return None, _AwayLeases()

    store = open_store(tmp_path / "store.db")
    store.add_corpora(make_corpora(n_fall=0, n_gp=1))
    monkeypatch.setattr(_tasks, "_redis", no_redis)
    sent: list[tuple[object, ...]] = []
    monkeypatch.setattr(generate, "signature_from_request", _Resend(sent))
    system = SystemConfig.model_validate(stub_system("http://127.0.0.1:9/v1", "stub-gen"))
    unit = GenerationUnit(task_id="w-gp-01", system=system)
    payload = {"unit": unit.model_dump(mode="json"), "db": store_url(store), "prompts": {}, "options": {}}
    generate.push_request(**_as_delivery(80, payload))  # 80 earlier lease waits do not count
    try:
        with pytest.raises(Retry):
            generate.run(payload)
        assert sent[-1] == ({**payload, "redis_failures": 1},)
        with pytest.raises(redis.ConnectionError):  # the 31st Redis failure in a row gives up
            generate.run({**payload, "redis_failures": _tasks.REDIS_MAX_RETRIES})
    finally:
        generate.pop_request()
    store.close()

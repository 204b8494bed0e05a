"""Fixtures for the worker tests: a fresh PostgreSQL database, a private Redis database or server, real
``benger worker`` subprocesses, and a small corpus whose stub replies are deterministic."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import redis

from benger.pipeline import RunConfig
from benger.schema import Corpus, FalloesungTask, PrincipleItem

BENGER = Path(sys.executable).with_name("benger")
REDIS_BASE = "redis://127.0.0.1:6379"
_LEASE_KEY = "benger:test-db-lease:{}"  # in database 0 of the shared server: one key per database in use
_LEASE_SECONDS = 4 * 3600


def _lease_redis_databases(n: int) -> list[int]:
    """Claim ``n`` free database numbers (1..15) of the shared Redis for this test run.

    ``BENGER_TEST_REDIS_DBS="7,8"`` names them instead. Otherwise each number is taken with ``SET NX`` on a lease key
    in database 0, so two test runs (or other work that leases the same way) never flush each other's databases.
    """
    named = os.environ.get("BENGER_TEST_REDIS_DBS")
    if named:
        return [int(part) for part in named.split(",")][:n]
    admin = redis.Redis.from_url(f"{REDIS_BASE}/0")
    token = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    taken: list[int] = []
    for db in range(1, 16):
        if admin.set(_LEASE_KEY.format(db), token, nx=True, ex=_LEASE_SECONDS):
            taken.append(db)
            if len(taken) == n:
                return taken
    for db in taken:
        admin.delete(_LEASE_KEY.format(db))
    pytest.skip("no free Redis database on 127.0.0.1:6379 (all of 1..15 are leased by other test runs)")


@pytest.fixture(scope="session")
def redis_dbs() -> Iterator[tuple[int, int]]:
    """This run's (broker, result) database numbers on the shared Redis, leased for the session."""
    try:
        broker, result = _lease_redis_databases(2)
    except redis.ConnectionError as exc:
        pytest.skip(f"Redis on 127.0.0.1:6379 is not reachable: {exc}")
    yield broker, result
    if not os.environ.get("BENGER_TEST_REDIS_DBS"):
        admin = redis.Redis.from_url(f"{REDIS_BASE}/0")
        for db in (broker, result):
            admin.delete(_LEASE_KEY.format(db))


def make_corpora(n_fall: int, n_gp: int) -> list[Corpus]:
    fall = [
        FalloesungTask(task_id=f"w-fall-{i:02d}", corpus="w-fall", area="Zivilrecht",
                       facts=f"Sachverhalt WFALL-{i:02d}: M mietet von V eine Wohnung; die Heizung fällt aus.",
                       reference=f"Lösung WFALL-{i:02d}: Minderung nach § 536 Abs. 1 BGB tritt kraft Gesetzes ein.")
        for i in range(1, n_fall + 1)
    ]  # fmt: skip
    gp = [
        PrincipleItem(task_id=f"w-gp-{i:02d}", corpus="w-gp", area="Strafrecht",
                      case=f"Fall WPRINZIP-{i:02d}: T zerkratzt das Auto des O.", question="Ist T strafbar?",
                      gold_answer="Ja" if i % 2 else "Nein", gold_reasoning="§ 303 Abs. 1 StGB.")
        for i in range(1, n_gp + 1)
    ]  # fmt: skip
    return [Corpus(name="w-fall", tasks=fall), Corpus(name="w-gp", tasks=gp)]


def stub_system(base_url: str, name: str) -> dict[str, Any]:
    return {"name": name, "provider": "openai-compatible", "model": name, "base_url": base_url,
            "temperature": 0.0, "max_output_tokens": 4000, "params": {"timeout_s": 10}}  # fmt: skip


def run_config(base_url: str, *, executor: str, judges: bool = True) -> RunConfig:
    return RunConfig(
        corpora=["w-fall", "w-gp"],
        systems=[stub_system(base_url, "stub-gen")],
        judges=[stub_system(base_url, "stub-judge")] if judges else [],
        executor=executor,
        concurrency=4,
        retry={"max_retries": 3, "initial_wait": 0.05, "max_wait": 0.2},
    )


@pytest.fixture
def pg_url(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[str]:
    """A new PostgreSQL database ``benger_workers_<uuid8>``, dropped afterwards."""
    with pg_database("benger_workers") as url:
        yield url


def _set_redis_env(monkeypatch: pytest.MonkeyPatch, base: str, broker_db: int, result_db: int) -> None:
    monkeypatch.setenv("BENGER_BROKER_URL", f"{base}/{broker_db}")
    monkeypatch.setenv("BENGER_RESULT_BACKEND", f"{base}/{result_db}")


@pytest.fixture
def shared_redis(monkeypatch: pytest.MonkeyPatch, redis_dbs: tuple[int, int]) -> Iterator[str]:
    """This run's two leased databases of the shared Redis on 6379, emptied before and after; sets the BENGER_* URLs.

    The broker database's URL is the fixture's value (``redis://127.0.0.1:6379/<n>``).
    """
    base = REDIS_BASE
    broker_db, result_db = redis_dbs
    clients = [redis.Redis.from_url(f"{base}/{db}") for db in (broker_db, result_db)]
    try:
        for client in clients:
            client.flushdb()
    except redis.ConnectionError as exc:
        pytest.skip(f"Redis on 127.0.0.1:6379 is not reachable: {exc}")
    _set_redis_env(monkeypatch, base, broker_db, result_db)
    yield f"{base}/{broker_db}"
    for client in clients:
        client.flushdb()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A private ``redis-server`` without persistence (a restart loses every queue), restartable on its port."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.skip("redis-server is not installed")
        args = [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
        client = redis.Redis(port=self.port)
        for _ in range(100):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture
def own_redis(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[RedisServer]:
    """A private Redis server on a free port (never the shared one: this one gets killed)."""
    server = RedisServer(free_port(), tmp_path / "redis.log")
    server.start()
    _set_redis_env(monkeypatch, server.base, 0, 1)
    yield server
    server.kill()


class Workers:
    """``benger worker`` subprocesses, each in its own process group (so kill -9 takes its pool too)."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(
        self, n: int, *, queues: str = "generation,judging", concurrency: int = 1, pool: str = "prefork", **env: str
    ) -> None:
        environ = {**os.environ, **env}
        first = len(self.procs)
        for i in range(first, first + n):
            log = (self.tmp_path / f"worker-{i}.log").open("wb")
            args = [str(BENGER), "worker", "--queues", queues, "--concurrency", str(concurrency), "--pool", pool,
                    "--name", f"w{i}-{uuid.uuid4().hex[:6]}@test", "--loglevel", "INFO"]  # fmt: skip
            self.procs.append(
                subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=environ, start_new_session=True)
            )
        deadline = time.monotonic() + 60
        for i in range(first, first + n):
            while b"ready." not in self.log(i):
                if self.procs[i].poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"worker {i} did not start:\n{self.log(i).decode(errors='replace')}")
                time.sleep(0.2)

    def log(self, i: int) -> bytes:
        return (self.tmp_path / f"worker-{i}.log").read_bytes()

    def kill9(self, i: int) -> None:
        """SIGKILL the worker and its pool processes at once (no warm shutdown, no ack)."""
        os.killpg(self.procs[i].pid, signal.SIGKILL)
        self.procs[i].wait(timeout=10)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    pool = Workers(tmp_path)
    yield pool
    pool.stop()

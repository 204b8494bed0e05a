"""``benger worker``: start a Celery worker that runs generation / judging units from Redis."""

from __future__ import annotations

import os
import socket
from typing import Annotated, Any

import typer

from benger.cli._options import DbOption
from benger.errors import ConfigError

POOLS = ("prefork", "threads", "solo")


def worker(
    queues: Annotated[
        str, typer.Option("--queues", "-Q", help="Comma-separated queues: generation, judging, metrics.")
    ] = "generation,judging",
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", min=1, help="Units this worker runs at once.")] = 4,
    db: DbOption = None,
    pool: Annotated[str, typer.Option("--pool", help="prefork (processes), threads or solo.")] = "prefork",
    name: Annotated[str | None, typer.Option("--name", "-n", help="Worker name (default benger-PID@HOST).")] = None,
    loglevel: Annotated[str, typer.Option("--loglevel", "-l", help="Celery log level.")] = "INFO",
) -> None:
    """Run units from the Redis queues (BENGER_BROKER_URL) until stopped. Start as many as you like."""
    from benger.workers._settings import WORKER_DB_ENV, broker_url, parse_queues

    names = parse_queues(queues)
    if pool not in POOLS:
        raise ConfigError(f"--pool must be one of {', '.join(POOLS)}, not {pool!r}")
    if db is not None:
        _check_store(db)
        os.environ[WORKER_DB_ENV] = db  # tasks use this store instead of the URL the run sent
    _check_broker(broker_url())
    from benger.workers._app import app

    argv = [
        "worker",
        f"--queues={','.join(names)}",
        f"--concurrency={concurrency}",
        f"--pool={pool}",
        f"--loglevel={loglevel}",
        f"--hostname={name or f'benger-{os.getpid()}@{socket.gethostname()}'}",
        "--without-gossip",
        "--without-mingle",
    ]
    app.worker_main(argv)


def _check_store(db: str) -> None:
    """Fail fast on a store the worker could not use (bad URL, missing folder, unreachable server): open it
    (creating or upgrading it, as every task would) and close it again. Errors: ConfigError/InputError from
    ``open_store``."""
    from benger.store import open_store

    open_store(db).close()


def _check_broker(url: str) -> None:
    """Fail fast with a clear message when Redis is not reachable."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        raise ConfigError(f"cannot reach the broker at {url} (set BENGER_BROKER_URL): {exc}") from None


def _celery_executor(concurrency: int, config: Any, store: Any) -> Any:
    """``executor: celery`` for ``benger run``: imports the workers package (celery, redis) only when used."""
    from benger.workers import celery_executor

    return celery_executor(concurrency, config, store)


def register_celery_executor() -> None:
    """Make ``executor: celery`` available to the pipeline (called where a command builds its run config, so
    that registering the commands, e.g. for ``benger --help``, imports no pipeline module)."""
    from benger.pipeline import register_executor

    register_executor("celery", _celery_executor)


def register(app: typer.Typer) -> None:
    app.command()(worker)

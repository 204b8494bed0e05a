"""Where the broker and the result backend live (environment), the queue names and the timing knobs."""

from __future__ import annotations

import os

from benger.errors import ConfigError

BROKER_ENV = "BENGER_BROKER_URL"
RESULT_ENV = "BENGER_RESULT_BACKEND"
WORKER_DB_ENV = "BENGER_WORKER_DB"
DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
DEFAULT_RESULT = "redis://127.0.0.1:6379/1"

GENERATION_QUEUE = "generation"
JUDGING_QUEUE = "judging"
METRICS_QUEUE = "metrics"
QUEUES: tuple[str, ...] = (GENERATION_QUEUE, JUDGING_QUEUE, METRICS_QUEUE)

# A unit lease must outlive the longest single call; it is refreshed (every third of it) while the unit runs.
LEASE_ENV = "BENGER_LEASE_SECONDS"
DEFAULT_LEASE_SECONDS = 60
VISIBILITY_ENV = "BENGER_VISIBILITY_TIMEOUT"
# Redis hands an unacknowledged message (a killed worker's) to another worker after this many seconds.
# Leases make an early redelivery harmless: it waits until the first delivery has finished.
DEFAULT_VISIBILITY_TIMEOUT = 300
# How long ``benger run --executor celery`` waits for a vanished Redis to come back before giving up.
RECOVERY_ENV = "BENGER_REDIS_RECOVERY_SECONDS"
DEFAULT_RECOVERY_SECONDS = 120
# How long ``benger run --executor celery`` waits without any unit finishing before it asks which queues a
# live worker consumes; units of a queue no worker consumes end the run incomplete (exit 3, a rerun resumes).
WORKER_WAIT_ENV = "BENGER_WORKER_WAIT_SECONDS"
DEFAULT_WORKER_WAIT_SECONDS = 60


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"environment variable {name} must be a whole number of seconds, not {raw!r}") from None
    if value < 1:
        raise ConfigError(f"environment variable {name} must be at least 1, not {value}")
    return value


def broker_url() -> str:
    return os.environ.get(BROKER_ENV) or DEFAULT_BROKER


def result_backend_url() -> str:
    return os.environ.get(RESULT_ENV) or DEFAULT_RESULT


def visibility_timeout() -> int:
    return _int_env(VISIBILITY_ENV, DEFAULT_VISIBILITY_TIMEOUT)


def lease_seconds() -> int:
    return _int_env(LEASE_ENV, DEFAULT_LEASE_SECONDS)


def recovery_seconds() -> int:
    return _int_env(RECOVERY_ENV, DEFAULT_RECOVERY_SECONDS)


def worker_wait_seconds() -> int:
    return _int_env(WORKER_WAIT_ENV, DEFAULT_WORKER_WAIT_SECONDS)


def check_settings() -> None:
    """Read every setting a Celery run uses, so that a bad one (``BENGER_VISIBILITY_TIMEOUT=abc``) is a
    ConfigError before the command opens its store (issue 32, item 5)."""
    visibility_timeout()
    lease_seconds()
    recovery_seconds()
    worker_wait_seconds()
    for name, url in ((BROKER_ENV, broker_url()), (RESULT_ENV, result_backend_url())):
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise ConfigError(f"environment variable {name} must be a redis:// URL, not {url!r}")


def worker_db() -> str | None:
    """The store URL a worker was started with (``benger worker --db``); overrides the one a task names."""
    return os.environ.get(WORKER_DB_ENV) or None


def parse_queues(spec: str) -> list[str]:
    """``"generation,judging"`` -> the queue names, checked against :data:`QUEUES`."""
    names = [part.strip() for part in spec.split(",") if part.strip()]
    unknown = [name for name in names if name not in QUEUES]
    if not names or unknown:
        bad = f"unknown queue {unknown[0]!r}" if unknown else "no queue named"
        raise ConfigError(f"--queues: {bad}; choose from {', '.join(QUEUES)}")
    return list(dict.fromkeys(names))

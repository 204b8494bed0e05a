"""The Celery application: Redis broker, late acknowledgement, one queue per kind of work."""

from __future__ import annotations

from typing import Any

from celery import Celery
from kombu import Queue

from benger.workers._settings import QUEUES, broker_url, result_backend_url, visibility_timeout

TASK_MODULE = "benger.workers._tasks"


def transport_options() -> dict[str, Any]:
    """Redis transport settings: visibility timeout, restore sweeps, socket timeouts (a dead Redis never hangs)."""
    visibility = visibility_timeout()
    return {
        "visibility_timeout": visibility,
        "unacked_restore_interval": max(1, min(10, visibility // 4)),
        "unacked_restore_throttle": 1,
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
    }


def create_app() -> Celery:
    """Build the Celery app from the environment (BENGER_BROKER_URL, BENGER_RESULT_BACKEND)."""
    app = Celery("benger", broker=broker_url(), backend=result_backend_url(), include=[TASK_MODULE])
    app.conf.update(
        task_queues=[Queue(name) for name in QUEUES],
        task_default_queue=QUEUES[0],
        # A worker killed mid-task hands its message back instead of losing it.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        # Redis redelivers unacknowledged messages (a killed worker's work) after this many seconds; every
        # worker sweeps for such messages every quarter of it (at most every 10 s; kombu's default is 100 s).
        broker_transport_options=transport_options(),
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=24 * 3600,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
    )
    return app


app = create_app()

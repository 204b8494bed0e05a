"""Scale-out on Celery + Redis: the pipeline's units of work as Celery tasks, shared by many worker machines.

``CeleryExecutor`` plugs into the pipeline's runner (``benger run CONFIG --executor celery``); workers start
with ``benger worker --queues generation,judging``. The tasks live in ``benger.workers._tasks`` (imported
by the Celery app, not here, so the executor side does not need the task bodies).
"""

from benger.pipeline import register_executor
from benger.workers._executor import CeleryExecutor, celery_executor, store_url
from benger.workers._keys import is_done, record_id, stored_record
from benger.workers._redis import LeaseHeld, Leases, RateLimiter, redis_client
from benger.workers._settings import (
    GENERATION_QUEUE,
    JUDGING_QUEUE,
    METRICS_QUEUE,
    QUEUES,
    broker_url,
    parse_queues,
    result_backend_url,
)

__all__ = [
    "GENERATION_QUEUE",
    "JUDGING_QUEUE",
    "METRICS_QUEUE",
    "QUEUES",
    "CeleryExecutor",
    "LeaseHeld",
    "Leases",
    "RateLimiter",
    "broker_url",
    "celery_executor",
    "is_done",
    "parse_queues",
    "record_id",
    "redis_client",
    "result_backend_url",
    "store_url",
    "stored_record",
]

register_executor("celery", celery_executor)  # the pipeline's make_executor('celery', ...) finds it here

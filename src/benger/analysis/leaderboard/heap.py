"""The collector while the leaderboard reads its per-generation items (issue 18)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_freeze_lock = threading.Lock()


@contextmanager
def heap_frozen() -> Iterator[None]:
    """The objects that exist now (the imported libraries, ~10^6) are left out of the collector's full
    collections while the block runs (``gc.freeze``), unless something else has frozen them already.

    Reading the bootstrap's items allocates one tuple per generation: at 256k generations that triggered 2-3
    full collections, each walking the whole import heap (0.1-0.15 s apiece, 10-15 % of the bootstrap
    leaderboard's CPU). The new objects are still collected; the heap is unfrozen at the end."""
    with _freeze_lock:
        froze = gc.get_freeze_count() == 0
        if froze:
            gc.freeze()
    try:
        yield
    finally:
        if froze:
            with _freeze_lock:
                gc.unfreeze()

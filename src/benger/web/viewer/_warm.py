"""The first page of ``benger view``, started before the web stack is imported.

:func:`warm` runs in a daemon thread the leaderboard of a principal
(:func:`benger.web.viewer._kept.leaderboard_model`, kept in the store's ``ContentCache``): the main thread imports
FastAPI, Jinja and uvicorn and starts the server meanwhile (SQLite reads and numpy release the GIL, so the two
overlap). A request that arrives first waits for the computation (the cache computes once). Neither this module
nor what the thread imports loads the web stack or the study package (tests/web/test_viewer_imports.py), else the
thread would wait on the main thread's imports.
"""

from __future__ import annotations

import logging
import threading

from benger.store import Store
from benger.web._policy import Access, Capability, Principal

_LOG = logging.getLogger(__name__)


def warm(store: Store, principal: Principal) -> threading.Thread:
    """Start computing ``principal``'s leaderboard of ``store`` in a daemon thread; a request meanwhile waits
    for it, never computes it twice. A failure is logged and left to the request, which reports it as it would
    have."""

    def run() -> None:
        try:
            from benger.web.viewer._kept import leaderboard_model  # in the thread: the analysis' imports too

            leaderboard_model(Access(store, principal).require(Capability.RESULTS))
        except Exception:  # the request computes again and shows what went wrong
            _LOG.info("the leaderboard was not computed ahead", exc_info=True)

    thread = threading.Thread(target=run, name="benger-view-warm", daemon=True)
    thread.start()
    return thread

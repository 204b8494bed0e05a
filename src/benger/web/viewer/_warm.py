"""The first page of ``benger view``, started before the web stack is imported.

:func:`start` runs in a daemon thread what :func:`benger.web.viewer._router.warm` runs (the leaderboard of the
local principal, kept in the store's ``ContentCache``), importing the viewer itself there: the main thread
imports FastAPI, Jinja and uvicorn and starts the server meanwhile (SQLite reads and numpy release the GIL, so
the two overlap). A request that arrives first waits for the computation (the cache computes once). Nothing of
the web stack is imported by this module.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

_LOG = logging.getLogger(__name__)


def start(store: Any, organiser: bool = False) -> threading.Thread:
    """Compute the leaderboard of :meth:`Principal.local` (``organiser``) of ``store`` in a daemon thread. A
    failure (also a missing web extra) is logged and left to the request, which reports it as it would have."""

    def run() -> None:
        try:
            from benger.web.access import Access, Capability, Principal
            from benger.web.viewer._router import leaderboard_model

            access = Access(store, Principal.local(organiser=organiser)).require(Capability.RESULTS)
            leaderboard_model(access)
        except Exception:  # the request computes again and shows what went wrong
            _LOG.info("the leaderboard was not computed ahead", exc_info=True)

    thread = threading.Thread(target=run, name="benger-view-warm", daemon=True)
    thread.start()
    return thread

"""What the pipeline and the store share about claims (pay once): the claim lifetime and the owner ids.

Kept below both, and free of SQLAlchemy, so that importing the pipeline does not load the store.
"""

from __future__ import annotations

import os
import socket
import uuid

#: Seconds a claim lasts without renewal (the runner renews every third of it).
CLAIM_TTL_S = 300.0


def new_owner() -> str:
    """An owner id for one run: ``host:pid:random`` (the host and pid let a rerun take over a dead run's claims)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"

"""Claims: a lease on a unit of work, so that concurrent runs on one store pay for each model call once.

Before a runner calls the model for a unit it claims the unit's key; the claim is one atomic
``INSERT ... ON CONFLICT (unit_key) DO UPDATE ... WHERE <expired or own>`` (SQLite and PostgreSQL alike),
so of two runners racing for one key exactly one gets it. The holder renews its claims while it works
(``renew_claims``) and deletes each after the result is saved (``release_claim``). A claim whose holder
died stops blocking when it expires, or at once when the holder was a process on this host that no
longer exists.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from typing import Any

from sqlalchemy import delete, select, update

from benger.store._models import ClaimRow

#: Seconds a claim lasts without renewal (the runner renews every third of it).
CLAIM_TTL_S = 300.0


def new_owner() -> str:
    """An owner id for one run: ``host:pid:random`` (the host and pid let a rerun take over a dead run's claims)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _dead_local_owner(owner: str) -> bool:
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname()[:60] or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class ClaimsMixin:
    """The Store's claim methods (needs StoreBase's ``_insert``, ``_writer`` and ``_inline``)."""

    _insert: Any
    _writer: Any
    _inline: Any
    _claim_stmt: Any = None

    def _claim_statement(self) -> Any:
        if self._claim_stmt is None:
            table = ClaimRow.__table__
            insert = self._insert(ClaimRow)
            # the new claim's expiry minus the TTL is "now": the stored claim is expired when it ends before
            self._claim_stmt = insert.on_conflict_do_update(
                index_elements=["unit_key"],
                set_={"owner": insert.excluded.owner, "expires_at": insert.excluded.expires_at},
                where=(table.c.expires_at < insert.excluded.expires_at - CLAIM_TTL_S)
                | (table.c.owner == insert.excluded.owner),
            ).returning(table.c.unit_key)
        return self._claim_stmt

    def claim(self, unit_key: str, owner: str) -> bool:
        """Take the lease on ``unit_key`` for ``owner`` for ``CLAIM_TTL_S`` seconds; True when taken.

        False when another owner holds an unexpired claim (unless that owner is a dead process on this host,
        whose claim is taken over).
        """
        values = {"unit_key": unit_key, "owner": owner, "expires_at": time.time() + CLAIM_TTL_S}
        stmt = self._claim_statement()
        if self._inline is not None:
            taken = self._inline.execute_returns_row(stmt, values)
        else:
            with self._writer.begin() as connection:
                taken = connection.execute(stmt, values).first() is not None
        if taken or not self._take_over_dead(unit_key, owner):
            return bool(taken)
        return True

    def _take_over_dead(self, unit_key: str, owner: str) -> bool:
        with self._writer.begin() as connection:
            holder = connection.scalar(select(ClaimRow.owner).where(ClaimRow.unit_key == unit_key))
            if holder is None or not _dead_local_owner(str(holder)):
                return False
            moved = connection.execute(
                update(ClaimRow)
                .where(ClaimRow.unit_key == unit_key, ClaimRow.owner == holder)
                .values(owner=owner, expires_at=time.time() + CLAIM_TTL_S)
            )
            return bool(moved.rowcount)

    def release_claim(self, unit_key: str, owner: str) -> None:
        """Delete ``owner``'s claim on ``unit_key`` (a no-op when it holds none)."""
        with self._writer.begin() as connection:
            connection.execute(delete(ClaimRow).where(ClaimRow.unit_key == unit_key, ClaimRow.owner == owner))

    def renew_claims(self, owner: str) -> int:
        """Extend every claim of ``owner`` by ``CLAIM_TTL_S`` from now; returns how many it holds."""
        with self._writer.begin() as connection:
            result = connection.execute(
                update(ClaimRow).where(ClaimRow.owner == owner).values(expires_at=time.time() + CLAIM_TTL_S)
            )
            return int(result.rowcount)

    def claims(self) -> list[tuple[str, str, float]]:
        """Every current claim as (unit_key, owner, expires_at Unix seconds), sorted by key."""
        with self._writer.connect() as connection:
            rows = connection.execute(select(ClaimRow.unit_key, ClaimRow.owner, ClaimRow.expires_at))
            return sorted((str(k), str(o), float(e)) for k, o, e in rows)

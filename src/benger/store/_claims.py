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
from typing import Any

from sqlalchemy import bindparam, delete, exists, literal_column, select, update

from benger._claim_ids import CLAIM_TTL_S, new_owner
from benger.store._models import ClaimRow, GenerationRow, JudgementRow

__all__ = ["CLAIM_TTL_S", "ClaimsMixin", "new_owner"]


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


def _finished(kind: str) -> Any:
    """``EXISTS`` a finished result for the unit whose key fields are the named parameters."""
    if kind == "generation":
        g = GenerationRow
        return exists().where(
            g.corpus == bindparam("corpus"),
            g.task_id == bindparam("task_id"),
            g.config_hash == bindparam("config_hash"),
            g.run_index == bindparam("run_index"),
            g.status != literal_column("'failed'"),  # ok or excluded
        )
    j = JudgementRow
    return exists().where(
        j.target_kind == bindparam("target_kind"),
        j.target_id == bindparam("target_id"),
        j.judge_config_hash == bindparam("judge_config_hash"),
        j.rubric_id == bindparam("rubric_id"),
        j.repeat_index == bindparam("repeat_index"),
        j.status == literal_column("'scored'"),
    )


class ClaimsMixin:
    """The Store's claim methods (needs StoreBase's ``_insert``, ``_writer`` and ``_inline``)."""

    _insert: Any
    _writer: Any
    _inline: Any

    def _claim_statement(self, kind: str | None) -> Any:
        cache: dict[str | None, Any] = self.__dict__.setdefault("_claim_stmts", {})
        if kind not in cache:
            table = ClaimRow.__table__
            insert = self._insert(ClaimRow)
            if kind is not None:  # claim only while the unit is unfinished (one statement: no race, no re-read)
                params: Any = select(bindparam("unit_key"), bindparam("owner"), bindparam("expires_at"))
                insert = insert.from_select(["unit_key", "owner", "expires_at"], params.where(~_finished(kind)))
            # the new claim's expiry minus the TTL is "now": the stored claim is expired when it ends before
            cache[kind] = insert.on_conflict_do_update(
                index_elements=["unit_key"],
                set_={"owner": insert.excluded.owner, "expires_at": insert.excluded.expires_at},
                where=(table.c.expires_at < insert.excluded.expires_at - CLAIM_TTL_S)
                | (table.c.owner == insert.excluded.owner),
            ).returning(table.c.unit_key)
        return cache[kind]

    def _run_returns_row(self, stmt: Any, values: dict[str, Any]) -> bool:
        if self._inline is not None:
            done = self._inline.execute_returns_row(stmt, values, pages=2)  # a small row and its key
            if done is not None:
                return bool(done)
        with self._writer.begin() as connection:
            return connection.execute(stmt, values).first() is not None

    def claim(self, unit_key: str, owner: str, *, generation: tuple[str, str, str, int] | None = None,
              judgement: tuple[str, str, str, str, int] | None = None) -> bool:  # fmt: skip
        """Take the lease on ``unit_key`` for ``owner`` for ``CLAIM_TTL_S`` seconds; True when taken.

        False when another owner holds an unexpired claim (unless that owner is a dead process on this host,
        whose claim is taken over), and, given the unit's key (``generation``: corpus, task_id, config_hash,
        run_index; ``judgement``: target_kind, target_id, judge_config_hash, rubric_id, repeat_index),
        when the unit is already finished (ok/excluded generation, scored judgement).
        """
        values: dict[str, Any] = {"unit_key": unit_key, "owner": owner, "expires_at": time.time() + CLAIM_TTL_S}
        kind = None
        if generation is not None:
            kind = "generation"
            values |= dict(zip(("corpus", "task_id", "config_hash", "run_index"), generation, strict=True))
        elif judgement is not None:
            kind = "judgement"
            names = ("target_kind", "target_id", "judge_config_hash", "rubric_id", "repeat_index")
            values |= dict(zip(names, judgement, strict=True))
        if self._run_returns_row(self._claim_statement(kind), values):
            return True
        return self._take_over_dead(values, kind)

    def _take_over_dead(self, values: dict[str, Any], kind: str | None) -> bool:
        unit_key, owner = values["unit_key"], values["owner"]
        with self._writer.begin() as connection:
            holder = connection.scalar(select(ClaimRow.owner).where(ClaimRow.unit_key == unit_key))
            if holder is None or not _dead_local_owner(str(holder)):
                return False
            stmt = update(ClaimRow).where(ClaimRow.unit_key == unit_key, ClaimRow.owner == holder)
            if kind is not None:
                stmt = stmt.where(~_finished(kind))
            moved = connection.execute(stmt.values(owner=owner, expires_at=time.time() + CLAIM_TTL_S), values)
            return bool(moved.rowcount)

    def release_claim(self, unit_key: str, owner: str) -> None:
        """Delete ``owner``'s claim on ``unit_key`` (a no-op when it holds none)."""
        cache: dict[str | None, Any] = self.__dict__.setdefault("_claim_stmts", {})
        stmt = cache.get("release")
        if stmt is None:
            c = ClaimRow.__table__.c
            stmt = cache["release"] = (
                delete(ClaimRow)
                .where(c.unit_key == bindparam("unit_key"), c.owner == bindparam("owner"))
                .returning(c.unit_key)
            )
        self._run_returns_row(stmt, {"unit_key": unit_key, "owner": owner})

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

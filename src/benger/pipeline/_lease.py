"""Pay once: the local runner claims each unit in the store right before its model call.

Two ``benger generate`` processes on one store plan the same unfinished units. Before a unit's model
call, :meth:`Lease.run` claims the unit's key (``Store.claim``: one atomic upsert on SQLite and
PostgreSQL that also checks the unit is still unfinished); a unit another run holds, or has finished
since this run planned it, is skipped, so each unit is paid for once. The claim is deleted after the
result is saved, and renewed every third of its lifetime while the run works (a killed run's claims
expire, or are taken over at once by a run on the same host).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from benger._claim_ids import CLAIM_TTL_S, new_owner
from benger.pipeline._writer import WritableStore, group_writer

R = TypeVar("R")


@dataclass(frozen=True)
class Skipped:
    """A unit this run did not pay for: another run holds its claim or has finished it."""

    status: str = "skipped"
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    meta: dict[str, Any] = field(default_factory=dict)


SKIPPED = Skipped()


def generation_key(corpus: str, task_id: str, config_hash: str, run_index: int) -> str:
    """The claim key of a generation unit (its unit-of-work key; a task is (corpus, task id))."""
    return f"gen/{corpus}/{task_id}/{config_hash}/{run_index}"


def judgement_key(target_kind: str, target_id: str, judge_hash: str, rubric_id: str, repeat: int) -> str:
    """The claim key of a judge unit (its unit-of-work key)."""
    return f"jdg/{target_kind}/{target_id}/{judge_hash}/{rubric_id}/{repeat}"


class ClaimStore(WritableStore, Protocol):
    """The store methods a lease uses (``benger.store.Store`` has them, from ``store._claims``)."""

    def claim(
        self,
        unit_key: str,
        owner: str,
        *,
        generation: tuple[str, str, str, int] | None = None,
        judgement: tuple[str, str, str, str, int] | None = None,
    ) -> bool: ...
    def release_claim(self, unit_key: str, owner: str) -> None: ...
    def renew_claims(self, owner: str) -> int: ...


class Lease:
    """The claims of one runner pass on ``store``."""

    def __init__(self, store: ClaimStore) -> None:
        self.store = store
        self.owner = new_owner()
        self._inline = store.inline_writes

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        # SQLite: a local file write, cheap enough for the loop; PostgreSQL: a network round trip, off the loop
        return fn(*args) if self._inline else await asyncio.to_thread(fn, *args)

    async def run(self, key: str, unit_key: dict[str, Any], work: Callable[[], Awaitable[R]]) -> R | Skipped:
        """``work()`` under the claim on ``key``; SKIPPED when another run holds it or has finished the unit.

        ``unit_key``: ``{"generation": (corpus, task_id, config_hash, run_index)}`` or ``{"judgement": (target_kind,
        target_id, judge_config_hash, rubric_id, repeat_index)}``; the claim and the "finished?" check are
        one statement (``Store.claim``).
        """
        if self._inline:  # SQLite: the claim and its release run on the loop, no coroutine around them
            if not self.store.claim(key, self.owner, **unit_key):
                return SKIPPED
            try:
                return await work()
            finally:
                group = group_writer(self.store)  # in a run: committed with the next batch of records
                if group is None:
                    self.store.release_claim(key, self.owner)
                else:
                    await group.submit(self.store.release_claim, key, self.owner)
        if not await asyncio.to_thread(functools.partial(self.store.claim, key, self.owner, **unit_key)):
            return SKIPPED
        try:
            return await work()
        finally:
            await asyncio.to_thread(self.store.release_claim, key, self.owner)

    @contextlib.asynccontextmanager
    async def renewing(self, every_s: float = CLAIM_TTL_S / 3) -> AsyncIterator[Lease]:
        """Renew this lease's claims every ``every_s`` seconds while the block runs."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(every_s)
                await self._call(self.store.renew_claims, self.owner)

        task = asyncio.create_task(renew())
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

"""The budget ledger: one row per capped run, so that every process making the run's calls keeps one cap.

A call first *reserves* its worst case (input estimate + ``max_output_tokens``, and its cost at catalog
prices) with one conditional ``UPDATE ... WHERE spent + reserved + worst <= cap``: of any number of runners
and workers racing for the last part of a budget, only those whose worst cases fit get a reservation, and a
cap is never passed. After the call, :meth:`LedgerMixin.settle_budget` turns the reservation into what the
reply used (also when the call failed: its reservation is released). The arithmetic is SQL on both backends
(SQLite and PostgreSQL), so no process keeps a count of its own.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from benger.store._models import BudgetRow


@dataclass(frozen=True)
class BudgetState:
    """A ledger row as read: the caps and what was spent, reserved and refused so far."""

    budget_id: str
    max_tokens: int | None
    max_cost: float | None
    spent_tokens: int
    spent_cost: float
    reserved_tokens: int
    reserved_cost: float
    refused: int


class LedgerMixin:
    """The Store's budget-ledger methods (needs StoreBase's ``_writer``)."""

    _writer: Any

    def open_budget(self, max_tokens: int | None, max_cost: float | None) -> str:
        """A new ledger row with these caps (None: no cap of that kind); its id."""
        budget_id = uuid.uuid4().hex
        values = {"budget_id": budget_id, "max_tokens": max_tokens, "max_cost": max_cost}
        with self._writer.begin() as connection:
            connection.execute(insert(BudgetRow).values(**values))
        return budget_id

    def reserve_budget(self, budget_id: str, tokens: int, cost: float) -> bool:
        """Reserve ``tokens`` and ``cost`` (USD) when both fit under the caps with what is spent and reserved;
        False (and the refusal counted) when one does not."""
        b = BudgetRow.__table__.c
        fits = (b.budget_id == budget_id) & (b.max_tokens.is_(None) | (b.spent_tokens + b.reserved_tokens + tokens
                                                                       <= b.max_tokens))  # fmt: skip
        fits &= b.max_cost.is_(None) | (b.spent_cost + b.reserved_cost + cost <= b.max_cost)
        reserve = update(BudgetRow).where(fits).values(reserved_tokens=b.reserved_tokens + tokens,
                                                        reserved_cost=b.reserved_cost + cost)  # fmt: skip
        with self._writer.begin() as connection:
            if connection.execute(reserve).rowcount == 1:
                return True
        self.refuse_budget(budget_id)
        return False

    def refuse_budget(self, budget_id: str) -> None:
        """Count one call refused under ``budget_id``."""
        b = BudgetRow.__table__.c
        with self._writer.begin() as connection:
            connection.execute(update(BudgetRow).where(b.budget_id == budget_id).values(refused=b.refused + 1))

    def settle_budget(self, budget_id: str, reserved: tuple[int, float], used: tuple[int, float]) -> None:
        """Release a reservation (tokens, cost) and add what the call used (tokens, cost; 0 for a failed call)."""
        b = BudgetRow.__table__.c
        stmt = (
            update(BudgetRow)
            .where(b.budget_id == budget_id)
            .values(
                reserved_tokens=b.reserved_tokens - reserved[0],
                reserved_cost=b.reserved_cost - reserved[1],
                spent_tokens=b.spent_tokens + used[0],
                spent_cost=b.spent_cost + used[1],
            )
        )
        with self._writer.begin() as connection:
            connection.execute(stmt)

    def budget_state(self, budget_id: str) -> BudgetState | None:
        """The ledger row ``budget_id``; None when there is none."""
        with self._writer.begin() as connection:
            row = connection.execute(select(BudgetRow).where(BudgetRow.budget_id == budget_id)).first()
        if row is None:
            return None
        m = row._mapping
        return BudgetState(
            budget_id=m["budget_id"],
            max_tokens=m["max_tokens"],
            max_cost=m["max_cost"],
            spent_tokens=int(m["spent_tokens"]),
            spent_cost=float(m["spent_cost"]),
            reserved_tokens=int(m["reserved_tokens"]),
            reserved_cost=float(m["reserved_cost"]),
            refused=int(m["refused"]),
        )

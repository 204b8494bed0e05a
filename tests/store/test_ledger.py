"""The budget ledger: a reservation is admitted only while what is spent and reserved stays under the caps,
also with many threads racing for the last part of a budget (the in-process runner and every Celery worker
reserve in the same row); settling turns a reservation into what the call used."""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benger.store import Store


def test_reservations_fit_under_the_token_cap_and_settle_into_usage(store: Store) -> None:
    budget = store.open_budget(max_tokens=1000, max_cost=None)
    assert store.reserve_budget(budget, 600, 0.0)
    assert not store.reserve_budget(budget, 401, 0.0)  # 600 reserved + 401 > 1000
    assert store.reserve_budget(budget, 400, 0.0)  # exactly the cap
    store.settle_budget(budget, (600, 0.0), (150, 0.0))  # the first call used 150 of its 600
    state = store.budget_state(budget)
    assert state is not None
    assert (state.spent_tokens, state.reserved_tokens, state.refused) == (150, 400, 1)
    assert store.reserve_budget(budget, 450, 0.0)  # 150 + 400 + 450 = 1000
    assert not store.reserve_budget(budget, 1, 0.0)
    store.settle_budget(budget, (400, 0.0), (0, 0.0))  # a failed call: its reservation is released, 0 used
    state = store.budget_state(budget)
    assert state is not None and (state.spent_tokens, state.reserved_tokens, state.refused) == (150, 450, 2)


def test_the_cost_cap_and_budgets_apart(store: Store) -> None:
    capped = store.open_budget(max_tokens=None, max_cost=0.01)
    other = store.open_budget(max_tokens=None, max_cost=0.01)
    assert store.reserve_budget(capped, 10**9, 0.006)  # no token cap: any number of tokens
    assert not store.reserve_budget(capped, 1, 0.006)
    assert store.reserve_budget(other, 1, 0.006)  # another run's budget is its own
    assert store.budget_state("nope") is None


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cap=st.integers(min_value=0, max_value=5000),
    asks=st.lists(st.integers(min_value=1, max_value=1500), min_size=1, max_size=24),
    used_share=st.floats(min_value=0.0, max_value=1.0),
)
def test_racing_threads_never_reserve_past_the_cap(store: Store, cap: int, asks: list[int], used_share: float) -> None:
    """Each thread reserves, then settles using a share of its worst case; the sum of what was admitted at
    any moment (spent + reserved) never passes the cap, and every refusal is counted."""
    budget = store.open_budget(max_tokens=cap, max_cost=None)
    admitted: list[int] = []
    lock = threading.Lock()
    peaks: list[int] = []

    def call(tokens: int) -> None:
        if store.reserve_budget(budget, tokens, 0.0):
            state = store.budget_state(budget)
            assert state is not None
            with lock:
                admitted.append(tokens)
                peaks.append(state.spent_tokens + state.reserved_tokens)
            store.settle_budget(budget, (tokens, 0.0), (int(tokens * used_share), 0.0))

    threads = [threading.Thread(target=call, args=(n,)) for n in asks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    state = store.budget_state(budget)
    assert state is not None
    assert all(peak <= cap for peak in peaks)
    assert state.reserved_tokens == 0
    assert state.spent_tokens == sum(int(n * used_share) for n in admitted) <= cap
    assert state.refused == len(asks) - len(admitted)
    if all(n > cap for n in asks):
        assert admitted == []


@pytest.mark.parametrize("caps", [(None, None), (0, 0.0)])
def test_no_cap_admits_everything_and_a_zero_cap_nothing(store: Store, caps: tuple[int | None, float | None]) -> None:
    budget = store.open_budget(*caps)
    assert store.reserve_budget(budget, 10, 0.001) is (caps[0] is None)

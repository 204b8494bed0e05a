"""The local executor's call slots and prefetch, and the collector settings of a run."""

from __future__ import annotations

import asyncio
import gc

import pytest

from benger.errors import ConfigError
from benger.llm import ChatRequest, ChatResponse, Usage
from benger.llm._base import ProviderModel
from benger.pipeline import LocalExecutor
from benger.pipeline._gc import RUN_THRESHOLDS, run_gc
from benger.schema import SystemConfig


class _CountingModel(ProviderModel):
    """A provider whose call sleeps 20 ms and records how many calls overlap."""

    provider = "counting"

    def __init__(self) -> None:
        super().__init__(SystemConfig(name="c", provider="openai-compatible", model="m", base_url="http://h/v1",
                                      max_concurrency=100))  # fmt: skip
        self.in_flight = self.peak = 0

    async def _call(self, request: ChatRequest) -> ChatResponse:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(0.02)
        self.in_flight -= 1
        return ChatResponse(text="ok", finish_reason="stop", usage=Usage(input_tokens=1, output_tokens=1))


async def test_calls_in_flight_never_exceed_the_concurrency_while_more_units_are_prepared() -> None:
    model = _CountingModel()
    in_progress = peak_units = 0
    done: list[int] = []

    async def work(unit: int) -> int:
        nonlocal in_progress, peak_units
        in_progress += 1
        peak_units = max(peak_units, in_progress)
        await model.complete(ChatRequest(messages=[]))
        await asyncio.sleep(0.005)  # "parse and save" after the call released its slot
        in_progress -= 1
        return unit

    executor = LocalExecutor(3, prefetch=2)
    await executor.map(list(range(20)), work, lambda unit, result: done.append(unit))
    assert sorted(done) == list(range(20))
    assert model.peak == 3  # the run's 3 call slots, although the endpoint allows 100
    assert peak_units == 5  # 3 calling + 2 prepared


async def test_outside_a_run_only_the_endpoint_limit_applies() -> None:
    model = _CountingModel()
    await asyncio.gather(*(model.complete(ChatRequest(messages=[])) for _ in range(7)))
    assert model.peak == 7


def test_prefetch_defaults_to_an_eighth_of_the_concurrency() -> None:
    assert (LocalExecutor(64).prefetch, LocalExecutor(4).prefetch, LocalExecutor(8, prefetch=0).prefetch) == (8, 1, 0)
    with pytest.raises(ConfigError, match="prefetch"):
        LocalExecutor(8, prefetch=-1)


def test_run_gc_freezes_the_heap_and_restores_the_thresholds_after_the_last_run() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with run_gc():
        assert gc.get_threshold() == RUN_THRESHOLDS and gc.get_freeze_count() > 0
        with run_gc():  # a second run at the same time
            assert gc.get_threshold() == RUN_THRESHOLDS
        assert gc.get_threshold() == RUN_THRESHOLDS  # the first is still running
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

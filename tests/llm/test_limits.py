"""The per-endpoint limit: shared by the models of an endpoint, sized by the largest limit asked for."""

from __future__ import annotations

import asyncio
import contextlib

from llm_test_helpers import ask

from benger.llm import create_model
from benger.llm._limits import call_slot, endpoint_key, endpoint_semaphore, run_call_slots
from benger.llm._openai import map_completion_dict
from benger.schema import SystemConfig
from benger.testing import run_stub_server


async def test_endpoint_semaphore_grows_to_the_largest_size_asked_for() -> None:
    key = endpoint_key("openai-compatible", "http://127.0.0.1:1/v1/")
    small = endpoint_semaphore(key, 2)
    await small.acquire()
    await small.acquire()
    assert small.locked()  # 2 slots, both taken
    larger = endpoint_semaphore(key, 5)  # a model with a larger limit adds 5 - 2 = 3 slots
    assert larger is small and not larger.locked()
    for _ in range(3):
        await larger.acquire()
    assert larger.locked()  # 2 + 3 = 5 taken
    assert endpoint_semaphore(key, 1) is small and small.locked()  # a smaller request never shrinks it


async def test_call_slot_holds_a_run_slot_and_an_endpoint_slot_and_gives_both_back() -> None:
    key = endpoint_key("openai-compatible", "http://127.0.0.1:2/v1")
    endpoint, run = endpoint_semaphore(key, 1), asyncio.Semaphore(2)
    token = run_call_slots.set(run)
    try:
        async with call_slot(key, 1):
            assert endpoint.locked() and run._value == 1  # one of each taken
            waiting = asyncio.ensure_future(call_slot(key, 1).__aenter__())
            await asyncio.sleep(0)
            assert run._value == 0 and not waiting.done()  # the second caller holds a run slot, waits for the endpoint
            waiting.cancel()
            await asyncio.gather(waiting, return_exceptions=True)
            assert run._value == 1  # cancelled while waiting: its run slot is back
        assert not endpoint.locked() and run._value == 2
    finally:
        run_call_slots.reset(token)
    async with call_slot(key, 1):  # outside a run: the endpoint's slot only
        assert endpoint.locked()
    with contextlib.suppress(KeyError):
        async with call_slot(key, 1):
            raise KeyError("the call failed")
    assert not endpoint.locked()  # released on an error too


async def test_a_model_with_a_larger_limit_is_not_throttled_by_an_earlier_small_one() -> None:
    with run_stub_server(latency_ms=150) as stub:

        def system(name: str, limit: int) -> SystemConfig:
            return SystemConfig(name=name, provider="openai-compatible", model=name, base_url=stub.base_url,
                                max_concurrency=limit)  # fmt: skip

        small, wide = create_model(system("small", 2)), create_model(system("wide", 8))
        await small.complete(ask("eins"))  # fixes the endpoint at 2 slots first
        await asyncio.gather(*(wide.complete(ask(f"Frage {i}")) for i in range(8)))
        assert stub.max_in_flight == 8  # was 2 while the first model's size held for the endpoint


def test_completion_body_mapping() -> None:
    body = {"id": "c1", "model": "m", "choices": [{"message": {"content": "Antwort"}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 7}}  # fmt: skip
    response = map_completion_dict(body)
    assert (response.text, response.finish_reason, response.truncated) == ("Antwort", "length", True)
    assert (response.usage.input_tokens, response.usage.output_tokens, response.model) == (12, 7, "m")
    refused = map_completion_dict({"choices": [{"message": {"content": None, "refusal": "Nein."}}]})
    assert refused.refusal and refused.text == "" and refused.raw["refusal"] == "Nein."

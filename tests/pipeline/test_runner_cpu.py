"""Issue 18: the runner's per-call shortcuts keep the behaviour they replace.

- ``_ask`` makes its first model call outside the retry loop; the re-asks after a malformed reply keep the
  policy's budget and waits (``RetryPolicy.backoff``: ``min(max_wait, initial_wait * 2**(n-1))``).
- ``execute_generation`` takes the config and system hashes from the runner; they are the ones it would compute.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from benger.llm import ChatMessage, ChatRequest, ChatResponse, RetryPolicy
from benger.llm._reply import MalformedOutput
from benger.pipeline import PromptSet, plan_generations, run_generations
from benger.pipeline._execute import _ask, _Tally
from benger.schema import FalloesungTask, SystemConfig
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

from .conftest import make_corpora


class _Replies:
    """A model that answers with the given texts in turn."""

    name = "replies"

    def __init__(self, texts: list[str]) -> None:
        self.texts = list(texts)
        self.calls = 0

    async def aclose(self) -> None:
        pass

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self.calls += 1
        return ChatResponse(text=self.texts.pop(0), finish_reason="stop")


def _parse(response: ChatResponse) -> str:
    if response.text != "good":
        raise MalformedOutput(f"not good: {response.text}")
    return response.text


def _sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    waits: list[float] = []
    real = asyncio.sleep

    async def sleep(delay: float, result: Any = None) -> Any:
        waits.append(delay)
        return await real(0, result)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    return waits


BASE = ChatRequest(messages=[ChatMessage(role="user", content="Frage")])


async def test_malformed_every_time_uses_the_whole_budget_with_the_same_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = _sleeps(monkeypatch)
    model, tally = _Replies(["x1", "x2", "x3", "x4"]), _Tally()
    policy = RetryPolicy(max_retries=3, initial_wait=0.25, max_wait=60.0, jitter=0.0)
    with pytest.raises(MalformedOutput, match="not good: x4"):
        await _ask(model, BASE, _parse, tally, policy, (None, None))
    assert (model.calls, tally.attempts) == (4, 4)  # 1 ask + 3 re-asks
    assert waits == [0.25, 0.5, 1.0]
    assert tally.last_bad_reply == "x4"


async def test_a_good_second_reply_ends_the_re_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = _sleeps(monkeypatch)
    model, tally = _Replies(["bad", "good"]), _Tally()
    policy = RetryPolicy(max_retries=3, initial_wait=0.0, jitter=0.0)
    response, parsed = await _ask(model, BASE, _parse, tally, policy, (None, None))
    assert (parsed, response.text, model.calls, tally.attempts, waits) == ("good", "good", 2, 2, [0.0])


async def test_no_retry_budget_means_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = _sleeps(monkeypatch)
    model = _Replies(["bad"])
    with pytest.raises(MalformedOutput):
        await _ask(model, BASE, _parse, _Tally(), RetryPolicy(max_retries=0), (None, None))
    assert (model.calls, waits) == (1, [])


async def test_a_good_first_reply_makes_one_call_and_no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    waits = _sleeps(monkeypatch)
    model = _Replies(["good"])
    _, parsed = await _ask(model, BASE, _parse, _Tally(), RetryPolicy(), (None, None))
    assert (parsed, model.calls, waits) == ("good", 1, [])


async def test_the_runners_hashes_are_the_ones_execute_generation_computes(tmp_path: Path) -> None:
    store = open_store(tmp_path / "h.db")
    for corpus in make_corpora(n_fall=2, n_gp=1):
        store.add_corpus(corpus)
    tasks = [t for name in ("e2e-fall", "e2e-gp") for t in store.load_corpus(name).tasks]
    with run_stub_server(latency_ms=1) as stub:
        system = SystemConfig(name="s", provider="openai-compatible", model="stub", base_url=stub.base_url)
        prompts = PromptSet()
        units = plan_generations(store, tasks, [system], prompts)
        stats = await run_generations(store, units, prompts=prompts, tasks={t.task_id: t for t in tasks})
    assert stats.counts == {"ok": 3}
    kinds = {t.task_id: t.kind for t in tasks}
    for gen in store.generations():
        assert gen.config_hash == prompts.generation_config_hash(system, kinds[gen.task_id])
        assert gen.meta["system_config_hash"] == system.config_hash()
        assert gen.meta["prompt_hash"] == prompts.hash_for(kinds[gen.task_id])
    assert plan_generations(store, tasks, [system], prompts) == []  # resume finds them finished
    assert store.claims() == []  # every claim released
    with store.engine.connect() as connection:  # the runner only queues texts for the search index (never syncs)
        assert connection.exec_driver_sql("SELECT count(*) FROM generations_fts_pending").scalar_one() == 3
        assert connection.exec_driver_sql("SELECT count(*) FROM generations_fts").scalar_one() == 0
    store.close()


def test_a_template_without_values_is_rendered_once_one_with_values_per_task(tmp_path: Path) -> None:
    a = FalloesungTask(task_id="a", corpus="c", area="Zivilrecht", facts="K kauft.", reference="R")
    b = FalloesungTask(task_id="b", corpus="c", area="Strafrecht", facts="A nimmt.", reference="R")
    prompts = PromptSet()
    first, second = prompts.generation_messages(a), prompts.generation_messages(b)
    assert first[0].content == second[0].content == prompts._render("falloesung_system")  # the built-in: no values
    assert "(Zivilrecht)" in first[1].content and "(Strafrecht)" in second[1].content
    assert prompts._constant == {"falloesung_system": first[0].content, "falloesung_user": None}
    override = tmp_path / "system.j2"
    override.write_text("Gebiet: {{ area }}", encoding="utf-8")
    custom = PromptSet(overrides={"falloesung_system": str(override)})
    assert [custom.generation_messages(t)[0].content for t in (a, b, a)] == [
        "Gebiet: Zivilrecht",
        "Gebiet: Strafrecht",
        "Gebiet: Zivilrecht",
    ]

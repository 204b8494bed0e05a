"""The local executor's call slots and prefetch, and the collector settings of a run."""

from __future__ import annotations

import asyncio
import gc
import json
from collections import deque
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import EXIT_INCOMPLETE, EXIT_INPUT, EXIT_OK, ConfigError
from benger.llm import ChatRequest, ChatResponse, Usage
from benger.llm._base import ProviderModel
from benger.pipeline import LocalExecutor
from benger.pipeline._gc import RUN_THRESHOLDS, run_gc
from benger.schema import SystemConfig
from benger.store import open_store
from benger.testing import run_stub_server

from .conftest import make_corpora

_register_commands()
runner = CliRunner()


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


# -- issue 10, observation 10: exit codes of generate / judge / run --------------------------------------------


def _exit_setup(tmp_path: Path, base_url: str) -> tuple[Path, str]:
    corpus = tmp_path / "exit.jsonl"
    tasks = make_corpora(n_fall=3, n_gp=0)[0].tasks
    corpus.write_text("".join(json.dumps(t.model_dump(exclude={"corpus", "meta"}), ensure_ascii=False) + "\n"
                              for t in tasks), encoding="utf-8")  # fmt: skip
    config = tmp_path / "run.yaml"
    config.write_text(
        "name: exit\ncorpora: [exit.jsonl]\nconcurrency: 2\nretry: {max_retries: 1, initial_wait: 0, max_wait: 0}\n"
        f"systems:\n  - {{name: stub, provider: openai-compatible, model: stub, base_url: '{base_url}', "
        "temperature: 0}\n",
        encoding="utf-8",
    )
    return config, str(tmp_path / "exit.db")


def test_obs10_generate_with_a_failed_item_exits_incomplete_and_a_rerun_completes(tmp_path: Path) -> None:
    with run_stub_server(faults={"FALL-02": ["500"] * 10}) as stub:
        config, db = _exit_setup(tmp_path, stub.base_url)
        first = runner.invoke(app, ["generate", str(config), "--db", db, "--quiet"])
        again = runner.invoke(app, ["generate", str(config), "--db", db, "--quiet"])  # FALL-02 still fails
        port = stub.port
    assert first.exit_code == EXIT_INCOMPLETE, first.output
    assert "incomplete: items failed or remain (generate 1)" in " ".join(first.output.split())
    assert again.exit_code == EXIT_INCOMPLETE
    with run_stub_server(port=port) as stub:  # the same endpoint (it is part of the config hash), no faults
        config, db = _exit_setup(tmp_path, stub.base_url)
        last = runner.invoke(app, ["generate", str(config), "--db", db, "--quiet"])
    assert last.exit_code == EXIT_OK, last.output
    store = open_store(db)
    try:
        assert sorted(g.status for g in store.generations()) == ["ok", "ok", "ok"]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--tasks", "t-fall-99"], "the task filter t-fall-99 selects no task of the corpora exit"),
        (["--system", "nicht-da"], "the system filter nicht-da selects no system of the run (systems: stub)"),
    ],
)
def test_obs10_a_filter_selecting_nothing_is_an_input_error(tmp_path: Path, options: list[str], message: str) -> None:
    with run_stub_server() as stub:
        config, db = _exit_setup(tmp_path, stub.base_url)
        result = runner.invoke(app, ["generate", str(config), "--db", db, "--quiet", *options])
        assert stub.log == deque() or len(stub.log) == 0  # nothing was paid for
    assert result.exit_code == EXIT_INPUT, result.output
    assert message in " ".join(result.output.split())

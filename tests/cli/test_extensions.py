"""One way to extend benger (issue 31): a third-party distribution adds one item of each kind through its entry
points (a dist-info on sys.path, as pip would install it), and each appears in ``benger extensions``, in the
command that uses it and in the registry the tests read; once the distribution is gone, so are its items."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.cli._extensions import all_registries
from benger.corpora import resolve_corpus_source
from benger.llm import ChatMessage, ChatRequest, create_model, provider_spec
from benger.metrics import all_metrics, compute
from benger.registry import BUILTIN, refresh
from benger.schema import SystemConfig

MODULE = "benger_toy_plugin"
PLUGIN = '''
from pathlib import Path

from pydantic import BaseModel

from benger.analysis.results import Block, statistic
from benger.corpora import corpus_reader
from benger.llm import ChatResponse, ProviderModel, Usage, model_api
from benger.metrics import MetricDef, PairwiseCompute, Score
from benger.schema import Corpus, FalloesungTask


def _same_length(candidate, reference, params):
    return Score(1.0 if len(candidate.split()) == len(reference.split()) else 0.0)


METRIC = MetricDef(key="toy_length", label="Same length", family="toy", compute=PairwiseCompute(_same_length))


class Echo(ProviderModel):
    provider = "toy-echo"

    async def _call(self, request):
        return ChatResponse(text=request.messages[-1].content.upper(), finish_reason="stop",
                            usage=Usage(input_tokens=1, output_tokens=1))


@model_api("toy-echo", description="upper-cases the prompt")
def toy_echo():
    return Echo


class Count(Block):
    """How many generations."""

    count: int


@statistic("extras.toy_count", Count)
def toy_count(ctx):
    """Generations counted."""
    return {"method": "count", "inputs": {}, "count": len(ctx.data.generations)}


@corpus_reader("toycases", usage="toycases:N", description="N made-up cases")
def toycases(argument):
    tasks = [FalloesungTask(task_id=f"t{i}", corpus="toy", area="Zivilrecht", facts=f"Fall {i}", reference="R")
             for i in range(int(argument))]
    return [Corpus(name="toy", tasks=tasks)]


def kurz():
    return Path(__file__).with_name("kurz.yaml")
'''
RUBRIC = """\
name: kurz
version: "1"
title: Kurz
graded: false
total: 10
dimensions:
  - {key: ergebnis, label: Ergebnis, label_en: Result, max: 10}
"""
ENTRY_POINTS = f"""\
[benger.metrics]
toy_length = {MODULE}:METRIC

[benger.providers]
toy-echo = {MODULE}

[benger.statistics]
toy = {MODULE}

[benger.corpora]
toycases = {MODULE}

[benger.rubrics]
kurz-plugin = {MODULE}:kurz
"""


@pytest.fixture(autouse=True)
def _commands() -> None:
    _register_commands()  # the CLI registers its commands when run as a program


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / f"{MODULE}.py").write_text(textwrap.dedent(PLUGIN), "utf-8")
    (tmp_path / "kurz.yaml").write_text(RUBRIC, "utf-8")
    info = tmp_path / "benger_toy_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: benger-toy-plugin\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    refresh()
    try:
        yield tmp_path
    finally:
        monkeypatch.undo()
        sys.modules.pop(MODULE, None)
        refresh()


def test_each_kind_from_an_entry_point_appears_in_the_cli(plugin: Path) -> None:
    result = CliRunner().invoke(app, ["extensions"])
    assert result.exit_code == 0, result.output
    source = "(entry point {} (group benger.{}, distribution benger-toy-plugin))"
    for name, point, group in [
        ("toy_length", f"toy_length = {MODULE}:METRIC", "metrics"),
        ("toy-echo", f"toy-echo = {MODULE}", "providers"),
        ("extras.toy_count", f"toy = {MODULE}", "statistics"),
        ("toycases", f"toycases = {MODULE}", "corpora"),
        ("kurz-plugin", f"kurz-plugin = {MODULE}:kurz", "rubrics"),
    ]:
        assert f"  {name}  {source.format(point, group)}" in result.output, name
    listed = CliRunner().invoke(app, ["metrics", "--list"])
    assert listed.exit_code == 0 and any(line.startswith("toy_length ") for line in listed.output.splitlines())


def test_each_kind_from_an_entry_point_is_used(plugin: Path) -> None:
    from tests.analysis.test_study_data import _synthetic

    from benger.analysis import compute_all
    from benger.judge import load_rubric
    from benger.pipeline import load_run_config

    assert [v.value for v in compute(["a b", "a"], ["c d", "c d"], metrics=["toy_length"])] == [1.0, 0.0]
    model = create_model(SystemConfig(name="e", provider="toy-echo", model="none"))
    reply = asyncio.run(model.complete(ChatRequest(messages=[ChatMessage(role="user", content="Anspruch")])))
    assert reply.text == "ANSPRUCH"
    data = _synthetic()
    assert compute_all(data, n_boot=20, n_stacked=2)["extras"]["toy_count"]["count"] == len(data.generations)
    [corpus] = resolve_corpus_source("toycases:3")
    assert [t.task_id for t in corpus.tasks] == ["t0", "t1", "t2"]
    assert load_rubric("kurz-plugin").maxima() == {"ergebnis": 10.0}
    config = plugin / "run.yaml"
    config.write_text("corpora: [demo]\nrubrics: {demo-falloesung: kurz-plugin}\nsystems: [gpt-5.4]\n", "utf-8")
    assert load_run_config(config).resolved_rubrics()["demo-falloesung"].keys == ["ergebnis"]


def test_without_the_distribution_its_items_are_gone(plugin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "toy_length" in all_metrics() and provider_spec("toy-echo") is not None
    monkeypatch.undo()
    sys.modules.pop(MODULE, None)
    refresh()
    kinds = all_registries()
    for name in ("metric", "provider", "statistic", "rubric", "corpus reader"):
        assert all(entry.source == BUILTIN for entry in kinds[name].entries()), name
    assert "toy_length" not in all_metrics() and provider_spec("toy-echo") is None


def test_every_kind_is_listed_with_its_built_ins() -> None:
    kinds = all_registries()
    assert list(kinds) == ["metric", "provider", "statistic", "rubric", "corpus reader"]
    result = CliRunner().invoke(app, ["extensions"])
    assert result.exit_code == 0, result.output
    for kind, registry in kinds.items():
        assert f"{kind}s ({len(registry.entries())}, entry point group {registry.group}):" in result.output
        for entry in registry.entries():
            assert f"  {entry.name}  ({entry.source})" in result.output
    assert {"falloesung", "grundprinzipien"} <= set(kinds["rubric"].names())
    assert {"zjs", "release"} <= set(kinds["corpus reader"].names())
    bad = CliRunner().invoke(app, ["extensions", "--kind", "widget"])
    assert bad.exit_code == 2 and "unknown kind 'widget'" in bad.output

"""The provider registry (issue 17): one decorated loader per provider, lazy dependency and version checks."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benger.errors import ConfigError, MissingDependencyError
from benger.llm import PROVIDERS, ProviderModel, create_model, model_api, provider_spec, registered_providers
from benger.llm._anthropic import AnthropicChatModel
from benger.llm._google import GoogleChatModel
from benger.llm._openai import OpenAIChatModel
from benger.llm._registry import PROVIDERS_REGISTRY
from benger.registry import BUILTIN
from benger.schema import SystemConfig

URL = "http://127.0.0.1:9/v1"


@pytest.fixture
def scratch() -> Iterator[list[str]]:
    """Names registered by a test are removed afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        PROVIDERS_REGISTRY.remove(name)


# (provider as written in a system config, the model class it builds)
ROWS: list[tuple[str, type[ProviderModel]]] = [
    ("openai", OpenAIChatModel),
    ("openai-compatible", OpenAIChatModel),
    (" OpenAI-Compatible ", OpenAIChatModel),
    ("anthropic", AnthropicChatModel),
    ("google", GoogleChatModel),
    ("gemini", GoogleChatModel),
]


@pytest.mark.parametrize(("provider", "cls"), ROWS)
def test_built_in_providers(provider: str, cls: type[ProviderModel], monkeypatch: pytest.MonkeyPatch) -> None:
    for env in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.setenv(env, "k")
    model = create_model(SystemConfig(name="s", provider=provider, model="m", base_url=URL))
    assert type(model) is cls


def test_registered_names_and_errors() -> None:
    builtin = [e for e in PROVIDERS_REGISTRY.entries() if e.source == BUILTIN]
    assert PROVIDERS == tuple(e.name for e in builtin) == registered_providers()[: len(PROVIDERS)]
    assert {"openai", "openai-compatible", "anthropic", "google", "local"} <= set(PROVIDERS)  # the paper's own
    assert all(e.description and e.value.name == e.name for e in builtin)
    with pytest.raises(ConfigError, match=rf"unknown provider 'nope'; known: {', '.join(registered_providers())}"):
        create_model(SystemConfig(name="s", provider="nope", model="m"))
    with pytest.raises(ConfigError, match="provider openai-compatible needs a base_url"):
        create_model(SystemConfig(name="s", provider="openai-compatible", model="m"))
    spec = provider_spec("gemini")
    assert spec is not None and spec.name == "google" and spec.requires == ("google-genai>=1.0",)


class _Echo(ProviderModel):
    provider = "echo"

    async def _call(self, request: Any) -> Any:  # pragma: no cover - never called here
        raise NotImplementedError


def test_loading_is_lazy_and_requirements_are_checked_first(scratch: list[str]) -> None:
    loaded: list[str] = []

    def loader() -> type[ProviderModel]:
        loaded.append("x")
        return _Echo

    scratch += ["echo-missing", "echo-old", "echo-ok"]
    model_api("echo-missing", requires=("no-such-distribution-xyz>=1.0",), extra="echo")(loader)
    model_api("echo-old", requires=("openai<1.0",), extra="echo")(loader)
    model_api("echo-ok", aliases=(), requires=("openai>=1.0",))(loader)
    assert loaded == []  # registering imports nothing
    with pytest.raises(MissingDependencyError, match=r"needs the optional package 'no-such-distribution-xyz>=1.0'"):
        create_model(SystemConfig(name="s", provider="echo-missing", model="m"))
    with pytest.raises(MissingDependencyError, match=r"outside the tested range.*pip install 'benger\[echo\]'"):
        create_model(SystemConfig(name="s", provider="echo-old", model="m"))
    assert loaded == []  # a failed check never imports the provider
    assert type(create_model(SystemConfig(name="s", provider="echo-ok", model="m"))) is _Echo
    assert loaded == ["x"]


def test_a_provider_is_defined_once(scratch: list[str]) -> None:
    with pytest.raises(ValueError, match="provider 'openai' is registered twice"):
        model_api("openai")(lambda: _Echo)
    with pytest.raises(ValueError, match="provider 'gemini' is registered twice"):
        scratch.append("gemini-two")
        model_api("gemini-two", aliases=("gemini",))(lambda: _Echo)


PLUGIN = """
from benger.llm import ProviderModel, model_api


class PluginModel(ProviderModel):
    provider = "plugin-llm"

    async def _call(self, request):
        raise NotImplementedError


@model_api("plugin-llm", description="a plugin's provider")
def plugin_llm():
    return PluginModel
"""


def test_entry_point_providers_are_loaded_on_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution's ``benger.providers`` entry point (a dist-info on sys.path) is read when a name is missing,
    and its provider is gone again once the distribution is."""
    (tmp_path / "plugin_llm_ep.py").write_text(PLUGIN, "utf-8")
    info = tmp_path / "plugin_llm-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-llm\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text("[benger.providers]\nplugin = plugin_llm_ep\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    PROVIDERS_REGISTRY.refresh()
    try:
        model = create_model(SystemConfig(name="s", provider="plugin-llm", model="m"))
        assert type(model).__name__ == "PluginModel"
        entry = PROVIDERS_REGISTRY.get("plugin-llm")
        assert entry.source == "entry point plugin = plugin_llm_ep (group benger.providers, distribution plugin-llm)"
    finally:
        monkeypatch.undo()
        sys.modules.pop("plugin_llm_ep", None)
        PROVIDERS_REGISTRY.refresh()
    assert "plugin-llm" not in registered_providers()

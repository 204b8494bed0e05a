"""``create_model``: a SystemConfig in, a ChatModel (retry policy and endpoint limit included) out.

The built-in providers are registered here, one decorated loader each (``benger.llm.model_api``); adding a
provider is one such function plus its module (docs/llm.md, "Adding a provider").
"""

from __future__ import annotations

from benger.llm._base import ProviderModel
from benger.llm._registry import PROVIDERS_REGISTRY, ModelClass, create_registered, model_api
from benger.llm._retry import RetryPolicy
from benger.llm._structured import FORCED_ONLY, MODES
from benger.schema import SystemConfig

# the values of the parameters benger interprets itself, per provider (checked when a config is loaded)
_NEGOTIATED = {"structured_output": (*MODES, *FORCED_ONLY), "http_client": ("aiohttp", "httpx")}


def _local_check(system: SystemConfig) -> tuple[str, str] | None:
    from benger.llm._local import local_model_problem

    return local_model_problem(system)


@model_api(
    "openai", requires=("openai>=2.0",), choices=_NEGOTIATED, description="api.openai.com through the openai SDK"
)
def _openai() -> ModelClass:
    from benger.llm._openai import OpenAIChatModel

    return OpenAIChatModel


@model_api(
    "openai-compatible",
    requires=("openai>=2.0",),
    needs_base_url=True,
    choices=_NEGOTIATED,
    description="any OpenAI-compatible endpoint (vLLM, llama.cpp server, DeepInfra, ...) via base_url",
)
def _openai_compatible() -> ModelClass:
    from benger.llm._openai import OpenAIChatModel

    return OpenAIChatModel


@model_api(
    "anthropic",
    requires=("anthropic>=0.30",),
    extra="anthropic",
    choices={"structured_output": ("tool", "none")},
    description="Anthropic Messages API",
)
def _anthropic() -> ModelClass:
    from benger.llm._anthropic import AnthropicChatModel

    return AnthropicChatModel


@model_api(
    "google",
    aliases=("gemini",),
    requires=("google-genai>=1.0",),
    extra="google",
    choices={"structured_output": ("json_schema", "none")},
    description="Google Gemini",
)
def _google() -> ModelClass:
    from benger.llm._google import GoogleChatModel

    return GoogleChatModel


@model_api(
    "litellm",
    requires=("litellm>=1.40",),
    extra="litellm",
    choices={"structured_output": _NEGOTIATED["structured_output"]},
    description="litellm's routing (100+ providers, their keys and fallbacks) in-process, no proxy",
)
def _litellm() -> ModelClass:
    from benger.llm._litellm import LiteLLMChatModel

    return LiteLLMChatModel


@model_api(
    "local",
    choices={"structured_output": ("grammar", "fill", "none")},
    check=_local_check,
    description="GGUF models in-process with llama.cpp (the 'local' extra; checked on first use)",
)
def _local() -> ModelClass:
    from benger.llm._local import LocalChatModel

    return LocalChatModel


#: the built-in providers' names (a plugin's providers are in ``registered_providers()``)
PROVIDERS = PROVIDERS_REGISTRY.builtin_names()


def create_model(system: SystemConfig, policy: RetryPolicy | None = None) -> ProviderModel:
    """The ChatModel for ``system.provider``; raises ConfigError for unknown providers, a missing base_url or
    API key, and MissingDependencyError when the provider's SDK is missing or outside its tested range."""
    return create_registered(system, policy)

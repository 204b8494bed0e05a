"""``create_model``: a SystemConfig in, a ChatModel (retry policy and endpoint limit included) out."""

from __future__ import annotations

from benger.errors import ConfigError
from benger.llm._base import ProviderModel
from benger.llm._retry import RetryPolicy
from benger.schema import SystemConfig

PROVIDERS = ("openai", "openai-compatible", "anthropic", "google", "local")


def create_model(system: SystemConfig, policy: RetryPolicy | None = None) -> ProviderModel:
    """The ChatModel for ``system.provider``; raises ConfigError for unknown providers or missing API keys."""
    provider = system.provider.strip().lower()
    if provider in ("openai", "openai-compatible"):
        if provider == "openai-compatible" and not system.base_url:
            raise ConfigError(f"system '{system.name}': provider openai-compatible needs a base_url")
        from benger.llm._openai import OpenAIChatModel

        return OpenAIChatModel(system, policy)
    if provider == "anthropic":
        from benger.llm._anthropic import AnthropicChatModel

        return AnthropicChatModel(system, policy)
    if provider in ("google", "gemini"):
        from benger.llm._google import GoogleChatModel

        return GoogleChatModel(system, policy)
    if provider == "local":
        from benger.llm._local import LocalChatModel

        return LocalChatModel(system, policy)
    raise ConfigError(
        f"system '{system.name}': unknown provider {system.provider!r}; use one of {', '.join(PROVIDERS)}"
    )

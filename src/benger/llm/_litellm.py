"""``provider: litellm``: a user's own litellm routing (100+ providers, their keys, fallbacks) without a proxy.

``model`` is litellm's model string (``openai/gpt-5.4-mini``, ``ollama/qwen3``, ``hosted_vllm/my-model``, a
router alias); ``base_url`` is passed as ``api_base``; keys are litellm's own environment variables (or
``api_key_env``). Structured output negotiates exactly as for OpenAI-compatible endpoints
(``llm/_structured.py``); litellm's own retries are off (``num_retries=0``), so benger's policy is the only one.
Installed with ``pip install 'benger[litellm]'``.
"""

from __future__ import annotations

import os
from typing import Any

from benger.llm._base import ProviderModel
from benger.llm._errors import TransientError, map_sdk_error
from benger.llm._keys import api_key_from_env
from benger.llm._openai import OpenAIChatModel, _FormRefused, map_completion_dict
from benger.llm._protocol import ChatRequest, ChatResponse
from benger.llm._retry import RetryPolicy
from benger.llm._structured import is_form_refusal
from benger.schema import SystemConfig


class LiteLLMChatModel(OpenAIChatModel):
    """Chat completions through ``litellm.acompletion`` (OpenAI-shaped requests and replies)."""

    provider = "litellm"
    uses_client = False

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        ProviderModel.__init__(self, system, policy)  # litellm reads its providers' keys itself
        self._api_key = (api_key_from_env(system.api_key_env) or "") if system.api_key_env else ""
        # litellm fetches its model price map from the network at import unless told to use its bundled copy
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

    async def _post(self, request: ChatRequest, mode: str) -> ChatResponse:
        import litellm

        kwargs = self.build_request(request, mode)
        kwargs.update(kwargs.pop("extra_body", {}))
        if "max_completion_tokens" in kwargs:  # litellm maps max_tokens per provider itself
            kwargs["max_tokens"] = kwargs.pop("max_completion_tokens")
        if self.system.base_url:
            kwargs["api_base"] = self.system.base_url
        if self._api_key:
            kwargs["api_key"] = self._api_key
        try:
            reply = await litellm.acompletion(**kwargs, num_retries=0, drop_params=True)
        except Exception as exc:
            status = getattr(exc, "status_code", None)
            if "response_format" in kwargs and is_form_refusal(status, str(exc)):
                raise _FormRefused(int(status or 0), str(exc)) from exc
            raise map_sdk_error(exc, self.name) from exc
        data: Any = reply.model_dump() if hasattr(reply, "model_dump") else reply
        if not isinstance(data, dict):
            raise TransientError(f"{self.name}: litellm returned {type(data).__name__}, not a completion")
        if isinstance(data.get("usage"), dict) and not data["usage"].get("completion_tokens"):
            data["usage"] = None  # litellm fills a missing usage with zeros: benger estimates instead
        return map_completion_dict(data)

"""``provider: litellm``: a user's own litellm routing (100+ providers, their keys, fallbacks) without a proxy.

``model`` is litellm's model string (``openai/gpt-5.4-mini``, ``ollama/qwen3``, ``hosted_vllm/my-model``, a
router alias); ``base_url`` is passed as ``api_base``; keys are litellm's own environment variables (or
``api_key_env``), checked when the model is built (:func:`litellm_api_key`, litellm's ``validate_environment``):
a missing one is a ConfigError naming the variable before any call, as for every provider (litellm itself
reported it per call as an HTTP 500, which was retried). A server on this machine needs no key. Structured
output negotiates exactly as for OpenAI-compatible endpoints (``llm/_structured.py``); litellm's own retries are
off (``num_retries=0``), so benger's policy is the only one. Installed with ``pip install 'benger[litellm]'``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
from typing import Any

from benger.errors import MissingKeyError
from benger.llm._base import ProviderModel
from benger.llm._errors import TransientError, map_sdk_error
from benger.llm._keys import api_key_from_env
from benger.llm._openai import DUMMY_KEY, OpenAIChatModel, _FormRefused, is_local_url, map_completion_dict
from benger.llm._protocol import ChatRequest, ChatResponse
from benger.llm._retry import RetryPolicy
from benger.llm._structured import is_form_refusal
from benger.schema import SystemConfig


class LiteLLMChatModel(OpenAIChatModel):
    """Chat completions through ``litellm.acompletion`` (OpenAI-shaped requests and replies)."""

    provider = "litellm"
    uses_client = False

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        ProviderModel.__init__(self, system, policy)
        self._api_key = litellm_api_key(system)

    async def _post(self, request: ChatRequest, mode: str) -> ChatResponse:
        litellm = _litellm()

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

    async def aclose(self) -> None:
        """Close the HTTP clients litellm made for this loop's calls (it keeps them in a process-wide cache, so
        their aiohttp sessions outlived the run and were finalised at interpreter exit: "Unclosed client session"
        noise on stderr, through litellm's logging filter that fails at shutdown)."""
        await close_litellm_clients()


def litellm_installed() -> bool:
    """Whether litellm can be imported, found without importing it (an import outside :func:`_litellm` would
    fetch litellm's price map from the network)."""
    return importlib.util.find_spec("litellm") is not None


def _litellm() -> Any:
    """The litellm module, set up for benger: its bundled price map (it fetches one from the network at import
    otherwise) and no "Give Feedback / Get Help" banner printed with every exception benger handles itself. The
    one place benger (and its tests: ``tests/llm/test_litellm_import.py``) imports litellm."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    return litellm


async def close_litellm_clients() -> None:
    """Close the async HTTP clients litellm cached for the running loop (its cache keys end with the loop's token)
    and drop them from its cache: each holds an aiohttp session of this loop, which nothing closed before the
    loop ended. Clients of other loops (another run's thread) are left alone. A no-op before litellm's import."""
    import inspect
    import sys

    if "litellm" not in sys.modules:
        return
    litellm = _litellm()
    from litellm.caching.evicted_client_closer import running_loop_token

    cache = litellm.in_memory_llm_clients_cache
    suffix = f"-{running_loop_token()}"
    clients = [cache.cache_dict.pop(key) for key in [k for k in cache.cache_dict if str(k).endswith(suffix)]]
    for key in [k for k in cache.ttl_dict if str(k).endswith(suffix)]:
        cache.ttl_dict.pop(key, None)
    shared = getattr(litellm, "base_llm_aiohttp_handler", None)  # one for the process, its session of one loop
    session = getattr(shared, "client_session", None)
    if session is not None and getattr(session, "_loop", None) is asyncio.get_running_loop():
        clients.append(shared)
    for client in clients:
        close = getattr(client, "aclose", None) or getattr(client, "close", None)
        if close is not None and inspect.iscoroutinefunction(close):
            with contextlib.suppress(Exception):  # a client already closed, or broken: nothing left to free
                await close()
    if shared is not None and session is not None and getattr(session, "closed", False):
        shared.client_session = None  # the next loop's call builds a new session


def litellm_api_key(system: SystemConfig) -> str:
    """The key passed to litellm ("" to let litellm read its providers' variables), or ConfigError naming the
    variable(s) litellm would need: ``api_key_env`` when set; none for a server on this machine; else what
    ``litellm.validate_environment`` finds missing for the model (``OPENAI_API_KEY``, ``GEMINI_API_KEY``...; an
    ``*_API_BASE`` variable counts as given when ``base_url`` is; a stored key of that name is passed on)."""
    if system.api_key_env:
        key = api_key_from_env(system.api_key_env)
        if key:
            return key
        missing = [system.api_key_env]
    elif is_local_url(system.base_url):
        return DUMMY_KEY
    else:
        found = _litellm().validate_environment(model=system.model, api_base=system.base_url)
        missing = [k for k in found.get("missing_keys") or [] if not (system.base_url and k.endswith("_API_BASE"))]
        if found.get("keys_in_environment") or not missing:
            return ""
        supplied = next((key for name in missing if (key := api_key_from_env(name))), None)
        if supplied:
            return supplied
    raise MissingKeyError(system.name, system.provider, system.model, tuple(missing))

"""LLM providers behind one protocol, one retry policy and a model catalog.

Each name loads its module on first use (PEP 562 ``__getattr__``), so that importing one submodule does
not import the whole stage (issue 26: ``benger leaderboard`` imported every stage through package imports).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.llm._base import ProviderModel, compute_cost, token_cost
    from benger.llm._catalog import Catalog, load_catalog
    from benger.llm._errors import (
        ContentFilterError,
        ContextOverflowError,
        PermanentError,
        ProviderError,
        RateLimitError,
        TransientError,
        parse_retry_after,
    )
    from benger.llm._factory import PROVIDERS, create_model
    from benger.llm._limits import endpoint_key, endpoint_semaphore
    from benger.llm._local import LOCAL_MODELS, model_path
    from benger.llm._protocol import ChatMessage, ChatModel, ChatRequest, ChatResponse, Usage
    from benger.llm._refusal import REFUSAL_PATTERNS, Refusal, RefusedOutput, detect_refusal, refusal_phrase
    from benger.llm._registry import (
        PROVIDERS_REGISTRY,
        ProviderSpec,
        model_api,
        provider_spec,
        registered_providers,
        system_problem,
    )
    from benger.llm._reply import (
        PLACEHOLDER_WORDS,
        REASONING_TAGS,
        AmbiguousOutput,
        JsonObject,
        MalformedOutput,
        Reply,
        find_json_objects,
        find_placeholder,
        first_json_object,
        is_placeholder,
        read_json_reply,
        split_reasoning,
    )
    from benger.llm._retry import NO_RETRY, RetryPolicy, retry_async

_HOMES: dict[str, tuple[str, ...]] = {
    "benger.llm._base": (
        "ProviderModel",
        "compute_cost",
        "token_cost",
    ),
    "benger.llm._catalog": (
        "Catalog",
        "load_catalog",
    ),
    "benger.llm._errors": (
        "ContentFilterError",
        "ContextOverflowError",
        "PermanentError",
        "ProviderError",
        "RateLimitError",
        "TransientError",
        "parse_retry_after",
    ),
    "benger.llm._factory": (
        "PROVIDERS",
        "create_model",
    ),
    "benger.llm._limits": (
        "endpoint_key",
        "endpoint_semaphore",
    ),
    "benger.llm._local": (
        "LOCAL_MODELS",
        "model_path",
    ),
    "benger.llm._protocol": (
        "ChatMessage",
        "ChatModel",
        "ChatRequest",
        "ChatResponse",
        "Usage",
    ),
    "benger.llm._refusal": (
        "REFUSAL_PATTERNS",
        "Refusal",
        "RefusedOutput",
        "detect_refusal",
        "refusal_phrase",
    ),
    "benger.llm._registry": (
        "PROVIDERS_REGISTRY",
        "ProviderSpec",
        "model_api",
        "provider_spec",
        "registered_providers",
        "system_problem",
    ),
    "benger.llm._reply": (
        "PLACEHOLDER_WORDS",
        "REASONING_TAGS",
        "AmbiguousOutput",
        "JsonObject",
        "MalformedOutput",
        "Reply",
        "find_json_objects",
        "find_placeholder",
        "first_json_object",
        "is_placeholder",
        "read_json_reply",
        "split_reasoning",
    ),
    "benger.llm._retry": (
        "NO_RETRY",
        "RetryPolicy",
        "retry_async",
    ),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benger.llm' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "LOCAL_MODELS",
    "NO_RETRY",
    "PLACEHOLDER_WORDS",
    "PROVIDERS",
    "PROVIDERS_REGISTRY",
    "REASONING_TAGS",
    "REFUSAL_PATTERNS",
    "AmbiguousOutput",
    "Catalog",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "ContentFilterError",
    "ContextOverflowError",
    "JsonObject",
    "MalformedOutput",
    "PermanentError",
    "ProviderError",
    "ProviderModel",
    "ProviderSpec",
    "RateLimitError",
    "Refusal",
    "RefusedOutput",
    "Reply",
    "RetryPolicy",
    "TransientError",
    "Usage",
    "compute_cost",
    "create_model",
    "detect_refusal",
    "endpoint_key",
    "endpoint_semaphore",
    "find_json_objects",
    "find_placeholder",
    "first_json_object",
    "is_placeholder",
    "load_catalog",
    "model_api",
    "model_path",
    "parse_retry_after",
    "provider_spec",
    "read_json_reply",
    "refusal_phrase",
    "registered_providers",
    "retry_async",
    "split_reasoning",
    "system_problem",
    "token_cost",
]

"""LLM providers behind one protocol, one retry policy and a model catalog."""

from benger.llm._base import ProviderModel, compute_cost
from benger.llm._catalog import Catalog, load_catalog
from benger.llm._errors import (
    ContentFilterError,
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
from benger.llm._retry import NO_RETRY, RetryPolicy, retry_async

__all__ = [
    "LOCAL_MODELS",
    "NO_RETRY",
    "PROVIDERS",
    "Catalog",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "ContentFilterError",
    "PermanentError",
    "ProviderError",
    "ProviderModel",
    "RateLimitError",
    "RetryPolicy",
    "TransientError",
    "Usage",
    "compute_cost",
    "create_model",
    "endpoint_key",
    "endpoint_semaphore",
    "load_catalog",
    "model_path",
    "parse_retry_after",
    "retry_async",
]

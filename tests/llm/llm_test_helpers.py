"""Helpers shared by the LLM tests (a uniquely named module: tests/ has no packages)."""

from __future__ import annotations

from typing import Any

from benger.llm import ChatMessage, ChatRequest, RetryPolicy

FAST_POLICY = RetryPolicy(max_retries=3, initial_wait=0.01, max_wait=0.05, jitter=0.0)


def ask(text: str, **kwargs: Any) -> ChatRequest:
    """A one-message user request."""
    return ChatRequest(messages=[ChatMessage(role="user", content=text)], **kwargs)

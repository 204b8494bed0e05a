"""Token counts a server did not send: estimated from the text, and marked ``estimated`` wherever they go.

A server that omits ``usage`` (some OpenAI-compatible gateways, streaming proxies) used to be read as 0
tokens: the 200-token rule then re-asked (paid) and excluded a 600-word solution as "short: 0 output
tokens", and every sum of tokens or cost was silently low. benger never invents a count: when a reply has
no usage, its tokens are ``characters / CHARS_PER_TOKEN`` of the prompt and the reply and
``Usage.estimated`` is true; the store keeps that mark (``meta["tokens_estimated"]``) and the reports that
sum tokens or cost say so.

``CHARS_PER_TOKEN`` = 3.16 was measured with the Qwen2.5 tokenizer on 75 release texts (297,606 tokens;
single texts 2.69-3.56 characters per token, i.e. -15 % / +13 % for one German legal text). Local GGUF
models count with their own vocabulary and always report usage.
"""

from __future__ import annotations

import math

from benger.llm._protocol import ChatRequest, ChatResponse, Usage

CHARS_PER_TOKEN = 3.16


def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text``: characters / :data:`CHARS_PER_TOKEN`, rounded up (0 for empty text)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def estimated_usage(request: ChatRequest, response: ChatResponse) -> Usage:
    """Usage estimated from ``request``'s messages and ``response``'s text and reasoning (``estimated=True``)."""
    prompt = sum(estimate_tokens(m.content) for m in request.messages)
    reasoning = estimate_tokens(response.reasoning or "")
    return Usage(
        input_tokens=prompt,
        output_tokens=estimate_tokens(response.text) + reasoning,
        reasoning_tokens=reasoning if response.reasoning else None,
        estimated=True,
    )

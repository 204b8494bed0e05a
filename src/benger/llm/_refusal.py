"""Refusals and content filters, recognised before a reply is parsed (no re-ask, one paid call).

Order (docs/llm.md, "Refusals"):

1. provider fields: OpenAI ``message.refusal``, Anthropic ``stop_reason: refusal``, Gemini safety finish
   reasons / blocked prompts (mapped by each provider into ``ChatResponse.refusal_text``);
2. the finish reason ``content_filter`` (any provider, e.g. Azure/OpenAI-compatible servers);
3. a short list of German and English refusal phrases (``REFUSAL_PATTERNS``) — only for a reply that gave
   no usable answer (no valid JSON object, or a Falllösung below the minimum length) and whose visible text
   is at most ``PHRASE_MAX_CHARS`` long, so that a solution that merely *discusses* what someone "cannot
   do" is never taken for a refusal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from benger.llm._protocol import ChatResponse

PHRASE_MAX_CHARS = 600

# own wording; matched case-insensitively on the visible text with typographic apostrophes folded
REFUSAL_PATTERNS: tuple[str, ...] = (
    # German
    r"\bich kann (?:dir |ihnen )?(?:dabei|hierbei|damit|hier|bei dieser anfrage|diese anfrage|diese frage|das)"
    r" (?:leider )?nicht (?:helfen|beantworten|bearbeiten|unterstützen|behilflich sein)",
    r"\bich (?:kann|darf|werde) (?:leider )?(?:keine|keinerlei) (?:rechtsberatung|rechtliche beratung|"
    r"rechtlichen rat|auskunft|antwort)",
    r"\b(?:es tut mir leid|leider|entschuldigung),? (?:aber )?(?:ich kann|kann ich) (?:diese|dabei|hierbei|das|"
    r"hier|keine|nicht|ihnen|dir)",
    r"\b(?:diese anfrage|diese frage|das) kann ich (?:leider )?nicht (?:beantworten|bearbeiten)",
    r"\bich bin (?:leider )?nicht in der lage,? (?:diese|dabei|hierbei|das|ihnen|dir)",
    # English
    r"\bi(?:'m| am) (?:sorry|afraid),? (?:but )?i (?:can't|cannot|won't|will not|am unable to|am not able to)",
    r"\bi (?:can't|cannot|won't|will not) (?:help|assist|comply|provide|answer)",
    r"\bi(?:'m| am) (?:not able|unable) to (?:help|assist|provide|comply|answer)",
    r"\bas an ai\b.{0,60}\b(?:cannot|can't|unable|not able)",
)
_PATTERNS = tuple(re.compile(p, re.IGNORECASE) for p in REFUSAL_PATTERNS)
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})

RefusalSource = Literal["provider", "content_filter", "phrase"]


@dataclass(frozen=True)
class Refusal:
    """A recognised refusal: where it was seen and what the model or provider said."""

    source: RefusalSource
    detail: str

    def describe(self) -> str:
        """``refused (provider): …`` — the reason stored with an excluded generation/unscored judgement."""
        return f"refused ({self.source}): {self.detail}"[:500]


class RefusedOutput(Exception):
    """The model or its provider refused; the unit is final (excluded / unscored), never re-asked."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.describe())
        self.refusal = refusal


def detect_refusal(response: ChatResponse) -> Refusal | None:
    """Steps 1 and 2 of the module docstring: the provider's own signals, before any parsing."""
    if response.refusal_text:
        return Refusal("provider", response.refusal_text.strip())
    if response.finish_reason == "content_filter":
        return Refusal("content_filter", "finish_reason content_filter")
    if response.refusal:
        return Refusal("provider", "the provider flagged the reply as a refusal")
    return None


def refusal_phrase(visible_text: str) -> Refusal | None:
    """Step 3: a refusal phrase in a short reply (call only when the reply gave no usable answer).

    The refusal's detail is the whole (short, whitespace-normalised) reply."""
    text = " ".join(visible_text.split()).translate(_APOSTROPHES)
    if not text or len(text) > PHRASE_MAX_CHARS:
        return None
    for pattern in _PATTERNS:
        if pattern.search(text) is not None:
            return Refusal("phrase", text)
    return None

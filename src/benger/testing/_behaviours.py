"""Reply behaviours of the stub: reasoning models, format echoes, corrections, refusals, short answers.

A behaviour reshapes the responder's reply. It applies to every request of a model whose name carries it
after a ``+`` (``"stub+think"``, ``"stub-judge+echo+think"`` — usable from a run config), or to one request
as a scripted fault (``faults={"FALL-01": ["short"]}``). The final answer stays the responder's reply, so a
test can compare against a plain model:

=================  ==========================================================================================
``think``          ``<think>`` + a draft (answers flipped, numbers 0, texts cut to "Entwurf: …") + ``</think>``
                   before the reply
``reasoning``      the draft in the message's ``reasoning_content`` field (OpenAI dialect; Anthropic: a
                   thinking block; Gemini: a thought part), counted as reasoning tokens
``echo``           the output format echoed first (numbers 0, texts ``<Text>``, answers ``Ja/Nein``)
``correction``     a draft, then "Korrektur:", then the reply
``ambiguous``      a draft, then the reply, no correction marker
``short``          every text cut to its first 30 words (a Falllösung below 200 tokens)
``refusal``        no content; the OpenAI ``refusal`` field (Anthropic ``stop_reason: refusal``)
``refusal_phrase`` the content is a German refusal sentence
``content_filter`` no content; finish reason ``content_filter``
=================  ==========================================================================================
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

BEHAVIOURS = (
    "think", "reasoning", "echo", "correction", "ambiguous", "short", "refusal", "refusal_phrase", "content_filter",
)  # fmt: skip
REFUSAL_TEXT = "Dazu kann ich keine Auskunft geben."
REFUSAL_SENTENCE = "Es tut mir leid, aber ich kann dabei nicht helfen."
SHORT_WORDS = 30


@dataclass
class Shaped:
    """A reply being shaped: content, finish reason, refusal field, reasoning field."""

    content: str
    finish: str = "stop"
    refusal: str | None = None
    reasoning: str | None = None


def model_behaviours(model: Any) -> list[str]:
    """The behaviours named in a model name after ``+`` (unknown parts are part of the name, ignored)."""
    if not isinstance(model, str):
        return []
    return [part for part in model.split("+")[1:] if part in BEHAVIOURS]


def _variant(value: Any, mode: str) -> Any:
    if isinstance(value, dict):
        return {k: _variant(v, mode) for k, v in value.items()}
    if isinstance(value, list):
        return [_variant(v, mode) for v in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return 0
    if isinstance(value, str):
        if value in ("Ja", "Nein") and mode != "short":
            return "Ja/Nein" if mode == "echo" else ("Nein" if value == "Ja" else "Ja")
        if mode == "echo":
            return "<Text>"
        if mode == "short":
            return " ".join(value.split()[:SHORT_WORDS])
        return "Entwurf: " + " ".join(value.split()[:8])
    return value


def variant(content: str, mode: str) -> str:
    """``content`` as a draft (``draft``), a format echo (``echo``) or cut short (``short``)."""
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        if mode == "short":  # numbers stay: a short answer is still an answer
            short = {k: _variant(v, "short") if isinstance(v, str) else v for k, v in data.items()}
            return json.dumps(short, ensure_ascii=False)
        return json.dumps(_variant(data, mode), ensure_ascii=False)
    return str(_variant(content, mode))


def apply(behaviour: str, shaped: Shaped) -> Shaped:
    """Apply one behaviour (see the module table)."""
    content = shaped.content
    if behaviour == "think":
        shaped.content = f"<think>\nErst ein Entwurf:\n{variant(content, 'draft')}\n</think>\n{content}"
    elif behaviour == "reasoning":
        shaped.reasoning = f"Erst ein Entwurf:\n{variant(content, 'draft')}"
    elif behaviour == "echo":
        shaped.content = f"Das verlangte Format:\n{variant(content, 'echo')}\n\nMeine Antwort:\n{content}"
    elif behaviour == "correction":
        shaped.content = f"{variant(content, 'draft')}\n\nKorrektur: Ich habe mich verrechnet.\n{content}"
    elif behaviour == "ambiguous":
        shaped.content = f"{variant(content, 'draft')}\n\n{content}"
    elif behaviour == "short":
        shaped.content = variant(content, "short")
    elif behaviour == "refusal":
        shaped.content, shaped.refusal = "", REFUSAL_TEXT
    elif behaviour == "refusal_phrase":
        shaped.content = REFUSAL_SENTENCE
    elif behaviour == "content_filter":
        shaped.content, shaped.finish = "", "content_filter"
    return shaped

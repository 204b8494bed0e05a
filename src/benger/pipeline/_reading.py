"""Reading a generation reply: the Falllösung or the Ja/Nein answer, through ``benger.llm.read_json_reply``.

Reasoning (inline ``<think>`` blocks or a provider field) is kept apart and never taken for the answer; the
last valid object wins; format echoes and objects quoted from the prompt are ignored; several different
valid objects raise ``AmbiguousOutput`` (docs/pipeline.md, "Outcomes of a generation").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from benger.llm import ChatResponse
from benger.llm._reply import MalformedOutput, find_json_objects, read_json_reply, split_reasoning
from benger.llm._tokens import estimate_tokens
from benger.schema import FalloesungTask, PrincipleItem, normalise_answer

_LOESUNG_START = re.compile(r'"loesung"\s*:\s*"')


class ShortOutput(MalformedOutput):
    """A Falllösung shorter than the minimum (re-asked like a malformed reply); keeps what was written."""

    def __init__(self, tokens: int, minimum: int, text: str) -> None:
        super().__init__(f"short: {tokens} output tokens (minimum {minimum})")
        self.tokens = tokens
        self.text = text


def _salvage_truncated(text: str) -> str | None:
    """The partial solution of a reply cut off inside ``{"loesung": "...``, or None."""
    match = _LOESUNG_START.search(text)
    if match is None:
        return None
    body = text[match.end() :].rstrip().rstrip("\\")
    for end in (body, body.rsplit("\\", 1)[0]):
        try:
            value = json.loads(f'"{end}"')
            return str(value) if value.strip() else None
        except json.JSONDecodeError:
            continue
    return body or None


def _falloesung(data: dict[str, Any]) -> tuple[str, None]:
    solution = data.get("loesung")
    if not isinstance(solution, str) or not solution.strip():
        raise MalformedOutput("field 'loesung' missing or empty")
    return solution.strip(), None


def _grundprinzip(data: dict[str, Any]) -> tuple[str, Any]:
    raw = data.get("antwort")
    if not isinstance(raw, str):
        raise MalformedOutput("field 'antwort' missing")
    try:
        answer = normalise_answer(raw)
    except ValueError as exc:
        raise MalformedOutput(f"field 'antwort' is {raw!r}, expected 'Ja' or 'Nein'") from exc
    reasoning = data.get("begruendung")
    if not isinstance(reasoning, str) or not reasoning.strip():
        raise MalformedOutput("field 'begruendung' missing or empty")
    return reasoning.strip(), answer


def parse_generation(
    text: str,
    task: FalloesungTask | PrincipleItem,
    *,
    truncated: bool = False,
    plain_text: bool = False,
    reasoning: str | None = None,
    quoted: Iterable[str] = (),
) -> tuple[str, Any]:
    """(text, answer) from a generation reply; raises MalformedOutput (re-ask) or AmbiguousOutput (final).

    ``reasoning``: reasoning returned in a provider field; ``quoted``: the prompt texts (objects equal to
    one in them are echoes, never the answer). A Falllösung cut off by the token limit keeps the part
    written so far (flagged ``truncated``). ``plain_text`` (run option ``falloesung_format: text``): the
    whole visible reply (reasoning removed) is the Falllösung.
    """
    if plain_text and isinstance(task, FalloesungTask):
        body, _ = split_reasoning(text, reasoning)
        if body.startswith("```"):
            body = body.strip("`").removeprefix("markdown").removeprefix("text").strip()
        if not body:
            raise MalformedOutput("empty reply")
        return body, None
    validate = _falloesung if isinstance(task, FalloesungTask) else _grundprinzip
    try:
        result: tuple[str, Any] = read_json_reply(text, validate, reasoning=reasoning, quoted=quoted).value
    except MalformedOutput as exc:
        if truncated and isinstance(task, FalloesungTask):
            salvaged = _salvage_truncated(split_reasoning(text, reasoning)[0])
            if salvaged:
                return salvaged, None
        if isinstance(task, FalloesungTask) and not find_json_objects(text) and split_reasoning(text, reasoning)[0]:
            raise MalformedOutput(
                f"{exc.reason} (the reply is plain text, not JSON: set 'falloesung_format: text' in the run config "
                "to take the whole reply as the Falllösung)"
            ) from None
        raise
    return result


def answer_tokens(response: ChatResponse) -> int:
    """Output tokens of the answer itself, reasoning not counted (the 200-token rule's measure).

    The provider's ``reasoning_tokens`` when reported; else, when the reply carries reasoning (inline or in
    a field), the output tokens times the answer's share of the characters; else all output tokens. When the
    server sent no usage (``usage.estimated``), the estimate of the visible answer's own text (never 0 for a
    written answer)."""
    total = response.usage.output_tokens
    if response.usage.estimated:
        return estimate_tokens(split_reasoning(response.text, response.reasoning)[0])
    if response.usage.reasoning_tokens is not None:
        return max(0, total - response.usage.reasoning_tokens)
    visible, thoughts = split_reasoning(response.text, response.reasoning)
    if not thoughts:
        return total
    return round(total * len(visible) / max(1, len(visible) + len(thoughts)))

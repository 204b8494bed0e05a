"""Reading a model reply as it was meant: reasoning apart, the final valid JSON object, format echoes ignored.

The one place where generation, judging and the Ja/Nein parser turn reply text into data
(docs/llm.md, "Reading replies"). The rules, in order:

1. **Reasoning is not the answer.** ``<think>…</think>`` (also ``thinking``, ``reasoning``, ``thought``,
   ``reflection``) blocks are cut out of the text; a closing tag without an opening one (servers that put
   ``<think>`` into the prompt template) makes everything before it reasoning; an opening tag that is never
   closed makes everything after it reasoning. Reasoning a provider returns in its own field
   (``reasoning_content`` / ``reasoning``, Anthropic thinking blocks, Gemini thought parts) is joined in front.
   The reasoning is returned for the record's meta and never parsed.
2. **Top-level JSON objects** of the visible text are found by scanning with ``json.JSONDecoder.raw_decode``
   from each ``{`` that is not inside an object already decoded (code fences need no special case).
3. An object is **not a candidate** when it is a *quotation* (equal, as canonical JSON, to a top-level
   object of one of the ``quoted`` texts — the prompt the model was shown, which holds the candidate text
   for a judge and the format example for everyone) or a *format echo* (a string value that is a
   placeholder: ``<Text>``, ``[Begründung]``, ``...``, ``Ja/Nein``, see ``PLACEHOLDER_WORDS``), or when
   the caller's ``validate`` rejects it.
   An object that states a key twice with **different values** (``"punkte": 14, "punkte": 0``) contradicts
   itself and is not a candidate either (``duplicate key '<path>' with different values: …``); ``json``
   would silently keep the last value.
4. A valid object followed (before the next valid object) by a **correction marker** (``Korrektur``,
   ``korrigiert``, ``Berichtigung``, ``endgültige Bewertung``, ``Correction``, …) is superseded. A correction
   marker after the *selected* object (prose, no object follows) is returned as ``Reply.correction_after``.
5. Of the remaining valid objects the **last** is the answer. When they are not all equal (canonical JSON),
   the reply is **ambiguous**: ``AmbiguousOutput`` — never silently the first or the last.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")

REASONING_TAGS = ("think", "thinking", "reasoning", "thought", "reflection")
_TAG_ALT = "|".join(REASONING_TAGS)
_BLOCK = re.compile(rf"<\s*({_TAG_ALT})\s*>(.*?)<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
_OPEN = re.compile(rf"<\s*({_TAG_ALT})\s*>", re.IGNORECASE)
_CLOSE = re.compile(rf"<\s*/\s*({_TAG_ALT})\s*>", re.IGNORECASE)

# whole string values that are a template's placeholder, not content (compared case-insensitively, stripped)
PLACEHOLDER_WORDS = frozenset(
    {
        "...", "…", "..", "xxx", "tbd", "todo", "text", "string", "zahl", "number", "summe", "punkte",
        "begründung", "begruendung", "ja/nein", "ja / nein", "ja oder nein", "ja|nein", "nein/ja",
        "\"ja\" oder \"nein\"", "lösung", "loesung", "antwort",
    }
)  # fmt: skip
_PLACEHOLDER = re.compile(r"^\s*(<[^<>]{0,120}>|\[[^\[\]]{0,120}\]|\{\{[^{}]{0,120}\}\})\s*$")
CORRECTION_PATTERN = _CORRECTION = re.compile(
    r"\b(korrektur|korrigier\w*|berichtig\w*|richtigstellung|endg(ü|ue)ltig\w*|überarbeitet\w*|"
    r"correction|corrected|revised|final (answer|assessment|version))\b",
    re.IGNORECASE,
)


class MalformedOutput(ValueError):
    """A reply without a usable answer (no JSON object, none valid, too short); ``reason`` says why.

    The pipeline re-asks on it within the retry budget."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AmbiguousOutput(ValueError):
    """Several *different* valid objects remain after the rules: final, unscored/excluded, no re-ask."""

    def __init__(self, reason: str, count: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.count = count


@dataclass(frozen=True)
class JsonObject:
    """A top-level JSON object of a text: the decoded value and its character span ``[start, end)``.

    ``duplicates``: the keys the object states more than once with *different* values, as dotted paths with
    the values in order (``("dimensionen.sachverhalt.punkte", (14, 0))``); ``json`` itself keeps the last."""

    value: dict[str, Any]
    start: int
    end: int
    duplicates: tuple[tuple[str, tuple[Any, ...]], ...] = ()


class _DuplicateRecorder:
    """``object_pairs_hook`` that builds plain dicts and remembers, per dict, keys given different values."""

    def __init__(self) -> None:
        self.seen: dict[int, dict[str, list[Any]]] = {}

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        conflicts: dict[str, list[Any]] = {}
        for key, value in pairs:
            if key in result and canonical(result[key]) != canonical(value):
                conflicts.setdefault(key, [result[key]]).append(value)
            result[key] = value
        if conflicts:
            self.seen[id(result)] = conflicts
        return result

    def paths(self, value: Any, prefix: str = "") -> list[tuple[str, tuple[Any, ...]]]:
        found: list[tuple[str, tuple[Any, ...]]] = []
        if isinstance(value, dict):
            for key, values in self.seen.get(id(value), {}).items():
                found.append((f"{prefix}{key}", tuple(values)))
            for key, item in value.items():
                found += self.paths(item, f"{prefix}{key}.")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                found += self.paths(item, f"{prefix}{index}.")
        return found


def duplicate_reason(obj: JsonObject) -> str | None:
    """Why ``obj`` contradicts itself (a key stated twice with different values), or None.

    ``"duplicate key 'dimensionen.sachverhalt.punkte' with different values: 14, 0"``."""
    if not obj.duplicates:
        return None
    path, values = obj.duplicates[0]
    shown = ", ".join(canonical(v) for v in values)
    return f"duplicate key {path!r} with different values: {shown}"


@dataclass(frozen=True)
class Reply(Generic[T]):
    """What ``read_json_reply`` selected: the validated value, the visible text and the reasoning.

    ``candidates``: top-level objects found; ``dropped``: why each non-selected object was not taken;
    ``correction_after``: prose after the selected object that corrects it (``Korrektur: …``, at most 200
    characters) — the object is still the answer, but the reply contradicts itself and callers flag it."""

    value: T
    raw: dict[str, Any]
    visible: str
    reasoning: str | None
    candidates: int
    dropped: tuple[str, ...] = field(default_factory=tuple)
    correction_after: str | None = None


def split_reasoning(text: str, provider_reasoning: str | None = None) -> tuple[str, str | None]:
    """(visible text, reasoning or None): rule 1 of the module docstring."""
    parts: list[str] = [provider_reasoning.strip()] if provider_reasoning and provider_reasoning.strip() else []
    visible = text or ""
    if "<" not in visible:  # no tag at all: skip the scans (the common case)
        return visible.strip(), parts[0] if parts else None
    close = _CLOSE.search(visible)
    if close is not None and not _OPEN.search(visible, 0, close.start()):
        parts.append(visible[: close.start()].strip())
        visible = visible[close.end() :]

    def cut(match: re.Match[str]) -> str:
        parts.append(match.group(2).strip())
        return ""

    visible = _BLOCK.sub(cut, visible)
    opened = _OPEN.search(visible)
    if opened is not None:  # never closed: cut off inside the reasoning, or the model forgot to close it
        parts.append(visible[opened.end() :].strip())
        visible = visible[: opened.start()]
    reasoning = "\n\n".join(p for p in parts if p)
    return visible.strip(), reasoning or None


def find_json_objects(text: str) -> list[JsonObject]:
    """Every top-level JSON object of ``text`` in order (raw_decode scanning; raw newlines in strings allowed)."""
    recorder = _DuplicateRecorder()
    decoder = json.JSONDecoder(strict=False, object_pairs_hook=recorder)
    found: list[JsonObject] = []
    start = text.find("{")
    while start != -1:
        recorder.seen.clear()
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            found.append(JsonObject(value, start, end, tuple(recorder.paths(value)) if recorder.seen else ()))
            start = text.find("{", end)
        else:  # pragma: no cover - raw_decode from "{" only yields objects
            start = text.find("{", start + 1)
    return found


def canonical(value: Any) -> str:
    """Canonical JSON (sorted keys) used to compare objects."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def is_placeholder(text: str) -> bool:
    """True for a template placeholder instead of content: ``<Punkte>``, ``[Text]``, ``...``, ``Ja/Nein``."""
    return bool(_PLACEHOLDER.match(text)) or text.strip().lower() in PLACEHOLDER_WORDS


def find_placeholder(value: Any) -> str | None:
    """The first placeholder string anywhere in ``value`` (dict values, list items), or None."""
    if isinstance(value, str):
        return value if is_placeholder(value) else None
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            hit = find_placeholder(item)
            if hit is not None:
                return hit
    return None


@functools.lru_cache(maxsize=256)
def _objects_of(text: str) -> frozenset[str]:
    return frozenset(canonical(obj.value) for obj in find_json_objects(text))


def quoted_objects(texts: Iterable[str]) -> frozenset[str]:
    """Canonical JSON of the top-level objects of ``texts`` (what a reply may quote but never answer with).

    Cached per text: a unit's re-asks and its judge repeats scan their prompt once."""
    return frozenset().union(*(_objects_of(text) for text in texts))


def read_json_reply(
    text: str,
    validate: Callable[[dict[str, Any]], T],
    *,
    reasoning: str | None = None,
    quoted: Iterable[str] = (),
    check_placeholders: bool = True,
) -> Reply[T]:
    """The reply's final valid object, validated by ``validate`` (which raises ``MalformedOutput`` to reject).

    ``check_placeholders=False`` leaves format-echo detection to ``validate`` (the Ja/Nein parser only
    looks at the answer field, so "..." in another field does not matter there).

    Raises ``MalformedOutput`` (no valid object; the reason of the last rejected object, or why nothing
    decoded) or ``AmbiguousOutput`` (several different valid objects). Rules: module docstring.
    """
    visible, thoughts = split_reasoning(text, reasoning)
    objects = find_json_objects(visible)
    if not objects:
        if not visible and thoughts:
            raise MalformedOutput("no answer after the reasoning")
        if "{" not in visible:
            raise MalformedOutput("malformed JSON: no JSON object in the reply")
        raise MalformedOutput("malformed JSON: the reply's JSON object could not be decoded")
    excluded = quoted_objects(quoted)
    valid: list[tuple[JsonObject, T, str]] = []
    dropped: list[str] = []
    last_reason = ""
    for obj in objects:
        key = canonical(obj.value)
        if key in excluded:
            dropped.append("quoted from the prompt")
            last_reason = "the only JSON object(s) are quoted from the prompt"
            continue
        contradiction = duplicate_reason(obj)
        if contradiction is not None:
            dropped.append(contradiction)
            last_reason = contradiction
            continue
        placeholder = find_placeholder(obj.value) if check_placeholders else None
        if placeholder is not None:
            dropped.append(f"format echo: placeholder {placeholder!r}")
            last_reason = f"format echo: placeholder {placeholder!r} instead of content"
            continue
        try:
            valid.append((obj, validate(obj.value), key))
        except MalformedOutput as exc:
            dropped.append(exc.reason)
            last_reason = exc.reason
    kept: list[tuple[JsonObject, T, str]] = []
    for index, item in enumerate(valid):
        following = valid[index + 1][0].start if index + 1 < len(valid) else None
        if following is not None and _CORRECTION.search(visible, item[0].end, following):
            dropped.append("superseded by a correction")
            continue
        kept.append(item)
    if not kept:
        raise MalformedOutput(last_reason)
    distinct = list(dict.fromkeys(key for _, _, key in kept))
    if len(distinct) > 1:
        raise AmbiguousOutput(f"ambiguous: {len(distinct)} different valid JSON objects in the reply", len(distinct))
    obj, value, _ = kept[-1]
    after = _CORRECTION.search(visible, obj.end)
    correction = None
    if after is not None:  # from the start of the line that holds the marker
        correction = visible[max(obj.end, visible.rfind("\n", obj.end, after.start()) + 1) :].strip()[:200]
    return Reply(value, obj.value, visible, thoughts, len(objects), tuple(dropped), correction)


def first_json_object(text: str) -> dict[str, Any]:
    """The first top-level JSON object of ``text`` (no validation, reasoning not removed).

    Raises MalformedOutput when none decodes. Prefer ``read_json_reply``; this is the raw building block."""
    objects = find_json_objects(text)
    if objects:
        return objects[0].value
    if "{" not in text:
        raise MalformedOutput("malformed JSON: no JSON object in the reply")
    raise MalformedOutput("malformed JSON: the reply's JSON object could not be decoded")

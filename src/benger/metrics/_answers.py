"""Ja/Nein answers of Grundprinzipien items: decision parsing for German legal prose, accuracy.

``parse_answer`` reads what a text *finally decides* (docs/pipeline.md, "Ja/Nein answers outside the pipeline"):

1. Reasoning blocks (``<think>…</think>``) are dropped (``benger.llm.split_reasoning``).
2. JSON: when the text holds objects with an answer key (``antwort``, ``answer``, ``entscheidung``, …),
   they decide through ``benger.llm.read_json_reply`` (the last valid object; several different ones -> None).
3. Prose, after removing echoed templates ("Ja/Nein", "Ja oder Nein", "(yes/no)"): decisions are found in
   three tiers and the highest tier present decides:

   - **final statements**: a label ("Antwort:", "Ergebnis:", "Entscheidung:", "Fazit:", "Answer:"),
     "… lautet: Ja", "Antwort ist Nein", "im Ergebnis (aber) nein", "mit Ja zu beantworten", "die Frage ist
     zu bejahen / (nicht) zu verneinen", "bejahe die Frage", a conclusion adverb with a bare answer
     ("Somit: Nein", "Daher ja.");
   - **answer words**: "Ja"/"Nein" opening the text, a sentence or a line, or following a colon or dash,
     and followed by punctuation, a line end or "weil/denn/da" — so the modal particle ("hat ja keine
     Wirkung") never counts, nor does a concessive "Ja, zwar …";
   - **conclusions** "ist zu bejahen" / "ist (nicht) zu verneinen" about anything else: the last one wins
     (Gutachtenstil states its result last).

   Within the two upper tiers different answers are a contradiction -> None, unless a correction marker
   ("Korrektur", "korrigiere", "endgültig", …) lies between them (then the later one counts). "Ja und Nein"
   decides nothing -> None.

   Only decisions the author *states as the result* count (``benger.metrics._answer_scope``): not one in a
   question, an Obersatz ("Fraglich ist, ob die Frage zu bejahen ist."), a hypothesis ("könnte", "wäre",
   "…, wenn …"), a reported or quoted view ("Man könnte meinen …", "Nach einer Mindermeinung …", "B meint,
   … sei …") or a view the next sentence rejects ("Das überzeugt nicht."). Intensified answers ("Klares
   Nein.", "Jawohl.", "ein eindeutiges Ja") and negated ones ("Die Antwort ist nicht Ja, sondern Nein.",
   "nicht zu bejahen") decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from benger.llm import AmbiguousOutput, MalformedOutput, find_json_objects, read_json_reply, split_reasoning
from benger.llm._reply import CORRECTION_PATTERN
from benger.metrics._accuracy import (  # noqa: F401  (re-exported: the module's public names)
    AccuracyReport,
    Answer,
    accuracy,
    accuracy_report,
    balanced_accuracy,
)
from benger.metrics._answer_scope import Scope
from benger.schema import normalise_answer

_JSON_KEYS = ("antwort", "answer", "entscheidung", "decision", "ergebnis", "result", "gold_answer")
_WORDS: dict[str, Answer] = {"ja": "Ja", "jawohl": "Ja", "yes": "Ja", "nein": "Nein", "no": "Nein"}
_Q = "\"'„“”‚‘’«»*_`"  # quotes and markdown emphasis around a word
_INTENSIFIER = r"(?:(?:ein(?:e)?\s+)?(?:klares|eindeutiges|deutliches|entschiedenes|glattes|definitives)\s+)?"
_W = rf"[{_Q}\s]*{_INTENSIFIER}[{_Q}]*(?P<w>jawohl|ja|nein|yes|no)(?![\w-])[{_Q}]*"
_AFTER = r"(?=[^\S\n]*(?:[.,!;:?)\]–—-]|\n|$)|\s+(?:weil|denn|da|because|since)\b)(?!,?\s*zwar\b)"
_TEMPLATE = re.compile(
    rf"[(\[]?[{_Q}]*\b(?:ja|yes)\b[{_Q}]*\s*(?:/|\||\boder\b|\bor\b|\bbzw\.?)\s*[{_Q}]*(?:nein|no)\b[{_Q}]*[)\]]?"
    rf"|[(\[]?[{_Q}]*\b(?:nein|no)\b[{_Q}]*\s*(?:/|\||\boder\b|\bor\b)\s*[{_Q}]*(?:ja|yes)\b[{_Q}]*[)\]]?",
    re.IGNORECASE,
)
_LABELS = (
    r"antwort|ergebnis|endergebnis|gesamtergebnis|entscheidung|fazit|l(?:ö|oe)sung|answer|result|decision|conclusion"
)
_ADVERBS = r"somit|daher|also|folglich|mithin|demnach|deshalb|insgesamt|damit|therefore|thus|so"
_VERB = r"(?P<neg>nicht\s+|keineswegs\s+|keinesfalls\s+)?(?:zu\s+)?(?P<v>bejah|vernein)(?:en|t|e)\b"
_FINAL = [
    re.compile(rf"\b(?:{_LABELS})\b[{_Q}\s]*(?:\([^)\n]{{0,30}}\))?[{_Q}\s]*[:=]\s*{_W}", re.IGNORECASE),
    re.compile(rf"\b(?:antwort|ergebnis|entscheidung|answer)\s+(?:lautet|ist|hei(?:ß|ss)t|is)"
               rf"(?:\s+(?:daher|somit|also|folglich|demnach|mithin|im\s+ergebnis))?\s*:?\s*(?P<neg>nicht\s+)?{_W}"
               r"(?!\s*,?\s*sondern)", re.IGNORECASE),
    re.compile(rf"\blautet\s*:?\s*(?P<neg>nicht\s+)?{_W}(?!\s*,?\s*sondern)", re.IGNORECASE),
    re.compile(rf"\bnicht\s+[{_Q}]*(?:ja|nein)[{_Q}]*\s*,?\s*sondern\s+{_W}", re.IGNORECASE),
    re.compile(rf"(?:^|[.!?:\n]\s*)[{_Q}]*(?:klar|eindeutig|definitiv|ganz\s+klar|selbstverst(?:ä|ae)ndlich)"
               rf"[{_Q}]*\s*[:,]?\s*{_W}{_AFTER}", re.IGNORECASE),
    re.compile(rf"\bim\s+ergebnis\s*[:,–—-]?\s*(?:(?:also|daher|aber|jedoch|doch|dann)\s+)?{_W}", re.IGNORECASE),
    re.compile(rf"\bmit\s+{_W}\s+(?:zu\s+)?beantwort", re.IGNORECASE),
    re.compile(rf"(?:^|[.!?\n]\s*)[{_Q}]*(?:{_ADVERBS})[{_Q}]*\s*[:,]?\s*{_W}{_AFTER}", re.IGNORECASE),
]  # fmt: skip
_FINAL_VERB = [
    re.compile(rf"\b(?:frage|fallfrage|ausgangsfrage)\b[^.!?\n]{{0,80}}?\b{_VERB}", re.IGNORECASE),
    re.compile(r"\b(?P<v>bejah|vernein)(?:e|en)\s+(?:ich\s+|wir\s+)?(?:die|diese)\s+(?:fall|ausgangs)?frage\b",
               re.IGNORECASE),
]  # fmt: skip
_LEADING = re.compile(rf"^[\s#>\-–—(\[{_Q}]*{_W}{_AFTER}", re.IGNORECASE)
_BARE = re.compile(rf"(?:[.!?:;\n]|[–—]\s|\s-\s)\s*[#>{_Q}]*\s*{_W}{_AFTER}", re.IGNORECASE)
_CONCLUSION = re.compile(rf"\b{_VERB}", re.IGNORECASE)


@dataclass(frozen=True)
class _Decision:
    tier: int
    start: int
    end: int
    answer: Answer


def _verb_answer(match: re.Match[str]) -> Answer:
    positive = match.group("v").lower() == "bejah"
    if match.groupdict().get("neg"):
        positive = not positive
    return "Ja" if positive else "Nein"


def _word_answer(match: re.Match[str]) -> Answer:
    answer = _WORDS[match.group("w").lower()]
    if match.groupdict().get("neg"):
        return "Nein" if answer == "Ja" else "Ja"
    return answer


def _decisions(text: str) -> list[_Decision]:
    found: list[_Decision] = []
    for pattern in _FINAL:
        found += [_Decision(4, m.start(), m.end(), _word_answer(m)) for m in pattern.finditer(text)]
    for pattern in _FINAL_VERB:
        found += [_Decision(4, m.start(), m.end(), _verb_answer(m)) for m in pattern.finditer(text)]
    lead = _LEADING.match(text)
    if lead is not None:
        found.append(_Decision(2, lead.start("w"), lead.end(), _WORDS[lead.group("w").lower()]))
    found += [_Decision(2, m.start("w"), m.end(), _WORDS[m.group("w").lower()]) for m in _BARE.finditer(text)]
    found += [_Decision(1, m.start(), m.end(), _verb_answer(m)) for m in _CONCLUSION.finditer(text)]
    return found


def _decide(text: str) -> Answer | None:
    scope = Scope.of(text)
    decisions = [d for d in _decisions(text) if scope.stated(d.start, d.end)]
    if not decisions:
        return None
    top = max(d.tier for d in decisions)
    tier = sorted((d for d in decisions if d.tier == top), key=lambda d: d.start)
    if top == 1:
        return tier[-1].answer
    kept = [
        d
        for i, d in enumerate(tier)
        if i + 1 == len(tier) or not CORRECTION_PATTERN.search(text, d.end, tier[i + 1].start)
    ]
    answers = {d.answer for d in kept}
    return answers.pop() if len(answers) == 1 else None


def _json_answer(data: dict[str, Any]) -> Answer:
    lowered = {str(k).lower(): v for k, v in data.items()}
    for key in _JSON_KEYS:
        value = lowered.get(key)
        if isinstance(value, bool):
            return "Ja" if value else "Nein"
        if isinstance(value, str):
            answer = parse_answer(value)
            if answer is None:
                raise MalformedOutput(f"field {key!r} decides nothing: {value!r}")
            return answer
    raise MalformedOutput("no answer field")


def parse_answer(text: str | None) -> Answer | None:
    """ "Ja" / "Nein" as the text finally decides it, or None (no decision, a contradiction, an ambiguity).

    Rules: module docstring. Accepts model replies, released answers and user data; never raises.
    """
    if not text or not text.strip():
        return None
    visible, _ = split_reasoning(text)
    objects = find_json_objects(visible)
    keyed = [o for o in objects if any(str(k).lower() in _JSON_KEYS for k in o.value)]
    if keyed:
        try:
            return read_json_reply(visible, _json_answer, check_placeholders=False).value
        except (MalformedOutput, AmbiguousOutput):
            return None
    for obj in reversed(objects):  # other JSON (no answer key) is not prose
        visible = visible[: obj.start] + " " + visible[obj.end :]
    try:
        return normalise_answer(visible.strip().strip(" \t\r\n" + _Q + "#>-–—:.()[]!"))
    except ValueError:
        pass
    return _decide(_TEMPLATE.sub(" ", visible).strip())

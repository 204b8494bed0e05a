"""The stub server's default responder: plausible, deterministic replies derived from a hash of the prompt."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from benger.judge import Rubric, falloesung_rubric, grade_points, grundprinzipien_rubric

_JA_NEIN = re.compile(r"\bja\b[^.\n]{0,40}\bnein\b|ja\s*/\s*nein", re.IGNORECASE)

_HEADINGS = [
    "A. Anspruch des K gegen V auf Zahlung aus § 433 Abs. 2 BGB",
    "B. Anspruch auf Schadensersatz aus §§ 280 Abs. 1, 241 Abs. 2 BGB",
    "C. Strafbarkeit des A gemäß § 242 Abs. 1 StGB",
    "D. Zulässigkeit und Begründetheit der Anfechtungsklage",
]
_SENTENCES = [
    "Fraglich ist zunächst, ob zwischen den Beteiligten ein wirksamer Vertrag zustande gekommen ist.",
    "Ein Vertrag setzt zwei übereinstimmende Willenserklärungen, Angebot und Annahme, voraus.",
    "Eine Willenserklärung ist eine private Willensäußerung, die auf eine Rechtsfolge zielt.",
    "Nach dem Sachverhalt hat der Beteiligte sein Angebot ausdrücklich und hinreichend bestimmt abgegeben.",
    "Die Annahme erfolgte rechtzeitig innerhalb der Frist des § 147 Abs. 2 BGB.",
    "Somit liegen zwei übereinstimmende Willenserklärungen vor, und der Vertrag ist wirksam geschlossen.",
    "Weiterhin könnte der Anspruch durch eine Anfechtung nach § 142 Abs. 1 BGB untergegangen sein.",
    "Ein Anfechtungsgrund ist jedoch nicht ersichtlich, da sich der Erklärende weder geirrt hat noch getäuscht wurde.",
    "Zu prüfen ist ferner, ob der Tatbestand in objektiver Hinsicht erfüllt ist.",
    "Eine Sache ist fremd, wenn sie zumindest auch im Eigentum eines anderen steht.",
    "Wegnahme bedeutet den Bruch fremden und die Begründung neuen, nicht notwendig tätereigenen Gewahrsams.",
    "Der Täter handelte auch vorsätzlich und in der Absicht rechtswidriger Zueignung.",
    "Rechtfertigungs- und Entschuldigungsgründe sind nicht ersichtlich.",
    "Die Klage ist zulässig, wenn der Verwaltungsrechtsweg nach § 40 Abs. 1 S. 1 VwGO eröffnet ist.",
    "Eine öffentlich-rechtliche Streitigkeit liegt vor, wenn die streitentscheidende Norm öffentlich-rechtlich ist.",
    "Die Klage ist begründet, soweit der Verwaltungsakt rechtswidrig ist und den Kläger in seinen Rechten verletzt.",
    "Die Behörde hat ihr Ermessen nicht fehlerfrei ausgeübt, weil sie wesentliche Belange außer Acht ließ.",
    "Nach überwiegender Ansicht ist in dieser Konstellation auf den objektiven Empfängerhorizont abzustellen.",
    "Für diese Auffassung spricht der Schutz des Rechtsverkehrs, sodass ihr hier zu folgen ist.",
    "Im Ergebnis ist die Voraussetzung damit erfüllt.",
]
_JUSTIFICATIONS = [
    "Die Lösung erkennt die zentralen Probleme und prüft sie in vertretbarer Reihenfolge.",
    "Definitionen werden überwiegend zutreffend wiedergegeben, an einzelnen Stellen aber nur verkürzt.",
    "Die Subsumtion bleibt teilweise knapp und geht nicht auf jedes Sachverhaltsdetail ein.",
    "Der Gutachtenstil wird weitgehend eingehalten, Ergebnisse werden jedoch gelegentlich vorweggenommen.",
    "Die Gliederung ist nachvollziehbar, die Sprache sachlich und überwiegend präzise.",
]


def prompt_hash(request: dict[str, Any]) -> bytes:
    """sha256 over the request's messages: every derived choice depends only on the prompt."""
    text = json.dumps(request.get("messages", []), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).digest()


class _Picker:
    """A deterministic stream of numbers from a prompt hash."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._n = 0

    def fraction(self) -> float:
        self._n += 1
        digest = hashlib.sha256(self._seed + self._n.to_bytes(4, "big")).digest()
        return int.from_bytes(digest[:8], "big") / 2**64

    def index(self, n: int) -> int:
        return int(self.fraction() * n)


def _last_user(request: dict[str, Any]) -> str:
    for message in reversed(request.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return ""


def _schema_of(request: dict[str, Any]) -> dict[str, Any] | None:
    """The request's JSON schema: in ``response_format`` (json_schema, or json_object with a schema), else
    one written into the prompt after "JSON-Schema" (benger's json_object and prompt modes)."""
    fmt = request.get("response_format") or {}
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        schema = (fmt.get("json_schema") or {}).get("schema")
        return schema if isinstance(schema, dict) else None
    if isinstance(fmt, dict) and isinstance(fmt.get("schema"), dict):
        return dict(fmt["schema"])
    prompt = _last_user(request)
    at = prompt.rfind("JSON-Schema")
    start = prompt.find("{", at) if at >= 0 else -1
    if start >= 0:
        try:
            found, _ = json.JSONDecoder().raw_decode(prompt[start:])
        except json.JSONDecodeError:
            return None
        return found if isinstance(found, dict) else None
    return None


def _rubric_for(text: str) -> Rubric | None:
    """The built-in rubric whose dimension keys (at least three) appear in ``text``."""
    for rubric in (falloesung_rubric(), grundprinzipien_rubric()):
        if sum(key in text for key in rubric.keys) >= 3:
            return rubric
    return None


def _score(picker: _Picker, maximum: float) -> float:
    return round((0.4 + 0.5 * picker.fraction()) * maximum * 2) / 2


def german_solution(picker: _Picker, paragraphs: int = 8) -> str:
    """A long German Gutachten-style text (~600 words) built from fixed sentences."""
    parts: list[str] = []
    for heading_index in range(2):
        parts.append(_HEADINGS[(picker.index(len(_HEADINGS)) + heading_index) % len(_HEADINGS)])
        for number in range(1, paragraphs // 2 + 1):
            sentences = [_SENTENCES[picker.index(len(_SENTENCES))] for _ in range(6)]
            parts.append(f"{number}. " + " ".join(sentences))
    parts.append("Ergebnis: Der geprüfte Anspruch besteht im dargestellten Umfang.")
    return "\n\n".join(parts)


def judge_reply(rubric: Rubric, picker: _Picker) -> dict[str, Any]:
    """A valid judge JSON for ``rubric``: per-dimension score/max/reason and a consistent total."""
    points_by_key = {d.key: _score(picker, d.max) for d in rubric.dimensions}
    scores = {
        d.key: {"score": points_by_key[d.key], "max": d.max, "reason": _JUSTIFICATIONS[picker.index(5)]}
        for d in rubric.dimensions
    }
    total = sum(points_by_key.values())
    reply: dict[str, Any] = {"scores": scores, "total_score": total}
    if rubric.graded:
        points = grade_points(total)
        reply.update({"grade_points": points, "passed": points >= 4})
    reply["overall_assessment"] = "Insgesamt eine solide Bearbeitung mit Schwächen in der Tiefe der Subsumtion."
    reply["improvements"] = ["Subsumtion vertiefen.", "Streitstände entscheiden.", "Normen genauer zitieren."]
    return reply


def instance_of(
    schema: dict[str, Any],
    picker: _Picker,
    *,
    root: dict[str, Any],
    key: str = "",
    maxima: dict[str, float] | None = None,
    limit: float | None = None,
) -> Any:
    """A deterministic value that validates against a (simple) JSON schema.

    Numbers below a property named like a rubric dimension (``maxima``) stay within that dimension's maximum.
    """
    maxima = maxima or {}

    def sub(schema_: dict[str, Any], key_: str, limit_: float | None = limit) -> Any:
        return instance_of(schema_, picker, root=root, key=key_, maxima=maxima, limit=limit_)

    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        defs = root.get("$defs") or root.get("definitions") or {}
        return sub(defs.get(name, {}), key)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        options = list(schema["enum"])
        return "Ja" if "Ja" in options else options[picker.index(len(options))]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if combinator in schema:
            options = [s for s in schema[combinator] if s.get("type") != "null"] or schema[combinator]
            return sub(options[0], key)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: sub(child, name, maxima.get(name, limit)) for name, child in props.items()}
    if kind == "array":
        count = max(int(schema.get("minItems", 1)), 1)
        return [sub(schema.get("items", {}), key) for _ in range(count)]
    if kind in ("number", "integer"):
        low = float(schema.get("minimum", 0))
        high = float(schema.get("maximum", limit if limit is not None else max(low, 10.0)))
        if key == "max" and limit is not None:
            return limit
        value = low + (high - low) * (0.4 + 0.5 * picker.fraction())
        step = float(schema.get("multipleOf", 0.5))
        return int(value) if kind == "integer" else round(value / step) * step
    if kind == "boolean":
        return True
    if key in ("answer", "antwort"):
        return "Ja"
    if key in ("solution", "loesung", "text", "falloesung"):
        return german_solution(picker)
    return _JUSTIFICATIONS[picker.index(len(_JUSTIFICATIONS))]


def default_responder(request: dict[str, Any]) -> str:
    """Reply content: Ja/Nein JSON, judge JSON, a schema instance, or a long German solution."""
    picker = _Picker(prompt_hash(request))
    prompt = _last_user(request)
    schema = _schema_of(request)
    rubric = _rubric_for(prompt + (json.dumps(schema) if schema else ""))
    if rubric is not None and (schema is None or "scores" in schema.get("properties", {})):
        return json.dumps(judge_reply(rubric, picker), ensure_ascii=False)
    if schema is not None:
        maxima = rubric.maxima() if rubric is not None else {}
        return json.dumps(instance_of(schema, picker, root=schema, maxima=maxima), ensure_ascii=False)
    if _JA_NEIN.search(prompt):
        reasoning = " ".join(_SENTENCES[picker.index(len(_SENTENCES))] for _ in range(4))
        return json.dumps({"answer": "Ja", "reasoning": reasoning}, ensure_ascii=False)
    text = german_solution(picker)
    if "json" in prompt.lower():
        return json.dumps({"solution": text}, ensure_ascii=False)
    return text

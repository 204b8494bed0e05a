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
_ADVICE = (
    r"(?:rechtsberatung|rechtliche[nr]? (?:beratung|rat|einschätzung|bewertung|auskunft)|rechtlichen rat|"
    r"juristische[nr]? (?:beratung|rat|einschätzung|bewertung|prüfung)|rechtsauskunft|rechtsauskünfte)"
)
_ME = r"(?:dir|ihnen|euch)"
REFUSAL_PATTERNS: tuple[str, ...] = (
    # German: "ich kann/darf/werde ... nicht helfen / keine Rechtsberatung", apologies, policy, "als KI"
    rf"\bich kann (?:{_ME} )?(?:dabei|hierbei|damit|hier|dazu|hierzu|bei dieser anfrage|diese anfrage|diese frage|"
    r"diese aufgabe|das|bei (?:der|dieser) aufgabe)(?: leider| so)? (?:leider )?nicht (?:helfen|beantworten|bearbeiten|"
    r"unterstützen|behilflich sein|weiterhelfen|lösen|erstellen|verfassen|übernehmen|nachkommen)",
    rf"\bich (?:kann|darf|werde|möchte|will)(?: {_ME})? (?:leider |hier |dazu |hierzu |in diesem fall )*"
    rf"(?:keine|keinerlei|nicht) (?:{_ADVICE}|auskunft|antwort|lösung|falllösung|gutachten|hilfe|unterstützung|"
    r"individuelle beratung)",
    rf"\b(?:es tut mir leid|leider|entschuldigung|entschuldige|verzeihung|bedauerlicherweise),? (?:aber )?"
    rf"(?:ich kann|kann ich|ich darf|darf ich|ich werde|ich muss|muss ich)(?: {_ME})? (?:diese|dabei|hierbei|das|"
    r"hier|keine|nicht|dazu|hierzu|ihnen|dir|ihre|deine|bei)",
    r"\b(?:diese anfrage|diese frage|diese aufgabe|das|dies|eine solche (?:anfrage|aufgabe|bewertung)) "
    r"(?:kann|darf|werde|möchte) ich (?:leider |so |hier )*nicht (?:beantworten|bearbeiten|übernehmen|erfüllen|"
    r"lösen|erledigen|leisten|tun)",
    rf"\b(?:dabei|hierbei|damit|hier|dazu|hierzu|bei dieser (?:anfrage|aufgabe)) (?:kann|darf|werde) ich (?:{_ME} )?"
    r"(?:leider |so |hier )*(?:nicht|keine) (?:helfen|weiterhelfen|behilflich sein|unterstützen|hilfe|unterstützung)",
    r"\b(?:die bearbeitung|eine (?:rechtliche|juristische) (?:bewertung|prüfung|einschätzung)|diese aufgabe|"
    r"das|dies|eine falllösung|ein gutachten) kann ich (?:leider |so |hier )*nicht übernehmen",
    r"\bich (?:bin|sehe mich) (?:leider |hier )*nicht (?:in der lage|befugt|berechtigt|imstande|autorisiert)",
    r"\bich muss (?:diese anfrage|die anfrage|diese aufgabe|das|dies|es|ihre anfrage|deine anfrage)?"
    r" ?(?:leider |hier |respektvoll |höflich )*(?:ablehnen|zurückweisen)",
    r"\bich lehne (?:diese anfrage|die anfrage|diese aufgabe|das|dies|es|ihre anfrage|deine anfrage) "
    r"(?:leider |höflich |hiermit )*ab\b",
    r"\bes ist mir (?:leider |nicht |als ki )*(?:nicht )?(?:gestattet|erlaubt|möglich)",
    r"\bals (?:ki|künstliche intelligenz|ki-\w+|sprachmodell|assistent|ki-assistent\w*|ki-sprachmodell)\b.{0,80}"
    r"\b(?:kann|darf|werde|bin) ich (?:\w+ ){0,3}(?:nicht|keine|keinerlei)\b",
    r"\bals (?:ki|künstliche intelligenz|ki-\w+|sprachmodell)\b.{0,20}\b(?:darf|kann) ich (?:\w+ ){0,3}"
    r"(?:keine|nicht)",
    r"\b(?:verstößt|verstösst|widerspricht) (?:gegen )?(?:meine|unsere|die) (?:richtlinien|nutzungsrichtlinien|"
    r"inhaltsrichtlinien|grundsätze|regeln)",
    r"\b(?:meine|unsere) (?:richtlinien|nutzungsrichtlinien|grundsätze) (?:erlauben|gestatten|verbieten) (?:es )?"
    r"(?:mir )?(?:nicht|keine|das)",
    r"\b(?:das|dies) (?:übersteigt|überschreitet|liegt außerhalb) (?:meine[rn]? )?(?:befugnisse|möglichkeiten|"
    r"kompetenzen|aufgabenbereich)",
    r"\b(?:bitte )?(?:wenden sie sich|wende dich) (?:dafür |hierfür |damit |bitte )*an (?:eine[nr]? )?"
    r"(?:rechtsanwalt|rechtsanwältin|anwalt|anwältin|fachanwalt|fachanwältin|juristen|juristin|beratungsstelle)",
    r"\bdazu (?:möchte|werde|kann) ich mich (?:leider )?nicht (?:äußern|einlassen)",
    # English
    r"\bi(?:'m| am) (?:sorry|afraid|unable),? (?:but )?i (?:can't|cannot|won't|will not|am unable to|am not able to|"
    r"must decline|have to decline)",
    r"\bi (?:can't|cannot|can not|won't|will not|am unable to|am not able to) (?:help|assist|comply|provide|answer|"
    r"do that|do this|complete (?:this|that)|fulfil|fulfill|write (?:this|that|a legal)|give (?:legal|you legal)|"
    r"offer legal|draft|solve (?:this|that)|take on)",
    r"\bi(?:'m| am) (?:not able|unable|not permitted|not allowed|not authorized|not authorised) to (?:help|assist|"
    r"provide|comply|answer|give|offer|do|complete|write|draft|solve)",
    r"\bi (?:must|have to|need to|will have to|'ll have to) (?:respectfully |politely )?decline"
    r"(?: (?:this|your|that|the request|to (?:answer|help|assist|provide|write|complete|do))|[.!]|$)",
    r"\bi won't be able to (?:help|assist|provide|answer|complete|do|write)",
    r"\bas an ai\b.{0,80}\b(?:cannot|can't|unable|not able|not permitted|not allowed|must not|shouldn't|do not|don't)",
    r"\b(?:unfortunately|regrettably),? i (?:can't|cannot|am unable to|am not able to|won't)",
    r"\b(?:this|your|the) (?:request|question|task|content) (?:violates|goes against|is against|conflicts with) "
    r"(?:my|our|the|openai's|the provider's) (?:\w+ )?(?:policy|policies|guidelines|rules)",
    r"\b(?:please )?consult (?:with )?(?:a |an )?(?:qualified |licensed )?(?:lawyer|attorney|legal professional|"
    r"solicitor)(?: instead)?[.!]?$",
    r"\bi(?:'m| am) not (?:in a position|comfortable) to (?:help|assist|provide|answer|give|offer|do|write)",
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

"""Reading replies as meant (issue 11, items 1-3): one table per rule; a new case is one more row."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.llm import (
    AmbiguousOutput,
    ChatResponse,
    MalformedOutput,
    Refusal,
    detect_refusal,
    find_json_objects,
    is_placeholder,
    read_json_reply,
    refusal_phrase,
    split_reasoning,
)
from benger.llm._openai import map_completion_dict


def ja_nein(data: dict[str, Any]) -> str:
    """A small schema for the table: {"antwort": "Ja"|"Nein", "begruendung": non-empty text}."""
    if data.get("antwort") not in ("Ja", "Nein"):
        raise MalformedOutput(f"antwort is {data.get('antwort')!r}")
    if not isinstance(data.get("begruendung"), str) or not data["begruendung"].strip():
        raise MalformedOutput("begruendung missing")
    return str(data["antwort"]) + ":" + data["begruendung"]


def obj(answer: str, why: str = "Weil § 433 BGB greift.") -> str:
    return json.dumps({"antwort": answer, "begruendung": why}, ensure_ascii=False)


ECHO = '{"antwort": "Ja/Nein", "begruendung": "<kurze Begründung>"}'
PROMPT = 'Antworte so: {"antwort": "Ja", "begruendung": "Beispiel"}'

# (id, reply text, provider reasoning field, quoted prompt texts, expected)
# expected: ("ok", value) | ("malformed", reason fragment) | ("ambiguous", number of different objects)
ROWS: list[tuple[str, str, str | None, list[str], tuple[str, Any]]] = [
    ("plain", obj("Nein"), None, [], ("ok", "Nein:Weil § 433 BGB greift.")),
    # observation 1: the draft inside <think> won
    ("think-draft-then-final", f"<think>Erst: {obj('Ja', 'Entwurf')} nochmal prüfen</think>\n{obj('Nein')}",
     None, [], ("ok", "Nein:Weil § 433 BGB greift.")),
    ("thinking-tag", f"<thinking>{obj('Ja', 'Entwurf')}</thinking>{obj('Nein')}", None, [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("reasoning-tag-upper-case", f"<REASONING>{obj('Ja', 'x')}</REASONING> {obj('Nein')}", None, [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("orphan-closing-tag", f"{obj('Ja', 'Entwurf')} hmm </think>{obj('Nein')}", None, [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("unclosed-think", f"<think>{obj('Ja', 'Entwurf')} und dann", None, [],
     ("malformed", "no answer after the reasoning")),
    # observation 1, second form: reasoning in a provider field (vLLM / DeepSeek reasoning_content)
    ("reasoning-field-draft", obj("Nein"), f"Entwurf: {obj('Ja', 'Entwurf')}", [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("reasoning-field-only", "", obj("Ja"), [], ("malformed", "no answer after the reasoning")),
    # observation 2: the first object (a format echo) won
    ("echo-then-real", f"Format: {ECHO}\nMeine Antwort: {obj('Ja')}", None, [],
     ("ok", "Ja:Weil § 433 BGB greift.")),
    ("echo-only", ECHO, None, [], ("malformed", "format echo: placeholder")),
    ("echo-dots", '{"antwort": "Ja", "begruendung": "..."}', None, [], ("malformed", "format echo")),
    # observation 2: a draft followed by "Korrektur:" and the final object
    ("draft-korrektur-final", f"{obj('Ja', 'Entwurf')}\nKorrektur: {obj('Nein')}", None, [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("draft-correction-english", f"{obj('Ja', 'a')}\nCorrection - final answer:\n{obj('Nein', 'b')}", None, [],
     ("ok", "Nein:b")),
    ("two-different-no-marker", f"{obj('Ja', 'a')}\noder\n{obj('Nein', 'b')}", None, [], ("ambiguous", 2)),
    ("three-different", f"{obj('Ja', 'a')} {obj('Nein', 'b')} {obj('Ja', 'c')}", None, [], ("ambiguous", 3)),
    ("same-object-twice", f"{obj('Ja')}\n\nNochmals: {obj('Ja')}", None, [], ("ok", "Ja:Weil § 433 BGB greift.")),
    # observation 2: an object quoted from the prompt (the judge's candidate, the format example)
    ("quoted-then-real", f'Die Vorlage lautete {{"antwort": "Ja", "begruendung": "Beispiel"}}. {obj("Nein")}',
     None, [PROMPT], ("ok", "Nein:Weil § 433 BGB greift.")),
    ("quoted-only", '{"antwort": "Ja", "begruendung": "Beispiel"}', None, [PROMPT],
     ("malformed", "quoted from the prompt")),
    ("code-fence", f"```json\n{obj('Ja')}\n```", None, [], ("ok", "Ja:Weil § 433 BGB greift.")),
    ("nested-object-not-a-candidate",
     '{"antwort": "Ja", "begruendung": "x", "entwurf": {"antwort": "Nein", "begruendung": "y"}}', None, [],
     ("ok", "Ja:x")),
    ("invalid-then-valid", f'{{"antwort": "Vielleicht", "begruendung": "x"}} {obj("Nein")}', None, [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("valid-then-invalid", f'{obj("Nein")} {{"antwort": "Vielleicht", "begruendung": "x"}}', None, [],
     ("ok", "Nein:Weil § 433 BGB greift.")),
    ("prose-braces", f"Die Menge {{a, b}} ist leer. {obj('Ja')}", None, [], ("ok", "Ja:Weil § 433 BGB greift.")),
    ("brace-inside-string", '{"antwort": "Ja", "begruendung": "Klammer { bleibt offen"}', None, [],
     ("ok", "Ja:Klammer { bleibt offen")),
    ("raw-newline-in-string", '{"antwort": "Nein", "begruendung": "Zeile 1\nZeile 2"}', None, [],
     ("ok", "Nein:Zeile 1\nZeile 2")),
    ("no-json", "Die Antwort ist Ja.", None, [], ("malformed", "no JSON object in the reply")),
    ("broken-json", '{"antwort": "Ja", "begruendung": ', None, [], ("malformed", "could not be decoded")),
    ("last-object-reason", '{"antwort": "Vielleicht", "begruendung": "x"}', None, [],
     ("malformed", "antwort is 'Vielleicht'")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "reasoning", "quoted", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_read_json_reply_table(text: str, reasoning: str | None, quoted: list[str], expected: tuple) -> None:
    kind, want = expected
    if kind == "ok":
        assert read_json_reply(text, ja_nein, reasoning=reasoning, quoted=quoted).value == want
    elif kind == "malformed":
        with pytest.raises(MalformedOutput) as info:
            read_json_reply(text, ja_nein, reasoning=reasoning, quoted=quoted)
        assert want in info.value.reason
    else:
        with pytest.raises(AmbiguousOutput) as ambiguous:
            read_json_reply(text, ja_nein, reasoning=reasoning, quoted=quoted)
        assert ambiguous.value.count == want and ambiguous.value.reason.startswith("ambiguous")


def test_reply_keeps_reasoning_apart_and_counts_candidates() -> None:
    reply = read_json_reply(f"<think>A {obj('Ja', 'x')}</think>{ECHO} {obj('Nein')}", ja_nein, reasoning="Feld")
    assert reply.reasoning == f"Feld\n\nA {obj('Ja', 'x')}"
    assert reply.candidates == 2 and reply.dropped == ("format echo: placeholder 'Ja/Nein'",)
    assert reply.raw == json.loads(obj("Nein"))


@pytest.mark.parametrize(
    ("text", "visible", "reasoning"),
    [
        ("Antwort", "Antwort", None),
        ("<think>a</think>b", "b", "a"),
        ("<think>a</think>b<think>c</think>d", "bd", "a\n\nc"),
        ("a</think>b", "b", "a"),
        ("b<think>a", "b", "a"),
        ("< think >a</ think >b", "b", "a"),
        ("<thought>x</thought><reflection>y</reflection>z", "z", "x\n\ny"),
        ("<think></think>b", "b", None),
        ("Text mit <b>Fett</b>", "Text mit <b>Fett</b>", None),
    ],
)
def test_split_reasoning(text: str, visible: str, reasoning: str | None) -> None:
    assert split_reasoning(text) == (visible, reasoning)


@pytest.mark.parametrize(
    ("value", "placeholder"),
    [("<Punkte>", True), ("<kurze Gesamtwürdigung>", True), ("[Begründung]", True), ("...", True), ("…", True),
     ("Ja/Nein", True), ("ja oder nein", True), ("{{ text }}", True), ("Text", True),
     ("Ja", False), ("Nein", False), ("Die Subsumtion ist knapp.", False), ("<b>fett</b> und mehr", False),
     ("§ 433 <Abs. 1> BGB", False), ("", False)],
)  # fmt: skip
def test_placeholders(value: str, placeholder: bool) -> None:
    assert is_placeholder(value) is placeholder


def test_find_json_objects_spans_are_top_level() -> None:
    text = 'a {"x": {"y": 1}} b {"z": 2}'
    found = find_json_objects(text)
    assert [o.value for o in found] == [{"x": {"y": 1}}, {"z": 2}]
    assert text[found[1].start : found[1].end] == '{"z": 2}'


# --- refusals: provider fields first, then finish reason, then phrases -------------------------------------
def response(**fields: Any) -> ChatResponse:
    return ChatResponse(**{"text": "", **fields})


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (response(refusal=True, refusal_text="Nicht mit mir."), Refusal("provider", "Nicht mit mir.")),
        (response(finish_reason="content_filter", refusal=True),
         Refusal("content_filter", "finish_reason content_filter")),
        (response(refusal=True), Refusal("provider", "the provider flagged the reply as a refusal")),
        (response(text=obj("Ja"), finish_reason="stop"), None),
        (response(text="Ich kann dabei nicht helfen.", finish_reason="stop"), None),  # phrases: a later step
    ],
)  # fmt: skip
def test_detect_refusal(reply: ChatResponse, expected: Refusal | None) -> None:
    assert detect_refusal(reply) == expected


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("Ich kann dabei leider nicht helfen.", True),
        ("Es tut mir leid, aber ich kann diese Anfrage nicht bearbeiten.", True),
        ("Leider kann ich keine Rechtsberatung geben.", True),
        ("Ich darf keine Rechtsberatung leisten.", True),
        ("Diese Frage kann ich nicht beantworten.", True),
        ("Ich bin nicht in der Lage, diese Aufgabe zu lösen.", True),
        ("I’m sorry, but I can’t help with that.", True),
        ("I cannot assist with this request.", True),
        ("As an AI language model, I am not able to give legal advice.", True),
        ("Nein. A kann B nicht helfen, weil § 323c StGB nicht einschlägig ist.", False),
        ("Der Käufer kann nicht zurücktreten.", False),
        ("A. Gutachten " + "Der Anspruch besteht. " * 40 + "Ich kann dabei nicht helfen.", False),  # > 600 chars
        ("", False),
    ],
)
def test_refusal_phrases(text: str, refused: bool) -> None:
    assert (refusal_phrase(text) is not None) is refused


def test_openai_mapping_keeps_reasoning_and_refusal_fields() -> None:
    body = {
        "id": "c1", "model": "m",
        "choices": [{"finish_reason": "stop", "message": {"content": obj("Nein"), "reasoning_content": "Entwurf A",
                                                          "reasoning": "Entwurf A"}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 50, "completion_tokens_details": {"reasoning_tokens": 30}},
    }  # fmt: skip
    mapped = map_completion_dict(body)
    assert mapped.reasoning == "Entwurf A" and mapped.usage.reasoning_tokens == 30 and mapped.text == obj("Nein")
    body["choices"][0]["message"] = {"content": None, "reasoning": "B", "refusal": "Nein danke."}  # type: ignore[index]
    refused = map_completion_dict(body)
    assert refused.reasoning == "B" and refused.refusal_text == "Nein danke." and refused.refusal
    assert detect_refusal(refused) == Refusal("provider", "Nein danke.")


# --- property: whatever drafts, echoes and quotes surround it, the final valid object is read -----------------

_texts = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="{}<>[]\\"), min_size=1, max_size=30)
_answers = st.builds(lambda a, w: {"antwort": a, "begruendung": w.strip() or "x"}, st.sampled_from(["Ja", "Nein"]),
                     _texts.filter(lambda t: not is_placeholder(t.strip() or "x")))  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(final=_answers, drafts=st.lists(_answers, max_size=3), prose=_texts, echo_first=st.booleans())
def test_final_object_wins_over_reasoning_echoes_and_quotes(
    final: dict[str, str], drafts: list[dict[str, str]], prose: str, echo_first: bool
) -> None:
    quoted = {"antwort": "Ja", "begruendung": "aus der Bearbeitung zitiert"}
    thinking = "".join(f"<think>{prose} {json.dumps(d, ensure_ascii=False)}</think>" for d in drafts)
    parts = [thinking, ECHO if echo_first else "", prose, json.dumps(quoted, ensure_ascii=False), prose,
             json.dumps(final, ensure_ascii=False)]  # fmt: skip
    text = "\n".join(parts)
    prompt = "Bearbeitung: " + json.dumps(quoted, ensure_ascii=False)
    reply = read_json_reply(text, ja_nein, quoted=[prompt])
    assert reply.raw == final
    assert (reply.reasoning is not None) == bool(drafts)

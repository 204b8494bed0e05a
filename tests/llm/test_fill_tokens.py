"""The schema fill tokenises its prompt once (issue 26 item 2): each call gets the prompt's tokens plus the reply's,
the same sequence as the whole text, or the whole text where the two differ; the same reply either way."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benger.llm._fill import SchemaFill

SCHEMA = {"type": "object", "properties": {"punkte": {"enum": [0, 1]}, "text": {"type": "string", "maxLength": 20}}}


class _Vocab:
    def __init__(self, bos: bool = False) -> None:
        self.bos = bos

    def add_bos_token(self) -> bool:
        return self.bos

    def add_eos_token(self) -> bool:
        return False

    def token_sep(self) -> int:
        return -1


class _FakeLlama:
    """One token per character (``merge``: "}{" and ": " are one token each, so a split may merge differently)."""

    def __init__(self, replies: list[str], merge: str = "", bos: bool = False) -> None:
        self.replies, self.merge, self._model = replies, merge, _Vocab(bos)
        self.prompts: list[Any] = []
        self.tokenised = 0

    def tokenize(self, text: bytes, add_bos: bool = True, special: bool = False) -> list[int]:
        s = text.decode("utf-8")
        out: list[int] = []
        i = 0
        while i < len(s):
            if self.merge and s.startswith(self.merge, i):
                out.append(-7)
                i += len(self.merge)
            else:
                out.append(ord(s[i]))
                i += 1
        self.tokenised += len(out)
        return out

    def create_completion(self, prompt: Any, max_tokens: int, **kwargs: object) -> dict[str, object]:
        self.prompts.append(prompt)
        text = self.replies.pop(0)
        return {"choices": [{"text": text, "finish_reason": "stop"}], "usage": {"completion_tokens": 1}}


def _fill(llama: _FakeLlama) -> SchemaFill:
    fill = SchemaFill(llama, "P: ", max_tokens=50, sampling={})
    fill.value(SCHEMA)
    return fill


def test_each_call_gets_the_prompt_tokens_and_the_reply_tokens() -> None:
    llama = _FakeLlama(["1", "gut"])
    fill = _fill(llama)
    assert json.loads(fill.text) == {"punkte": 1, "text": "gut"}
    texts = ["P: " + r for r in ['{"punkte": ', '{"punkte": 1, "text": "']]
    assert llama.prompts == [[ord(c) for c in t] for t in texts]  # token lists, the whole text's tokens
    assert fill.split is True and fill.input_tokens == 3


@pytest.mark.parametrize(
    ("llama", "why"),
    [
        (_FakeLlama(["1", "gut"], merge=" {"), "the prompt's last space merges with the reply's brace"),
        (_FakeLlama(["1", "gut"], bos=True), "a text prompt would get a BOS token a token prompt lacks"),
    ],
)
def test_the_whole_text_where_the_tokens_would_differ(llama: _FakeLlama, why: str) -> None:
    fill = _fill(llama)
    assert fill.split is False, why
    assert llama.prompts == ["P: " + r for r in ['{"punkte": ', '{"punkte": 1, "text": "']]
    assert json.loads(fill.text) == {"punkte": 1, "text": "gut"}


@pytest.mark.slow
def test_the_packaged_model_fills_the_same_reply_either_way() -> None:
    """Real llama.cpp (Qwen2.5-Coder-0.5B GGUF, its tokenizer and chat template): a score enum, a free string, a
    Ja/Nein enum and a number, for two answers; tokens vs whole text give identical replies. (The full judge schema,
    3 judgements: benchmarks/bench_schema_fill.py.)"""
    llama_cpp = pytest.importorskip("llama_cpp")
    from benger.llm._fill import chat_prompt
    from benger.llm._local import model_path

    llama = llama_cpp.Llama(
        model_path=str(model_path("qwen2.5-coder-0.5b-instruct")), n_ctx=1024, n_threads=1, seed=0, verbose=False
    )
    schema = {
        "type": "object",
        "properties": {
            "punkte": {"enum": [0, 0.5, 1, 1.5, 2]},
            "begruendung": {"type": "string", "minLength": 1, "maxLength": 30},
            "antwort": {"enum": ["Ja", "Nein"]},
            "gesamt": {"type": "number"},
        },
    }
    for answer in ("Ja, aus § 433 Abs. 2 BGB.", "Nein, der Vertrag ist nach § 142 BGB nichtig."):
        messages = [{"role": "user", "content": f"Bewerte knapp: V verlangt 300 Euro Kaufpreis von K. {answer}"}]
        prompt = chat_prompt(llama, messages) or ""
        replies = []
        for whole_text in (True, False):
            fill = SchemaFill(llama, prompt, 120, {"temperature": 0.0, "seed": 0})
            if whole_text:
                fill.split = False
            fill.value(schema)
            replies.append(fill.text)
            assert fill.split is (not whole_text)
        assert replies[0] == replies[1]
        assert set(json.loads(replies[1])) == {"punkte", "begruendung", "antwort", "gesamt"}

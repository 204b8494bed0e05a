"""The schema fill stops a ``maxLength`` string once it has its characters (issue 26): the value is cut to
``maxLength``, so the tokens decoded after them were wasted (the demo judge's 100-character justifications ran to
their 41-token cap, ~10 tokens past the cut, on every one of ~12 strings per judgement). Same text as before."""

from __future__ import annotations

import json

import pytest

from benger.llm import _fill as fill_module
from benger.llm._fill import SchemaFill

#: the model copies the long sentence into both strings, so neither closes before the cut
PROMPT = (
    "<|im_start|>user\nCopy this text into the JSON explanation: The buyer must pay the price and accept the goods, "
    "and the seller must deliver them free of defects.<|im_end|>\n<|im_start|>assistant\n"
)
LIMIT = 24
SCHEMA = {
    "type": "object",
    "properties": {
        "explanation": {"type": "string", "minLength": 1, "maxLength": LIMIT},
        "points": {"enum": [0, 1, 2]},
        "long_essay": {"type": "string", "maxLength": LIMIT},
    },
}


@pytest.fixture(scope="module")
def smollm2() -> object:
    llama_cpp = pytest.importorskip("llama_cpp")
    from benger.llm._local import model_path

    return llama_cpp.Llama(model_path=str(model_path("smollm2-135m")), n_ctx=1024, n_threads=1, seed=0, verbose=False)


def _fill(llama: object) -> SchemaFill:
    fill = SchemaFill(llama, PROMPT, 200, {"temperature": 0.0, "seed": 0})
    fill.value(SCHEMA)
    return fill


@pytest.mark.slow
def test_a_capped_string_stops_decoding_at_its_length_with_the_same_text(
    smollm2: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill = _fill(smollm2)
    data = json.loads(fill.text)
    assert len(data["explanation"]) == LIMIT and len(data["long_essay"]) == LIMIT  # both ran to the cut
    tokenize = smollm2.tokenize  # type: ignore[attr-defined]
    needed = sum(len(tokenize(data[k].encode(), add_bos=False)) for k in ("explanation", "long_essay"))
    # each string: the tokens of its kept text, one that ends past the cut, one decode to notice; + the enum
    assert fill.output_tokens <= needed + 2 * 3 + 2, (fill.output_tokens, needed)

    monkeypatch.setattr(fill_module, "_enough_text", lambda *a: None)  # decode to the token cap, as before
    before = _fill(smollm2)
    assert before.text == fill.text
    cap = LIMIT // 3 + 8
    assert before.output_tokens >= 1 + 2 * cap - 2 > fill.output_tokens

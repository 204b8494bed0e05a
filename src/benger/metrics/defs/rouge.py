"""ROUGE-1, ROUGE-2 and ROUGE-L F1 (rouge-score's definitions) on benger's German tokenizer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.metrics._lexical import Score, rouge_pair
from benger.metrics._registry import MetricDef, PairwiseCompute
from benger.metrics._tokenize import TOKENIZER_ID


def _rouge1(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return rouge_pair(candidate, reference, "rouge1", stem=p["stem"] == "snowball-de")


def _rouge2(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return rouge_pair(candidate, reference, "rouge2", stem=p["stem"] == "snowball-de")


def _rougel(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return rouge_pair(candidate, reference, "rougeL", stem=p["stem"] == "snowball-de")


_ROUGE = {"rouge1": _rouge1, "rouge2": _rouge2, "rougeL": _rougel}

METRICS = [
    MetricDef(
        key=kind,
        label=label,
        family="lexical",
        compute=PairwiseCompute(_ROUGE[kind]),
        params={"tok": TOKENIZER_ID, "stem": "snowball-de"},
        options=("stem",),
        packages=("nltk",),
        requires=(("nltk", "nltk"),),
        default=True,
        parallel=True,
        order=order,
        description=text,
        group="rouge",
    )
    for kind, label, order, text in (
        ("rouge1", "ROUGE-1 F1 (de)", 30, "clipped unigram overlap F1, German Snowball stems of tokens > 3 chars"),
        ("rouge2", "ROUGE-2 F1 (de)", 31, "clipped bigram overlap F1, German Snowball stems of tokens > 3 chars"),
        ("rougeL", "ROUGE-L F1 (de)", 32, "longest-common-subsequence F1 over the whole text"),
    )
]

"""BLEU and chrF through sacrebleu's public API (sentence level, on benger-normalised text, 0-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.metrics._lexical import Score, sentence_bleu, sentence_chrf
from benger.metrics._registry import MetricDef, PairwiseCompute


def _bleu(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return sentence_bleu(candidate, reference, tok=p["tok"], case=p["case"], smooth=p["smooth"], eff=p["eff"])


def _chrf(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return sentence_chrf(
        candidate, reference, char_order=p["nc"], word_order=p["nw"], beta=p["beta"], whitespace=p["space"]
    )


SACREBLEU = (("sacrebleu", "sacrebleu"),)

METRICS = [
    MetricDef(
        key="bleu",
        label="BLEU (sacrebleu, sentence)",
        family="lexical",
        compute=PairwiseCompute(_bleu),
        params={"tok": "13a", "case": "mixed", "smooth": "exp", "eff": True},
        packages=("sacrebleu",),
        requires=SACREBLEU,
        default=True,
        parallel=True,
        order=10,
        description="sacrebleu sentence BLEU: 4-gram precision, brevity penalty, exp smoothing, effective order",
    ),
    MetricDef(
        key="chrf",
        label="chrF (sacrebleu)",
        family="lexical",
        compute=PairwiseCompute(_chrf),
        params={"nc": 6, "nw": 0, "beta": 2, "space": False},
        packages=("sacrebleu",),
        requires=SACREBLEU,
        default=True,
        parallel=True,
        order=20,
        description="sacrebleu chrF: character 1-6-gram F-score, beta 2, whitespace removed",
    ),
]

"""METEOR (de: exact+stem): nltk's algorithm, German Snowball stemmer, WordNet synonym stage off."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.metrics._lexical import METEOR_LABEL, Score, meteor
from benger.metrics._registry import MetricDef, PairwiseCompute
from benger.metrics._tokenize import TOKENIZER_ID


def _meteor(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return meteor(candidate, reference, alpha=p["alpha"], beta=p["beta"], gamma=p["gamma"])


METRICS = [
    MetricDef(
        key="meteor",
        label=METEOR_LABEL,
        family="lexical",
        compute=PairwiseCompute(_meteor),
        params={
            "tok": TOKENIZER_ID,
            "stages": "exact+stem",
            "stem": "snowball-de",
            "wordnet": "none",
            "alpha": 0.9,
            "beta": 3.0,
            "gamma": 0.5,
        },
        packages=("nltk",),
        requires=(("nltk", "nltk"),),
        default=True,
        parallel=True,
        order=40,
        description="nltk single_meteor_score with German stems and no WordNet synonyms",
    )
]

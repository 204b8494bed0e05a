"""chrF++: chrF with word 1-2-grams added (Popović 2017), through sacrebleu's public CHRF (0-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.metrics import MetricDef, PairwiseCompute, Score, sentence_chrf


def _chrfpp(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    return sentence_chrf(candidate, reference, char_order=p["nc"], word_order=p["nw"], beta=p["beta"])


METRICS = [
    MetricDef(
        key="chrfpp",
        label="chrF++ (sacrebleu)",
        family="lexical",
        compute=PairwiseCompute(_chrfpp),
        params={"nc": 6, "nw": 2, "beta": 2},
        packages=("sacrebleu",),
        requires=(("sacrebleu", "sacrebleu"),),
        parallel=True,
        order=21,
    )
]

"""Norm-citation overlap with the reference (Gutachtenstil analyser, docs/gutachten.md), 0-1.

The cited norms of candidate and reference are parsed by :mod:`benger.gutachten` and compared at paragraph
level ("§ 823 BGB", "Art. 2 GG"). The value is the F1 of the two sets; as in SQuAD's F1 for empty answers,
two texts that cite no norm score 1 and a text citing none against one that does scores 0. Precision,
recall and the counts are kept in the details.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.gutachten import ANALYSER_VERSION, analyse, overlap
from benger.metrics import MetricDef, PairwiseCompute, Score


def _norm_f1(candidate: str, reference: str, p: Mapping[str, Any]) -> Score:
    cand, ref = set(analyse(candidate).norm_keys), set(analyse(reference).norm_keys)
    o = overlap(p["level"], ref, cand)
    value = o.f1 if o.f1 is not None else float(not cand and not ref)
    return Score(
        value,
        {"precision": o.precision, "recall": o.recall, "reference": o.reference, "candidate": o.candidate},
    )


METRICS = [
    MetricDef(
        key="norm_f1",
        label="Norm-citation F1 (Gutachtenstil analyser)",
        family="structure",
        compute=PairwiseCompute(_norm_f1),
        params={"level": "paragraph", "analyser": ANALYSER_VERSION},
        parallel=True,
        order=60,
    )
]

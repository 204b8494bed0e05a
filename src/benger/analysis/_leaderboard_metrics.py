"""Automatic-metric columns of the leaderboard: per system x corpus, the mean of each stored metric."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from pydantic import BaseModel


class MetricRecord(Protocol):
    """What the leaderboard reads of a stored metric value (``Store.metric_values()`` records)."""

    target_kind: str
    target_id: str
    metric: str
    signature: str
    value: float


class MetricMean(BaseModel):
    """The mean of one metric over a row's ok generations that have a value, and how many they are."""

    mean: float
    n: int


def choose_signatures(values: Iterable[MetricRecord]) -> dict[str, str]:
    """Per metric, its most frequent signature among generation values (ties: the alphabetically first)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for v in values:
        if v.target_kind == "generation":
            counts[v.metric][v.signature] += 1
    return {m: min(c, key=lambda s: (-c[s], s)) for m, c in sorted(counts.items())}


def metric_means(
    values: Iterable[MetricRecord], generation_ids: Sequence[str], signatures: Mapping[str, str]
) -> dict[str, MetricMean]:
    """Mean and n per metric over ``generation_ids`` (values with the chosen signature only)."""
    wanted = set(generation_ids)
    found: dict[str, list[float]] = defaultdict(list)
    for v in values:
        if v.target_kind == "generation" and v.target_id in wanted and signatures.get(v.metric) == v.signature:
            found[v.metric].append(v.value)
    return {m: MetricMean(mean=math.fsum(xs) / len(xs), n=len(xs)) for m, xs in sorted(found.items())}


def short_label(metric: str) -> str:
    """A short column header: the ``benger.metrics.LABELS`` text before its parenthesis, else the key."""
    from benger.metrics import LABELS

    label = LABELS.get(metric)
    return label.split(" (")[0].strip() if label else metric

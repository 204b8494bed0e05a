"""Automatic-metric columns of the leaderboard: per system x corpus, the mean of each stored metric."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from pydantic import BaseModel

from benger.errors import InputError


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


def resolve_signatures(
    chosen: Mapping[str, str], override: Mapping[str, str] | None, stored: Mapping[str, Iterable[str]]
) -> dict[str, str]:
    """``chosen`` (metric -> default signature) updated by ``override``; ``stored``: metric -> its stored signatures.

    Raises InputError (field ``--metric-signature``) when an override names a signature with no stored value of
    its metric, listing the stored signatures (or saying that the metric has no stored value at all).
    """
    for metric, signature in sorted((override or {}).items()):
        have = sorted(stored.get(metric, ()))
        if signature not in have:
            listed = f"stored signatures: {', '.join(have)}" if have else f"no value of metric {metric} is stored"
            raise InputError(
                f"no stored values of metric {metric} with signature {signature!r}; {listed}",
                field="--metric-signature",
            )
    return {**chosen, **(override or {})}

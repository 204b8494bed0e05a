"""One entry point: ``compute(candidates, references, metrics=...)`` -> a tidy table of per-item values.

Every metric comes from the registry (``_registry``); this module only selects, binds and runs them.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from benger.errors import InputError
from benger.metrics._lexical import Score
from benger.metrics._registry import MetricDef, all_metrics, builtin_metrics, get_metric
from benger.text import normalise_text


def _keys(family: str | None = None, default: bool | None = None) -> tuple[str, ...]:
    return tuple(
        k
        for k, d in builtin_metrics().items()
        if (family is None or d.family == family) and (default is None or d.default == default)
    )


# LEXICAL_METRICS, EMBEDDING_METRICS, ALL_METRICS, DEFAULT_METRICS: the built-in metric keys, computed on first
# access (not at import, so metric modules may import ``benger.metrics``)
_GROUPS: dict[str, tuple[str | None, bool | None]] = {
    "LEXICAL_METRICS": ("lexical", None),
    "EMBEDDING_METRICS": ("embedding", None),
    "ALL_METRICS": (None, None),
    "DEFAULT_METRICS": (None, True),
}


def __getattr__(name: str) -> tuple[str, ...]:
    if name in _GROUPS:
        return _keys(*_GROUPS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Labels(Mapping[str, str]):
    """``LABELS[key]``: the label of every registered metric, read from the registry on each access."""

    def __getitem__(self, key: str) -> str:
        try:
            return get_metric(key).label
        except KeyError:
            raise KeyError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(all_metrics())

    def __len__(self) -> int:
        return len(all_metrics())


LABELS: Mapping[str, str] = _Labels()


@dataclass(frozen=True)
class MetricValue:
    """One row of the tidy table: item index, metric key, value, signature and extra numbers."""

    index: int
    metric: str
    value: float
    signature: str
    details: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        """Plain dict (for JSON / pandas)."""
        return asdict(self)


@dataclass(frozen=True)
class EmbeddingOptions:
    """Options of the embedding metrics: encoder directory (None: the packaged default), layer (None: last),
    BERTScore IDF on/off, and the texts IDF weights are fitted on (None: the distinct references of the call;
    ``benger metrics`` passes all references of the target's corpus)."""

    encoder: str | None = None
    layer: int | None = None
    idf: bool = False
    idf_corpus: tuple[str, ...] | None = None

    def overrides(self) -> dict[str, Any]:
        """The option values by parameter name (``MetricDef.options``)."""
        return {"encoder": self.encoder, "layer": self.layer, "idf": self.idf, "idf_corpus": self.idf_corpus}


def parse_metrics(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """Accept "all", a family ("lexical", "embedding", ...), a group ("rouge": ROUGE-1/2/L), a comma list or a
    sequence of keys. Families, groups and "all" are matched ignoring case ("ROUGE"); so is a key that
    matches no key exactly.

    None gives the default metrics; an unknown name raises ``InputError`` listing the registered keys.
    """
    registry = all_metrics()
    if value is None:
        return tuple(k for k, d in registry.items() if d.default)
    items = [v.strip() for v in (value.split(",") if isinstance(value, str) else value) if v.strip()]
    families = {d.family.lower() for d in registry.values()}
    groups = {d.group.lower() for d in registry.values() if d.group}
    by_lower = {k.lower(): k for k in registry}
    out: list[str] = []
    for item in items:
        lowered = item.lower()
        if lowered == "all":
            names: Sequence[str] = list(registry)
        elif item in registry:
            names = [item]
        elif lowered in groups:
            names = [k for k, d in registry.items() if d.group.lower() == lowered]
        elif lowered in families:
            names = [k for k, d in registry.items() if d.family.lower() == lowered]
        else:
            names = [by_lower.get(lowered, item)]
        for name in names:
            if name not in registry:
                raise InputError(f"unknown metric {name!r}; choose from {', '.join(registry)}", field="metrics")
            if name not in out:
                out.append(name)
    return tuple(out)


def _overrides(stem: bool, embedding: EmbeddingOptions | None) -> dict[str, Any]:
    return {**(embedding or EmbeddingOptions()).overrides(), "stem": "snowball-de" if stem else "none"}


def bind_metrics(
    metrics: Sequence[str],
    options: EmbeddingOptions | None = None,
    stem: bool = True,
    references: Sequence[str] = (),
) -> dict[str, tuple[MetricDef, dict[str, Any], str]]:
    """Per metric: its definition, resolved parameters and signature (dependencies checked first).

    ``references`` are those of the call; metrics that fit weights on them without an explicit corpus name
    that corpus in their signature. Raises ``MissingDependencyError`` or ``ConfigError``.
    """
    overrides = _overrides(stem, options)
    refs = [normalise_text(r) for r in references]
    out: dict[str, tuple[MetricDef, dict[str, Any], str]] = {}
    for key in metrics:
        defn = get_metric(key)
        defn.check_dependencies()
        params = defn.bind(overrides, refs)
        out[key] = (defn, params, defn.signature(params))
    return out


def signatures(
    metrics: Sequence[str],
    options: EmbeddingOptions | None = None,
    stem: bool = True,
    references: Sequence[str] = (),
) -> dict[str, str]:
    """The signature of every requested metric (reads the encoder's config, loads no model)."""
    return {k: sig for k, (_, _, sig) in bind_metrics(metrics, options, stem, references).items()}


def _run_chunk(args: tuple[list[tuple[MetricDef, dict[str, Any]]], list[tuple[str, str]]]) -> list[list[Score]]:
    """Worker: every metric of the chunk over its pairs (pair-major, so token caches are shared)."""
    bound, pairs = args
    cands, refs = [c for c, _ in pairs], [r for _, r in pairs]
    return [defn.compute(cands, refs, params) for defn, params in bound]


def compute(
    candidates: Sequence[str],
    references: Sequence[str],
    metrics: str | Sequence[str] | None = None,
    *,
    stem: bool = True,
    embedding: EmbeddingOptions | None = None,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[MetricValue]:
    """Score each candidate against its reference; returns one ``MetricValue`` per (item, metric).

    Texts are normalised once (``benger.text.normalise_text``). Metrics marked ``parallel`` are shared by
    ``workers`` processes (default: ``os.cpu_count()`` for >= 64 items, else 1); ``progress(n)`` is called with
    the number of newly finished items of each group. Raises ``InputError`` (bad input, unknown metric),
    ``MissingDependencyError`` (extra not installed) or ``ConfigError`` (e.g. no encoder model).
    """
    if len(candidates) != len(references):
        raise InputError(f"{len(candidates)} candidates but {len(references)} references", field="references")
    for i, (c, r) in enumerate(zip(candidates, references, strict=True)):
        if not isinstance(c, str) or not isinstance(r, str):
            raise InputError("candidate and reference must be strings", line=i + 1, field="text")
    names = parse_metrics(metrics)
    cands = [normalise_text(c) for c in candidates]
    refs = [normalise_text(r) for r in references]
    bound = bind_metrics(names, embedding, stem, refs)
    rows: list[MetricValue] = []

    def emit(key: str, offset: int, scores: list[Score]) -> None:
        sig = bound[key][2]
        rows.extend(MetricValue(offset + i, key, s.value, sig, s.details) for i, s in enumerate(scores))

    chunked = [k for k in names if bound[k][0].parallel and bound[k][0].pairwise]
    if chunked:
        n_workers = workers if workers is not None else (os.cpu_count() or 1) if len(cands) >= 64 else 1
        pairs = list(zip(cands, refs, strict=True))
        step = 32
        jobs = [([bound[k][:2] for k in chunked], pairs[i : i + step]) for i in range(0, len(pairs), step)]
        if n_workers > 1 and len(jobs) > 1:
            # spawn, not fork: the parent may already hold torch threads (embedding metrics)
            with ProcessPoolExecutor(n_workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                results = pool.map(_run_chunk, jobs)
                for j, part in enumerate(results):
                    for key, scores in zip(chunked, part, strict=True):
                        emit(key, j * step, scores)
                    if progress:
                        progress(len(jobs[j][1]))
        else:
            for j, job in enumerate(jobs):
                for key, scores in zip(chunked, _run_chunk(job), strict=True):
                    emit(key, j * step, scores)
                if progress:
                    progress(len(job[1]))
    for key in (k for k in names if k not in chunked):
        defn, params, _ = bound[key]
        scores = defn.compute(cands, refs, params)
        if len(scores) != len(cands):
            raise RuntimeError(f"metric {key!r} returned {len(scores)} values for {len(cands)} pairs")
        emit(key, 0, scores)
        if progress:
            progress(len(scores))
    rows.sort(key=lambda row: (row.index, names.index(row.metric)))
    return rows

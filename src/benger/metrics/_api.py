"""One entry point: ``compute(candidates, references, metrics=...)`` -> a tidy table of per-item values."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

from benger.errors import InputError
from benger.metrics import _embed, _lexical
from benger.metrics._lexical import Score

LEXICAL_METRICS: tuple[str, ...] = ("bleu", "chrf", "rouge1", "rouge2", "rougeL", "meteor")
EMBEDDING_METRICS: tuple[str, ...] = ("semantic_similarity", "bertscore", "moverscore")
ALL_METRICS: tuple[str, ...] = LEXICAL_METRICS + EMBEDDING_METRICS
DEFAULT_METRICS: tuple[str, ...] = (*LEXICAL_METRICS, "semantic_similarity")
LABELS: dict[str, str] = {
    "bleu": "BLEU (sacrebleu, sentence)",
    "chrf": "chrF (sacrebleu)",
    "rouge1": "ROUGE-1 F1 (de)",
    "rouge2": "ROUGE-2 F1 (de)",
    "rougeL": "ROUGE-L F1 (de)",
    "meteor": _lexical.METEOR_LABEL,
    "semantic_similarity": "Semantic similarity (USE-multilingual, sentence mean)",
    "bertscore": "BERTScore F1 (chunked)",
    "moverscore": "MoverScore (IDF, EMD)",
}


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
    """Encoder for BERTScore/MoverScore: a local HF model directory (None: the packaged default) and layer."""

    encoder: str | None = None
    layer: int | None = None
    idf: bool = False


def parse_metrics(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """Accept "all", "lexical", "embedding", a comma list or a sequence; unknown names raise InputError."""
    if value is None:
        return DEFAULT_METRICS
    items = [v.strip() for v in (value.split(",") if isinstance(value, str) else value) if v.strip()]
    out: list[str] = []
    for item in items:
        group = {"all": ALL_METRICS, "lexical": LEXICAL_METRICS, "embedding": EMBEDDING_METRICS}.get(item)
        names = group if group is not None else (item,)
        for name in names:
            if name not in ALL_METRICS:
                raise InputError(f"unknown metric {name!r}; choose from {', '.join(ALL_METRICS)}", field="metrics")
            if name not in out:
                out.append(name)
    return tuple(out)


def signatures(metrics: Sequence[str], options: EmbeddingOptions | None = None, stem: bool = True) -> dict[str, str]:
    """The signature of every requested metric (loads the encoder for BERTScore/MoverScore)."""
    options = options or EmbeddingOptions()
    out: dict[str, str] = {}
    for m in metrics:
        if m == "bleu":
            out[m] = _lexical.bleu_signature()
        elif m == "chrf":
            out[m] = _lexical.chrf_signature()
        elif m.startswith("rouge"):
            out[m] = _lexical.rouge_signature(m, stem)
        elif m == "meteor":
            out[m] = _lexical.meteor_signature()
        elif m == "semantic_similarity":
            out[m] = _embed.semantic_signature()
        elif m == "bertscore":
            out[m] = _embed.bertscore_signature(_embed.token_encoder(options.encoder, options.layer, m), options.idf)
        elif m == "moverscore":
            out[m] = _embed.moverscore_signature(_embed.token_encoder(options.encoder, options.layer, m))
    return out


def _lexical_chunk(args: tuple[list[tuple[str, str]], tuple[str, ...], bool]) -> list[dict[str, Score]]:
    pairs, metrics, stem = args
    return [_lexical.lexical_scores(c, r, metrics, stem) for c, r in pairs]


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

    ``workers`` processes share the lexical metrics (default: ``os.cpu_count()`` for >= 64 items, else 1);
    ``progress(n)`` is called with the number of newly finished items of each metric family.
    """
    if len(candidates) != len(references):
        raise InputError(f"{len(candidates)} candidates but {len(references)} references", field="references")
    for i, (c, r) in enumerate(zip(candidates, references, strict=True)):
        if not isinstance(c, str) or not isinstance(r, str):
            raise InputError("candidate and reference must be strings", line=i + 1, field="text")
    names = parse_metrics(metrics)
    options = embedding or EmbeddingOptions()
    sigs = signatures(names, options, stem)
    rows: list[MetricValue] = []
    lexical = tuple(m for m in names if m in LEXICAL_METRICS)
    if lexical:
        n_workers = workers if workers is not None else (os.cpu_count() or 1) if len(candidates) >= 64 else 1
        pairs = list(zip(candidates, references, strict=True))
        step = 32
        chunks = [(pairs[i : i + step], lexical, stem) for i in range(0, len(pairs), step)]
        results: list[dict[str, Score]] = []
        if n_workers > 1 and len(chunks) > 1:
            # spawn, not fork: the parent may already hold torch threads (embedding metrics)
            with ProcessPoolExecutor(n_workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                for part in pool.map(_lexical_chunk, chunks):
                    results.extend(part)
                    if progress:
                        progress(len(part))
        else:
            for chunk in chunks:
                part = _lexical_chunk(chunk)
                results.extend(part)
                if progress:
                    progress(len(part))
        for i, scores in enumerate(results):
            rows.extend(MetricValue(i, m, scores[m].value, sigs[m], scores[m].details) for m in lexical)
    for m in (x for x in names if x in EMBEDDING_METRICS):
        if m == "semantic_similarity":
            scores_list = _embed.semantic_similarity(candidates, references)
        else:
            encoder = _embed.token_encoder(options.encoder, options.layer, m)
            if m == "bertscore":
                scores_list = _embed.bertscore(candidates, references, encoder, idf=options.idf)
            else:
                scores_list = _embed.moverscore(candidates, references, encoder)
        if progress:
            progress(len(scores_list))
        rows.extend(MetricValue(i, m, s.value, sigs[m], s.details) for i, s in enumerate(scores_list))
    rows.sort(key=lambda row: (row.index, names.index(row.metric)))
    return rows

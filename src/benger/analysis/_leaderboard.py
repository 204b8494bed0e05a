"""The leaderboard: one definition for ``benger leaderboard``, ``benger analyze``, ``benger run`` and the report.

A row is one **system configuration** (``SystemConfig.config_hash()``, joined across corpora although each task
kind's prompts give its generations another ``config_hash``: :mod:`benger.analysis._leaderboard_identity`; the
name is a label, ``config_id`` the first 8 hex characters) x one **judge configuration** (judge name,
``judge_config_hash``, rubric id) x one **corpus**; the row keeps that corpus's generation config hash and
prompt-set hash as provenance.

Aggregation (paper Section 4, Table 1): a generation's score is the mean over the judge configuration's scored
repeats; the row's mean (0-100 raw points), grade points and pass rate are means over its generations, and its
95% CI is over those per-generation scores (percentile bootstrap, seeded, or the normal interval clipped to 0-100
by the stats layer; undefined for n < 2 and then ``None``). Unscored judgements are counted (``unscored``), never
averaged; ok generations without a scored judgement are ``unjudged``; failed, excluded and truncated generations
are counted apart. Ja/Nein accuracy is ``benger.metrics.accuracy``: correct / all generations of the row
(unanswered count as wrong), shown with ``answered`` / ``answer_items``.

Rankings never mix judges: each judge is its own ranking group (a judge name that carries two configurations on
one corpus is split per configuration), and a system configuration is ranked within its group by the mean of its
per-corpus means. ``pool_judges=True`` (``--pool-judges``) asks for one pooled group instead: per generation the
mean over judge configurations of their repeat means.

Superseded generations (the release's April-2026 runs: status ``excluded``, reason "superseded ...", their own
config hash) are counted in the row of the same system name's current configuration by default
(``include_superseded=True``, the paper's printed Table 1: GPT-5.4 n = 30, 68.2); ``include_superseded=False``
leaves them out (the release's manuscript: n = 15, 66.6). The board says which (``superseded``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from benger.analysis._leaderboard_build import build
from benger.analysis._leaderboard_identity import same_configuration
from benger.analysis._leaderboard_metrics import MetricRecord, choose_signatures
from benger.analysis._leaderboard_model import (  # noqa: F401  (re-exported)
    AGGREGATION,
    NOT_RANKED,
    POOLED,
    RAW_SCALE,
    CiKind,
    Leaderboard,
    LeaderboardRow,
    SystemRank,
)
from benger.errors import InputError
from benger.schema import FalloesungTask, Generation, Judgement, PrincipleItem, SystemConfig
from benger.store._aggregate import Answer, ConfigProvenance, GenerationCount, MetricGroupMean
from benger.store._aggregate_items import ItemScore


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _short(value: str | None) -> str | None:
    return value[:8] if value else None


# -- inputs from records (the reference path) ----------------------------------------------------------
def _is_superseded(g: Generation) -> bool:
    """The rule of ``benger.store._aggregate.SUPERSEDED_REASON``: excluded with a reason "superseded..."."""
    return g.status == "excluded" and (g.reason or "").startswith("superseded")


def _items_from_records(
    generations: Sequence[Generation],
    judgements: Iterable[Judgement],
    corpus_of: Mapping[str, str],
    judges: Sequence[str] | None,
    include_superseded: bool,
) -> list[ItemScore]:
    ok = {
        g.generation_id: g
        for g in generations
        if (g.status == "ok" or (include_superseded and _is_superseded(g))) and g.task_id in corpus_of
    }
    by_key: dict[tuple[str, str, str, str], list[Judgement]] = defaultdict(list)
    for j in judgements:
        if j.target_kind == "generation" and j.target_id in ok and (judges is None or j.judge in judges):
            by_key[(j.target_id, j.judge, j.judge_config_hash, j.rubric_id)].append(j)
    items = []
    for (gid, judge, jhash, rubric), js in by_key.items():
        g = ok[gid]
        scored = [j for j in js if j.status == "scored" and j.total is not None]
        gp = [float(j.grade_points) for j in scored if j.grade_points is not None]
        ps = [1.0 if j.passed else 0.0 for j in scored if j.passed is not None]
        items.append(
            ItemScore(
                g.system,
                g.config_hash,
                corpus_of[g.task_id],
                gid,
                judge,
                jhash,
                rubric,
                len(scored),
                sum(1 for j in js if j.status == "unscored"),
                _mean([float(j.total) for j in scored if j.total is not None]),
                _mean(gp),
                _mean(ps),
                g.status,
            )
        )
    return items


def _counts_from_records(generations: Sequence[Generation], corpus_of: Mapping[str, str]) -> list[GenerationCount]:
    counts: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for g in generations:
        if g.task_id in corpus_of:
            cell = counts[(g.system, g.config_hash, corpus_of[g.task_id], g.status)]
            cell[0] += 1
            cell[1] += int(g.truncated)
    return [GenerationCount(*k, n, t) for k, (n, t) in sorted(counts.items())]


def leaderboard(
    generations: Sequence[Generation],
    judgements: Sequence[Judgement],
    tasks: Mapping[str, FalloesungTask | PrincipleItem],
    *,
    systems: Mapping[str, SystemConfig] | None = None,
    ci: CiKind = "bootstrap",
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    judges: Sequence[str] | None = None,
    metric_values: Sequence[MetricRecord] | None = None,
    metric_signatures: Mapping[str, str] | None = None,
    pool_judges: bool = False,
    include_superseded: bool = True,
) -> Leaderboard:
    """The leaderboard from records (``tasks``: task id -> task; ``systems``: name -> config, for the tier).

    ``judges`` keeps only those judge names; ``metric_values`` add per-row metric means under one signature per
    metric (``metric_signatures`` chooses; default: each metric's most frequent signature). The store path
    :func:`leaderboard_from_store` computes the same numbers in SQL.
    """
    corpus_of = {tid: t.corpus for tid, t in tasks.items()}
    gold = {(t.corpus, tid): t.gold_answer for tid, t in tasks.items() if isinstance(t, PrincipleItem)}
    answers = [
        Answer(g.system, g.config_hash, corpus_of[g.task_id], g.task_id, g.status, g.answer)
        for g in sorted(generations, key=lambda g: g.generation_id)
        if (corpus_of.get(g.task_id), g.task_id) in gold
    ]
    values = [v for v in metric_values or [] if v.target_kind == "generation"]
    stored: dict[str, set[str]] = defaultdict(set)
    for v in values:
        stored[v.metric].add(v.signature)
    signatures = _signatures(choose_signatures(values), metric_signatures, stored)
    ok = {g.generation_id: g for g in generations if g.status == "ok" and g.task_id in corpus_of}
    sums: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for v in values:
        g = ok.get(v.target_id)
        if g is not None and signatures.get(v.metric) == v.signature:
            sums[(g.system, g.config_hash, corpus_of[g.task_id], v.metric)].append(v.value)
    means = [MetricGroupMean(*k, math.fsum(xs) / len(xs), len(xs)) for k, xs in sorted(sums.items())]
    prompts: dict[str, ConfigProvenance] = {}
    for g in sorted(generations, key=lambda g: g.generation_id):
        prompts.setdefault(g.config_hash, ConfigProvenance.of(g.meta))
    superseded: dict[tuple[str, str, str], int] = defaultdict(int)
    for g in generations:
        if g.task_id in corpus_of and _is_superseded(g):
            superseded[(g.system, g.config_hash, corpus_of[g.task_id])] += 1
    return build(
        _items_from_records(generations, judgements, corpus_of, judges, include_superseded),
        _counts_from_records(generations, corpus_of),
        answers,
        gold,
        means,
        tiers={name: s.tier for name, s in (systems or {}).items()},
        provenance=prompts,
        displays=display_names(systems.values() if systems else []),
        signatures=signatures,
        ci=ci,
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        pool_judges=pool_judges,
        superseded=superseded,
        include_superseded=include_superseded,
    )


@cache
def _catalog_aliases() -> dict[str, str]:
    from benger.llm._catalog import load_catalog

    aliases: dict[str, str] = {}
    for entry in load_catalog().systems:
        if entry.display_name:
            aliases.setdefault(entry.name, entry.display_name)
            aliases.setdefault(entry.model, entry.display_name)
    return aliases


def display_names(configs: Iterable[SystemConfig]) -> dict[str, str]:
    """Short display names: the catalog's alias (by system name or model id, e.g. "Opus-4.7", "Qwen3-235B"),
    else the stored config's ``display_name``."""
    aliases = _catalog_aliases()
    out: dict[str, str] = {}
    for c in configs:
        name = aliases.get(c.name) or c.display_name
        if name:
            out.setdefault(c.name, name)
    return out


def _signatures(
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


def leaderboard_from_store(
    store: Any,
    *,
    corpora: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    judges: Sequence[str] | None = None,
    ci: CiKind = "bootstrap",
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    metric_signatures: Mapping[str, str] | None = None,
    pool_judges: bool = False,
    include_superseded: bool = True,
) -> Leaderboard:
    """The leaderboard of a store (optionally restricted to corpora, system names and judge names).

    Counts, repeat means and (with ``ci="normal"``) the rows' sums are computed in SQL (``benger.store._aggregate``,
    ``_aggregate_items``); per-generation score columns reach Python only for the bootstrap, pooled judges or a
    near-constant row, never texts, justifications or ORM objects.
    """
    from benger.store import _aggregate as agg
    from benger.store import _aggregate_items as per_item

    agg.refresh_statistics(store)
    configs = store.systems()
    aliases = same_configuration(((s.name, s.config_hash()) for s in configs), systems or [])
    if aliases:  # a name given for a configuration made under another name selects that name's rows too
        systems = sorted({*(systems or []), *(other for names in aliases.values() for other in names)})
    superseded = agg.superseded_counts(store, corpora=corpora, systems=systems)
    scope: dict[str, Any] = {
        "corpora": corpora,
        "systems": systems,
        "judges": judges,
        "include_superseded": include_superseded and bool(superseded),  # a store without any skips that pass
    }
    # the normal interval needs sums only (a few rows); the bootstrap and pooled judges need every item
    sums = per_item.row_sums(store, **scope) if ci == "normal" and not pool_judges else None
    counts = agg.generation_counts(store, corpora=corpora, systems=systems)
    answers = agg.answers(store, corpora=corpora, systems=systems)
    gold: dict[tuple[str, str], str] = {}  # by task: (corpus, task id)
    for corpus in sorted({a.corpus for a in answers}):
        tasks = store.load_corpus(corpus).tasks
        gold |= {(corpus, t.task_id): t.gold_answer for t in tasks if isinstance(t, PrincipleItem)}
    counted = agg.metric_signature_counts(store)
    chosen = {m: min(c, key=lambda s: (-c[s], s)) for m, c in sorted(counted.items())}
    signatures = _signatures(chosen, metric_signatures, counted)
    tiers: dict[str, str | None] = {}
    for s in configs:
        tiers.setdefault(s.name, s.tier)
    board = build(
        lambda: per_item.item_scores(store, **scope),
        counts,
        answers,
        gold,
        agg.metric_means(store, signatures, corpora=corpora, systems=systems),
        sums=sums,
        tiers=tiers,
        provenance=agg.config_provenance(store, counts),
        displays=display_names(configs),
        signatures=signatures,
        ci=ci,
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        pool_judges=pool_judges,
        superseded=superseded,
        include_superseded=include_superseded,
    )
    return board.model_copy(update={"system_aliases": aliases}) if aliases else board

"""The leaderboard of a store: :func:`benger.analysis.leaderboard.leaderboard_from_store`.

Counts, repeat means and (with the normal interval) the rows' sums are computed in SQL (``benger.store._aggregate``,
``_aggregate_items``); per-generation score columns reach Python only for the bootstrap, pooled judges or a
near-constant row, never texts, justifications or ORM objects. The definition is in
:mod:`benger.analysis.leaderboard`.
"""

from __future__ import annotations

from typing import Any

from benger.analysis.leaderboard.build import BoardInputs, build
from benger.analysis.leaderboard.context import LeaderboardContext
from benger.analysis.leaderboard.counts import own_rubric_counts
from benger.analysis.leaderboard.identity import display_names, same_configuration
from benger.analysis.leaderboard.metrics import resolve_signatures
from benger.analysis.leaderboard.model import Leaderboard
from benger.analysis.leaderboard.scales import with_scales
from benger.schema import PrincipleItem


def leaderboard_from_store(store: Any, context: LeaderboardContext | None = None, **options: Any) -> Leaderboard:
    """The leaderboard of ``store`` within ``context`` (or the flat ``options`` of :meth:`LeaderboardContext.of`:
    ``corpora``, ``systems``, ``judges``, ``rubrics``, ``ci``, ``seed``, ``n_resamples``, ``confidence``,
    ``metric_signatures``, ``pool_judges``, ``include_superseded``).

    A system name given for a configuration made under another name selects that name's rows too
    (``Leaderboard.system_aliases``). A validation-only judge configuration
    (:func:`benger.store._aggregate_items.validation_only_judges`) makes no rows unless ``judges`` names it;
    the board names it (``Leaderboard.left_out``).
    Raises InputError (field ``--metric-signature``) for a signature with no stored value."""
    from benger.store import _aggregate as agg
    from benger.store import _aggregate_items as per_item

    ctx = LeaderboardContext.of(context, **options)
    agg.refresh_statistics(store)
    configs = store.systems()
    aliases = same_configuration(((s.name, s.config_hash()) for s in configs), ctx.systems or [])
    if aliases:  # a name given for a configuration made under another name selects that name's rows too
        names = {*(ctx.systems or []), *(other for names in aliases.values() for other in names)}
        ctx = ctx.model_copy(update={"systems": tuple(sorted(names))})
    scope = ctx.store_scope()
    superseded = agg.superseded_counts(store, **scope)
    leave_out = ctx.left_out(per_item.validation_only_judges(store))  # judges of the reviewed picks only
    items_scope: dict[str, Any] = {
        **scope,
        "judges": list(ctx.judges) if ctx.judges else None,
        "include_superseded": ctx.include_superseded and bool(superseded),  # a store without any skips that pass
        "leave_out": leave_out,
    }
    # the normal interval needs sums only (a few rows); the bootstrap and pooled judges need every item
    sums = per_item.row_sums(store, **items_scope) if ctx.ci.method == "normal" and not ctx.pool_judges else None
    counts = agg.generation_counts(store, **scope)
    answers = agg.answers(store, **scope)
    gold: dict[tuple[str, str], str] = {}  # by task: (corpus, task id)
    for corpus in sorted({a.corpus for a in answers}):
        tasks = store.load_corpus(corpus).tasks
        gold |= {(corpus, t.task_id): t.gold_answer for t in tasks if isinstance(t, PrincipleItem)}
    counted = agg.metric_signature_counts(store)
    chosen = {m: min(c, key=lambda s: (-c[s], s)) for m, c in sorted(counted.items())}
    signatures = resolve_signatures(chosen, ctx.metric_signatures, counted)
    tiers: dict[str, str | None] = {}
    for s in configs:
        tiers.setdefault(s.name, s.tier)
    inputs = BoardInputs(
        items=lambda: per_item.item_scores(store, **items_scope),
        counts=counts,
        answers=answers,
        gold=gold,
        metric_rows=agg.metric_means(store, signatures, **scope),
        sums=sums,
        tiers=tiers,
        provenance=agg.config_provenance(store, counts),
        displays=display_names(configs),
        signatures=signatures,
        superseded=superseded,
        validations=store.judge_validations(),
        left_out=leave_out,
        own_rubric=own_rubric_counts(per_item.own_rubric_outcomes(store, **scope)),
    )
    board = with_scales(build(inputs, ctx), store)
    return board.model_copy(update={"system_aliases": aliases}) if aliases else board

"""Judge a set of stored targets with a config's first judge, resumably (``validate-judge``, ``demo --release``):
:func:`benger.analysis._validate_run.judge_picks`, re-exported for the CLI's callers; and the hint of a ``benger
judge`` that found nothing to judge because nothing was generated (:func:`nothing_to_judge`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benger.analysis._validate_run import judge_picks

__all__ = ["judge_picks", "nothing_to_judge"]


def nothing_to_judge(store: Any, result: Any, config: Path | None, db: str | None) -> str | None:
    """The hint to generate first when the judge stage of ``result`` had no item because the store holds no
    generation of the run's systems on its corpora; None otherwise (items judged, or all already judged).

    ``benger judge`` still exits 0 then (README, "Exit codes": every unit asked for has a usable result, and
    there were none), but "0 items to do" alone does not say why."""
    from benger.store._aggregate import generation_counts

    stats = result.judgement
    if stats is None or stats.total or generation_counts(store, corpora=result.corpora, systems=result.systems or None):
        return None
    systems = ", ".join(result.systems) or "any system"
    command = " ".join(["benger generate", str(config) if config else "CONFIG", *(["--db", db] if db else [])])
    return (
        f"nothing to judge: the store holds no generation of {systems} on {', '.join(result.corpora) or 'the corpora'}"
        f"; generate them first: {command}"
    )

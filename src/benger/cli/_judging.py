"""Judge a set of stored targets with a config's first judge, resumably (``validate-judge``, ``demo --release``):
:func:`benger.analysis._validate_run.judge_picks`, re-exported for the CLI's callers."""

from __future__ import annotations

from benger.analysis._validate_run import judge_picks

__all__ = ["judge_picks"]

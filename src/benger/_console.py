"""The one factory of rich consoles for everything benger prints on a terminal.

benger prints data, never rich markup: system and judge names, config ids, rubric ids such as
``[a441f5cf, falloesung@1]``, file paths and model replies. With rich's default (markup on) a bracketed
run that looks like a style tag (``[a441f5cf, ...]`` but not ``[5a514ce5, ...]``) vanished from the
leaderboard's provenance caption. Every console is made here, with markup off.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A rich Console (stdout, or stderr with ``stderr=True``) that prints text literally (markup off);
    ``options`` are further ``rich.console.Console`` arguments (``width``, ``soft_wrap``, ...)."""
    return Console(stderr=stderr, markup=False, **options)

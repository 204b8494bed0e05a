"""The names the viewer shows for judges and systems, in one place for the served pages and the bundle.

Judges: a store's judge key -> its display name (``_render.render`` gives :func:`judge_name` to every template;
the validation figures take it too).

The paper's judges carry their release keys in a store (``cfgB_opus``, ...; :data:`benger.judge._released.
PAPER_JUDGE_NAMES`); they are shown by the names of ``benger.judge._released`` that the report's tables use too,
without the report's English "(primary)"/"(legacy)" notes (the report package itself is not imported: it loads
the whole analysis). Any other judge is shown by its key.

Systems: a store's system name -> its display name, the one the leaderboard's rows carry (``benger leaderboard``'s
System column: :func:`benger.analysis.leaderboard.identity.display_names` over the store's configurations, e.g.
``gpt-5.4`` -> "GPT-5.4"); :func:`system_names` reads them, ``_render.render`` gives every template
``system_name`` and ``words.solution`` (a solution's label, which begins with its system's name) from them.
A system without a display name is shown by its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.judge._released import LEGACY_JUDGE_LABELS, PAPER_JUDGE_LABELS, PAPER_JUDGE_NAMES

#: Release key -> display name: the report's labels without their English notes.
LABELS: dict[str, str] = {
    **{k: v.removesuffix(" (primary)") for k, v in PAPER_JUDGE_LABELS.items()},
    **LEGACY_JUDGE_LABELS,
}
#: A store's judge key -> display name.
JUDGE_NAMES: dict[str, str] = {PAPER_JUDGE_NAMES.get(k, k): v for k, v in LABELS.items()}


def judge_name(key: str | None) -> str:
    """The display name of the judge ``key`` (the key itself when it is no judge of the paper; "–" for None)."""
    if not key:
        return "–"
    return JUDGE_NAMES.get(key, key)


def system_names(store: Any) -> dict[str, str]:
    """The store's system name -> display name (the leaderboard's; only the systems that have one)."""
    from benger.analysis.leaderboard.identity import display_names

    return {k: v for k, v in display_names(store.systems()).items() if v != k}


def system_label(names: Mapping[str, str], label: str) -> str:
    """``label`` (a system's name, or a text that begins with it and a space: "gpt-5.4 #2 (excluded)", "gpt-5.4 ·
    c1") with the system's display name from ``names`` in place of its name (the longest name that fits)."""
    for name in sorted(names, key=len, reverse=True):
        if label == name or label.startswith(name + " "):
            return names[name] + label[len(name) :]
    return label

"""The names the viewer shows for judges: a store's judge key -> its display name, in one place for the served
pages and the bundle (``_render.render`` gives :func:`judge_name` to every template; the validation figures
take it too).

The paper's judges carry their release keys in a store (``cfgB_opus``, ...; :data:`benger.judge._released.
PAPER_JUDGE_NAMES`); they are shown by the names of ``benger.judge._released`` that the report's tables use too,
without the report's English "(primary)"/"(legacy)" notes (the report package itself is not imported: it loads
the whole analysis). Any other judge is shown by its key.
"""

from __future__ import annotations

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

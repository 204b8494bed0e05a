"""The names the viewer shows for judges: a store's judge key -> its display name, in one place for the served
pages and the bundle (``_render.render`` gives :func:`judge_name` to every template; the validation figures
take it too).

The paper's judges carry their release keys in a store (``cfgB_opus``, ...; :data:`benger.judge._released.
PAPER_JUDGE_NAMES`); they are shown by their model names, those of the report's tables
(``benger.report._fmt.JUDGE_LABELS``, without its "(primary)"/"(legacy)" notes, which are English; the report
package itself is not imported: it loads the whole analysis). Any other judge is shown by its key.
"""

from __future__ import annotations

from benger.judge._released import PAPER_JUDGE_NAMES

#: Release key -> display name (tests/web/test_viewer_names.py checks them against the report's labels).
LABELS: dict[str, str] = {
    "gpt54mini": "GPT-5.4-mini",
    "cfgB_opus": "Opus-4.7",
    "cfgB_gemini": "Gemini-3.1-Pro",
    "deepseek": "DeepSeek-V4-Pro",
    "qwen": "Qwen3.5-397B-A17B",
    "sonnet": "Sonnet-4.6",
    "baseline_gpt5": "GPT-5-mini",
    "cfgB_gpt5": "GPT-5",
}
#: A store's judge key -> display name.
JUDGE_NAMES: dict[str, str] = {PAPER_JUDGE_NAMES.get(k, k): v for k, v in LABELS.items()}


def judge_name(key: str | None) -> str:
    """The display name of the judge ``key`` (the key itself when it is no judge of the paper; "–" for None)."""
    if not key:
        return "–"
    return JUDGE_NAMES.get(key, key)

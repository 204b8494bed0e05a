"""The identifiers of the paper's released judging: the primary judge, its judge config hash and the rubric id.

A module of constants (only ``benger.schema`` beneath it), so that the leaderboard names the paper's reference
rows without loading the rubric files or the release reader (issue 26).
"""

from __future__ import annotations

from benger.schema import stable_hash

#: The rubric id the released primary-judge judgements carry (they predate content hashes).
RELEASED_RUBRIC_ID = "falloesung@1"
#: The judge whose scores the release carries.
PRIMARY_JUDGE = "gpt-5.4-mini"
#: The judge config hash of the released judgements (the release names its primary judge only): the judge
#: identity of the paper's reference rows (:mod:`benger.analysis.leaderboard.build`)
RELEASE_JUDGE_CONFIG_HASH = stable_hash({"judge": PRIMARY_JUDGE})

#: The paper's six judges: key in the release's ``creator_calibration_anchors.csv`` -> the judge name their
#: scores carry in a store (primary first; the release names only its primary judge, the others keep their
#: keys). The file's two other keys (``baseline_gpt5``, ``cfgB_gpt5``) are the legacy GPT-5-mini runs.
PAPER_JUDGE_NAMES: dict[str, str] = {
    "gpt54mini": PRIMARY_JUDGE,
    "cfgB_opus": "cfgB_opus",
    "cfgB_gemini": "cfgB_gemini",
    "deepseek": "deepseek",
    "qwen": "qwen",
    "sonnet": "sonnet",
}
#: The display names of the paper's six judges, by their key in the release (``PAPER_JUDGE_NAMES``).
PAPER_JUDGE_LABELS: dict[str, str] = {
    "gpt54mini": "GPT-5.4-mini (primary)",
    "cfgB_opus": "Opus-4.7",
    "cfgB_gemini": "Gemini-3.1-Pro",
    "deepseek": "DeepSeek-V4-Pro",
    "qwen": "Qwen3.5-397B-A17B",
    "sonnet": "Sonnet-4.6",
}
#: The model names of the two legacy judges of the release's earlier runs, by their key.
LEGACY_JUDGE_LABELS: dict[str, str] = {"baseline_gpt5": "GPT-5-mini", "cfgB_gpt5": "GPT-5"}


def stored_judge_label(name: str) -> str | None:
    """The display name of a judge name as a store carries it (``PAPER_JUDGE_NAMES``' values); None for a judge
    that is not one of the paper's."""
    for key, stored in PAPER_JUDGE_NAMES.items():
        if stored == name:
            return PAPER_JUDGE_LABELS[key]
    return None


def released_config_hash(judge: str) -> str:
    """The judge configuration hash of a released judge's scores (that of the release's primary-judge rows)."""
    return RELEASE_JUDGE_CONFIG_HASH if judge == PRIMARY_JUDGE else stable_hash({"judge": judge})

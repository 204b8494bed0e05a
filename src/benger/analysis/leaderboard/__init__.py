"""The leaderboard: one definition for ``benger leaderboard``, ``benger analyze``, ``benger run`` and the report.

A row is one **system configuration** (``SystemConfig.config_hash()``, joined across corpora although each task
kind's prompts give its generations another ``config_hash``: :mod:`benger.analysis.leaderboard.identity`; the
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
mean over judge configurations of their repeat means, every configuration pooled (validation-only ones too:
below); ``Leaderboard.pooled`` counts each pooled judge's scored generations.

A **validation-only** judge configuration makes no rows: every one of its generation judgements is of a reviewed
generation (one with a human review: a validation pick), while on a corpus it judged a judgement under the same
rubric is of an unreviewed one (e.g. the paper's five other judges, whose scores of the 15 LLM picks the release
import stores for the judge validation, beside the primary judge's scores of every generation). A study that
reviewed every generation of its main rubric keeps that rubric's rows, whatever a case's own Bewertungsbogen
judged. ``judges`` naming it shows its rows; pooled judges include it; the board names every one it leaves out
(``Leaderboard.left_out``, a caption line). The rule is one function
(``benger.store._aggregate_items.validation_only_of``): the store path gathers its facts in SQL
(``validation_only_judges``), the records path from its ``reviewed`` ids
(:func:`~benger.analysis.leaderboard.records.validation_only`).

Superseded generations (the release's April-2026 runs: status ``excluded``, reason "superseded ...", their own
config hash) are counted in the row of the same system name's current configuration by default
(``include_superseded=True``, the paper's printed Table 1: GPT-5.4 n = 30, 68.2); ``include_superseded=False``
leaves them out (the release's manuscript: n = 15, 66.6). The board says which (``superseded``).

Modules, lowest first (no module imports one above it): ``model`` (rows, board, constants) <- ``context`` (the
:class:`LeaderboardContext`: scope, CI settings, switches) <- ``identity``, ``metrics``, ``sums``, ``ranking``,
``heap``, ``intervals`` (a row's CI, the board's CI sentence) <- ``build`` (the one aggregation) <- ``records`` /
``store`` (its two input paths); ``render`` (CSV, JSON, Markdown, rich) and ``table1`` (results.json's Table 1
block) read a finished board; ``validity`` gives a judge's status (:func:`judge_status`, also for the viewer).
"""

from benger.analysis.leaderboard.context import CiSettings, LeaderboardContext
from benger.analysis.leaderboard.identity import display_names
from benger.analysis.leaderboard.model import (
    AGGREGATION,
    NOT_RANKED,
    POOLED,
    RAW_SCALE,
    CiKind,
    Leaderboard,
    LeaderboardRow,
    SystemRank,
)
from benger.analysis.leaderboard.records import leaderboard
from benger.analysis.leaderboard.store import leaderboard_from_store
from benger.analysis.leaderboard.validity import NOT_MEANINGFUL, JudgeStatus, judge_status

__all__ = [
    "AGGREGATION",
    "NOT_MEANINGFUL",
    "NOT_RANKED",
    "POOLED",
    "RAW_SCALE",
    "CiKind",
    "CiSettings",
    "JudgeStatus",
    "Leaderboard",
    "LeaderboardContext",
    "LeaderboardRow",
    "SystemRank",
    "display_names",
    "judge_status",
    "leaderboard",
    "leaderboard_from_store",
]

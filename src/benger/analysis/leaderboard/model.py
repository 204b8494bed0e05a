"""The leaderboard's data model (rows, rankings, board) and its constants; see :mod:`benger.analysis.leaderboard`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from benger.analysis.leaderboard.metrics import MetricMean

#: ``auto``: per row the method whose simulated coverage is closest to 95 % at the row's n (``benger.stats.
#: best_method``); ``bootstrap`` is the percentile bootstrap's old name (the paper's Table 1).
CiKind = Literal["auto", "bootstrap", "percentile", "bca", "t", "normal"]
AGGREGATION = (
    "per generation: mean over the judge configuration's scored repeats; per row: mean over generations "
    "(n = generations with a scored judgement); ranking: mean of per-corpus means within one judge group"
)
NOT_RANKED = "unranked (no scored judgement)"
POOLED = "all judges (pooled)"
RAW_SCALE = (0.0, 100.0)
#: A row resting on fewer scored generations than this is "too few for a ranking": its rank is printed in
#: parentheses (the order of its mean only) and the row says so (``few_items``, a provenance line). 10 is the
#: smallest n of the simulated interval coverage (``benger.stats.COVERAGE``): there the best method covers 94 %
#: and the percentile bootstrap 89 %; below it no method's coverage is known (n < 3: no interval at all).
MIN_RANKED_N = 10


class LeaderboardRow(BaseModel):
    """One system configuration x judge configuration x corpus.

    ``config_hash`` is the system configuration's identity (``SystemConfig.config_hash()``, joined across corpora;
    see :mod:`benger.analysis.leaderboard.identity`), ``config_id`` its first 8 hex characters;
    ``generation_config_hash`` and ``prompt_hash`` are this corpus's generation config hash and prompt-set hash."""

    rank: int | None
    group: str
    system: str
    config_id: str
    config_hash: str
    tier: str | None
    judge: str | None
    judge_config_id: str | None
    judge_config_hash: str | None
    rubric: str | None
    prompt_hash: str | None
    generation_config_hash: str | None = None
    display: str | None = None
    reference: bool = False
    comparable: str | None = None
    corpus: str
    n: int
    repeats: float | None
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    #: the mean grade points (Notenpunkte): only under a rubric on the paper's scale (its 0-18 table of 100 points);
    #: None under a user's own rubric, whose own grades are no Notenpunkte (``mean_percent`` instead)
    mean_grade_points: float | None
    pass_rate: float | None
    accuracy: float | None
    #: distinct tasks among the n scored generations: the unit the interval resamples (fewer than n: repetitions)
    tasks: int = 0
    #: the interval's method for this row (``auto`` resolved at its n); None without an interval
    ci_kind: str | None = None
    #: why ``pass_rate`` is None for a scored row ("pass unknown: ...") or covers only part of it; None otherwise
    pass_note: str | None = None
    pass_ci_low: float | None = None
    pass_ci_high: float | None = None
    accuracy_ci_low: float | None = None
    accuracy_ci_high: float | None = None
    #: the judge configuration's validation status (``benger.analysis.leaderboard.judge_status``): "validated on
    #: BenGER picks: ω = 0.60, passes", "failed ...: r = −0.74", "not validated"; None for unjudged/pooled rows
    judge_status: str | None = None
    #: False when the judge failed its validation: the row's scores are marked "scores not meaningful"
    scores_meaningful: bool = True
    answered: int
    answer_items: int
    #: the system x corpus's generations this row counts (``benger.analysis.leaderboard.counts``): each is
    #: counted once per judge configuration, in the row of the rubric that scored it, else in the row of the
    #: configuration's main rubric (with the failed, excluded and unjudged ones); a row without a judge: all
    generations: int
    excluded: int
    failed: int
    #: truncated generations of the system x corpus (a flag of generations, not a set of its own): every row
    truncated: int
    unscored: int
    #: ok generations the row's judge configuration scored under none of its rubrics (in its main rubric's row)
    unjudged: int
    superseded: int = 0
    #: a scored row with n < ``MIN_RANKED_N``: "n = 2: too few for a ranking (fewer than 10 scored generations)";
    #: None otherwise
    few_items: str | None = None
    #: the unit of ``mean`` (its rubric's total, ``benger.analysis.leaderboard.scales``): "raw score 0-30 (rubric
    #: ...)"; None for a row without a judge
    scale: str | None = None
    #: under a user's own rubric: ``mean`` as percent of the rubric's total (``benger.analysis.leaderboard.scales``)
    mean_percent: float | None = None
    metrics: dict[str, MetricMean] = {}


class SystemRank(BaseModel):
    """A system configuration's place within a judge group: the mean of its per-corpus raw means."""

    rank: int
    group: str
    system: str
    config_id: str
    config_hash: str = ""
    tier: str | None
    overall: float | None
    corpora: dict[str, float | None]
    #: some row of this configuration in the group rests on fewer than ``MIN_RANKED_N`` scored generations: the
    #: rank orders the means only
    few_items: bool = False


class Leaderboard(BaseModel):
    """Rows, rankings per judge group, and the provenance of every number (CSV/JSON/Markdown/rich exports)."""

    rows: list[LeaderboardRow]
    ranking: list[SystemRank]
    ci: CiKind
    ci_method: str
    seed: int
    n_resamples: int
    confidence: float = 0.95
    aggregation: str = AGGREGATION
    pooled_judges: bool = False
    #: ``MIN_RANKED_N``: rows with fewer scored generations carry ``few_items``
    min_ranked_n: int = MIN_RANKED_N
    #: with pooled judges: each pooled judge (its name; ``name [config id]`` where a name has two
    #: configurations) -> the generations it scored in the pooled rows (a validation-only judge: its picks)
    pooled: dict[str, int] = {}
    superseded: Literal["included", "excluded"] = "included"
    metric_signatures: dict[str, str] = {}
    benger_version: str = ""
    #: a requested system name -> the other names of its configuration, whose rows it selected
    #: (:func:`benger.analysis.leaderboard.identity.same_configuration`)
    system_aliases: dict[str, list[str]] = {}
    #: rubric id -> its total (the scale of the means judged under it), for the rubrics whose content is known
    rubric_scales: dict[str, float] = {}
    #: the validation-only judge configurations (judge, judge config hash, rubric id) that make no rows
    #: (:func:`benger.store._aggregate_items.validation_only_of`); the caption names them
    left_out: list[tuple[str, str, str]] = []

    def groups(self) -> list[str]:
        """The judge groups in display order."""
        return list(dict.fromkeys(r.group for r in self.rows))

    def to_json(self) -> str:
        from benger.analysis.leaderboard.render import to_json

        return to_json(self)

    def to_csv(self) -> str:
        from benger.analysis.leaderboard.render import to_csv

        return to_csv(self)

    def to_markdown(self) -> str:
        from benger.analysis.leaderboard.render import to_markdown

        return to_markdown(self)

    def to_rich(self) -> Any:
        from benger.analysis.leaderboard.render import to_rich

        return to_rich(self)

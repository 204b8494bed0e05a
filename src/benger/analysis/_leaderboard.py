"""The leaderboard: per system x corpus n, mean raw score with a 95% CI, grade points, pass rate, accuracy.

Optionally also the mean of each stored automatic metric over a row's ok generations (``metric_values``).

Systems are ranked by the mean of their per-corpus raw means (as in the paper's Table 1). Unscored
judgements are left out of every mean but counted; excluded and failed generations are counted apart.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from benger.analysis._leaderboard_metrics import (
    MetricMean,
    MetricRecord,
    choose_signatures,
    metric_means,
    short_label,
)
from benger.schema import FalloesungTask, Generation, Judgement, PrincipleItem, SystemConfig
from benger.stats import bootstrap_mean_ci, normal_mean_ci

CiKind = Literal["bootstrap", "normal"]


class LeaderboardRow(BaseModel):
    """One system on one corpus."""

    rank: int
    system: str
    tier: str | None
    corpus: str
    n: int
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    mean_grade_points: float | None
    pass_rate: float | None
    accuracy: float | None
    generations: int
    excluded: int
    failed: int
    unscored: int
    unjudged: int
    metrics: dict[str, MetricMean] = {}


class SystemRank(BaseModel):
    """A system's overall score: the mean of its per-corpus raw means."""

    rank: int
    system: str
    tier: str | None
    overall: float | None
    corpora: dict[str, float | None]


class Leaderboard(BaseModel):
    rows: list[LeaderboardRow]
    ranking: list[SystemRank]
    ci: CiKind
    seed: int
    n_resamples: int
    confidence: float = 0.95
    metric_signatures: dict[str, str] = {}

    # -- exports -----------------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(self.model_dump(), indent=2, ensure_ascii=False, allow_nan=False, default=str)

    def to_csv(self) -> str:
        buffer = io.StringIO()
        fields = [f for f in LeaderboardRow.model_fields if f != "metrics"]
        metric_fields = [name for m in self.metric_signatures for name in (f"metric_{m}", f"metric_{m}_n")]
        writer = csv.DictWriter(buffer, fieldnames=fields + metric_fields, lineterminator="\n")
        writer.writeheader()
        for row in self.rows:
            cells: dict[str, Any] = {k: "" if v is None else v for k, v in row.model_dump(exclude={"metrics"}).items()}
            for m in self.metric_signatures:
                value = row.metrics.get(m)
                cells[f"metric_{m}"] = "" if value is None else value.mean
                cells[f"metric_{m}_n"] = 0 if value is None else value.n
            writer.writerow(cells)
        return buffer.getvalue()

    def _cells(self, row: LeaderboardRow) -> list[str]:
        ci = f"[{_f(row.ci_low)}, {_f(row.ci_high)}]" if row.ci_low is not None else "–"
        return [
            str(row.rank),
            row.system,
            row.tier or "–",
            row.corpus,
            str(row.n),
            _f(row.mean),
            ci,
            _f(row.mean_grade_points),
            _pct(row.pass_rate),
            _pct(row.accuracy),
            str(row.unscored),
            str(row.excluded),
        ] + [_f(row.metrics[m].mean if m in row.metrics else None, 3) for m in self.metric_signatures]

    def _headers(self) -> list[str]:
        return [*self.HEADERS, *(short_label(m) for m in self.metric_signatures)]

    HEADERS: ClassVar[tuple[str, ...]] = (
        "Rank",
        "System",
        "Tier",
        "Corpus",
        "n",
        "Mean",
        "95% CI",
        "Grade pts",
        "Pass",
        "Ja/Nein acc.",
        "Unscored",
        "Excluded",
    )

    def to_markdown(self) -> str:
        headers = self._headers()
        lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
        lines += ["| " + " | ".join(self._cells(row)) + " |" for row in self.rows]
        lines.append("")
        lines.append(
            f"Ranked by the mean of per-corpus raw means; CI: {self.ci}"
            + (f" (B = {self.n_resamples}, seed {self.seed})" if self.ci == "bootstrap" else " (1.96·sd/√n)")
        )
        return "\n".join(lines) + "\n"

    def to_rich(self) -> Any:
        from rich.table import Table

        table = Table(title="BenGER leaderboard", caption=f"ranked by mean of per-corpus means; CI {self.ci}")
        for header in self._headers():
            table.add_column(header, justify="right" if header not in ("System", "Tier", "Corpus") else "left")
        previous = None
        for row in self.rows:
            if previous is not None and row.system != previous:
                table.add_section()
            table.add_row(*self._cells(row))
            previous = row.system
        return table


def _f(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def leaderboard(
    generations: Sequence[Generation],
    judgements: Sequence[Judgement],
    tasks: Mapping[str, FalloesungTask | PrincipleItem],
    *,
    systems: Mapping[str, SystemConfig] | None = None,
    ci: CiKind = "bootstrap",
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    judges: Sequence[str] | None = None,
    metric_values: Sequence[MetricRecord] | None = None,
) -> Leaderboard:
    """Compute the leaderboard from records.

    Each generation's score is the mean over its scored judgements (judges x repeats); a row's mean and
    CI are over those per-generation scores. ``n`` counts generations with at least one scored judgement;
    ``unscored`` counts unscored judgements, ``unjudged`` ok generations without any scored judgement.
    ``metric_values`` (e.g. ``store.metric_values(target_kind="generation")``) add per row the mean and n of
    each metric over its ok generations, using the metric's most frequent signature (``metric_signatures``).
    """
    signatures = choose_signatures(metric_values or [])
    by_target: dict[str, list[Judgement]] = defaultdict(list)
    for j in judgements:
        if j.target_kind == "generation" and (judges is None or j.judge in judges):
            by_target[j.target_id].append(j)
    groups: dict[tuple[str, str], list[Generation]] = defaultdict(list)
    for gen in generations:
        task = tasks.get(gen.task_id)
        if task is not None:
            groups[(gen.system, task.corpus)].append(gen)
    raw_rows: list[dict[str, Any]] = []
    for (system, corpus), gens in groups.items():
        scores: list[float] = []
        points: list[float] = []
        passes: list[float] = []
        correct: list[float] = []
        unscored = unjudged = 0
        for gen in gens:
            if gen.status != "ok":
                continue
            task = tasks[gen.task_id]
            if isinstance(task, PrincipleItem) and gen.answer is not None:
                correct.append(1.0 if gen.answer == task.gold_answer else 0.0)
            js = by_target.get(gen.generation_id, [])
            unscored += sum(1 for j in js if j.status == "unscored")
            scored = [j for j in js if j.status == "scored" and j.total is not None]
            if not scored:
                unjudged += 1
                continue
            scores.append(math.fsum(j.total for j in scored if j.total is not None) / len(scored))
            gp = [float(j.grade_points) for j in scored if j.grade_points is not None]
            if gp:
                points.append(math.fsum(gp) / len(gp))
            ps = [1.0 if j.passed else 0.0 for j in scored if j.passed is not None]
            if ps:
                passes.append(math.fsum(ps) / len(ps))
        low: float | None = None
        high: float | None = None
        if scores:
            interval = (
                bootstrap_mean_ci(scores, confidence=confidence, n_resamples=n_resamples, seed=seed)
                if ci == "bootstrap"
                else normal_mean_ci(scores, confidence=confidence)
            )
            low, high = interval.low, interval.high
        ok_ids = [g.generation_id for g in gens if g.status == "ok"]
        config = (systems or {}).get(system)
        raw_rows.append(
            {
                "system": system,
                "tier": config.tier if config else None,
                "corpus": corpus,
                "n": len(scores),
                "mean": _mean(scores),
                "ci_low": low,
                "ci_high": high,
                "mean_grade_points": _mean(points),
                "pass_rate": _mean(passes),
                "accuracy": _mean(correct),
                "generations": len(gens),
                "excluded": sum(1 for g in gens if g.status == "excluded"),
                "failed": sum(1 for g in gens if g.status == "failed"),
                "unscored": unscored,
                "unjudged": unjudged,
                "metrics": metric_means(metric_values or [], ok_ids, signatures),
            }
        )
    ranking = _rank(raw_rows)
    order = {r.system: r.rank for r in ranking}
    rows = [LeaderboardRow(rank=order[r["system"]], **r) for r in raw_rows]
    rows.sort(key=lambda r: (r.rank, r.system, r.corpus))
    return Leaderboard(
        rows=rows,
        ranking=ranking,
        ci=ci,
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        metric_signatures=signatures,
    )


def _rank(rows: Sequence[dict[str, Any]]) -> list[SystemRank]:
    per_system: dict[str, dict[str, float | None]] = defaultdict(dict)
    tiers: dict[str, str | None] = {}
    for row in rows:
        per_system[row["system"]][row["corpus"]] = row["mean"]
        tiers[row["system"]] = row["tier"]
    overall = {s: _mean([m for m in c.values() if m is not None]) for s, c in per_system.items()}
    ordered = sorted(per_system, key=lambda s: (overall[s] is None, -(overall[s] or 0.0), s))
    return [
        SystemRank(rank=i + 1, system=s, tier=tiers[s], overall=overall[s], corpora=dict(sorted(per_system[s].items())))
        for i, s in enumerate(ordered)
    ]


def leaderboard_from_store(
    store: Any,
    *,
    corpora: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    judges: Sequence[str] | None = None,
    ci: CiKind = "bootstrap",
    seed: int = 0,
    n_resamples: int = 2000,
) -> Leaderboard:
    """The leaderboard of everything in a store (optionally restricted to corpora, systems and judges).

    The store's generation metric values become the automatic-metric columns.
    """
    names = list(corpora) if corpora is not None else store.corpus_names()
    tasks: dict[str, FalloesungTask | PrincipleItem] = {}
    for name in names:
        for task in store.load_corpus(name).tasks:
            tasks[task.task_id] = task
    gens = [g for g in store.generations() if g.task_id in tasks and (systems is None or g.system in systems)]
    js = store.judgements(target_kind="generation", target_ids=[g.generation_id for g in gens]) if gens else []
    configs = {s.name: s for s in store.systems()}
    values = store.metric_values(target_kind="generation")
    return leaderboard(
        gens, js, tasks, systems=configs, ci=ci, seed=seed, n_resamples=n_resamples, judges=judges, metric_values=values
    )

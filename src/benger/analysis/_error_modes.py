"""The paper's error analysis (§6.6) as a classification of judged generations, parameters configurable.

Modes (judge dimension scores as shares of their rubric maxima; lengths in words):

* ``long_but_shallow``: more than ``long_words`` words and Subsumtion and Schwerpunktsetzung both at
  most ``shallow_share`` of their maxima (paper: > 2,000 words, at most half marks);
* ``wrong_norm_framing``: well-formed (Methodischer Stil and Gliederung at least ``wellformed_share``)
  but Rechtsgrundlagen and Rechtskenntnis both at most ``grounding_share``;
* ``reasoning_outcome_divergence``: the reasoning dimension (Subsumtion / subsumption) and the outcome
  dimension (Ergebnisrichtigkeit / result_correctness) at least ``divergence_gap`` apart.

Where a generation's text is stored, the Gutachten analyser adds evidence the judge cannot give:
the norm recall against the task's reference solution and the Subsumtion-marker density.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from itertools import combinations
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from benger.errors import InputError
from benger.schema import FalloesungTask, Generation, Judgement

MODES = ("long_but_shallow", "wrong_norm_framing", "reasoning_outcome_divergence")
#: rubric dimension names per role: (Falllösung key, Grundprinzipien key)
_REASONING = ("subsumtion", "subsumption")
_OUTCOME = ("ergebnisrichtigkeit", "result_correctness")
EXCERPT_CHARS = 300


class ErrorModeParams(BaseModel):
    """Thresholds of the three modes (defaults: the paper's wording in §6.6; shares of the maxima)."""

    model_config = ConfigDict(extra="forbid")
    long_words: int = Field(default=2000, ge=0)
    shallow_share: float = Field(default=0.5, ge=0, le=1)
    wellformed_share: float = Field(default=0.7, ge=0, le=1)
    grounding_share: float = Field(default=0.5, ge=0, le=1)
    divergence_gap: float = Field(default=0.4, ge=0, le=1)
    examples: int = Field(default=3, ge=0, description="example excerpts shown per mode")


class FlaggedGeneration(BaseModel):
    """One judged generation with the modes it falls in (possibly none) and the analyser's evidence."""

    generation_id: str
    system: str
    tier: str | None
    task_id: str
    words: int | None
    total: float | None
    shares: dict[str, float]
    modes: list[str]
    excerpt: str
    norm_recall: float | None = None
    subsumtion_per_1000_words: float | None = None


class ErrorModeReport(BaseModel):
    """Counts per mode, per system and per tier (each with its number judged), pairwise overlaps, examples.

    ``provenance`` names the judge, rubric version and thresholds the counts come from.
    """

    provenance: dict[str, Any]
    n_judged: int
    n_without_length: int
    counts: dict[str, int]
    by_system: dict[str, dict[str, int]]
    by_tier: dict[str, dict[str, int]]
    overlaps: dict[str, int]
    examples: dict[str, list[FlaggedGeneration]]
    items: list[FlaggedGeneration]


def _shares(dims: Mapping[str, float], maxima: Mapping[str, float]) -> dict[str, float]:
    return {k: float(v) / maxima[k] for k, v in dims.items() if k in maxima and maxima[k] > 0}


def _first(shares: Mapping[str, float], keys: tuple[str, ...]) -> float | None:
    return next((shares[k] for k in keys if k in shares), None)


def classify(shares: Mapping[str, float], words: int | None, params: ErrorModeParams) -> list[str]:
    """The modes of one generation from its dimension shares (0-1) and its length (None = unknown)."""
    modes: list[str] = []
    low = params.shallow_share
    long = words is not None and words > params.long_words
    if long and shares.get("subsumtion", 1.0) <= low and shares.get("schwerpunktsetzung", 1.0) <= low:
        modes.append("long_but_shallow")
    form = ("methodischer_stil", "gliederung")
    grounding = ("rechtsgrundlagen", "rechtskenntnis")
    known = all(k in shares for k in form + grounding)
    wellformed = known and all(shares[k] >= params.wellformed_share for k in form)
    if wellformed and all(shares[k] <= params.grounding_share for k in grounding):
        modes.append("wrong_norm_framing")
    reasoning, outcome = _first(shares, _REASONING), _first(shares, _OUTCOME)
    if reasoning is not None and outcome is not None and abs(reasoning - outcome) >= params.divergence_gap:
        modes.append("reasoning_outcome_divergence")
    return modes


def _mean_dims(judgements: list[Judgement]) -> dict[str, float]:
    keys = judgements[0].dimensions or {}
    return {k: sum((j.dimensions or {}).get(k, 0.0) for j in judgements) / len(judgements) for k in keys}


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def _excerpt(text: str) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    if not flat:
        return "(text not stored: released, text withheld)"
    return flat if len(flat) <= EXCERPT_CHARS else flat[:EXCERPT_CHARS].rsplit(" ", 1)[0] + " …"


def classify_generations(
    generations: Mapping[str, Generation],
    judgements: list[Judgement],
    maxima: Mapping[str, Mapping[str, float]],
    *,
    tiers: Mapping[str, str | None],
    tasks: Mapping[Any, Any],
    params: ErrorModeParams | None = None,
    words: Mapping[str, int] | None = None,
) -> ErrorModeReport:
    """Classify the generations that ``judgements`` (one judge, one rubric; repeats are averaged) score.

    ``maxima`` maps a rubric's first dimension key to that rubric's maxima; ``words`` gives lengths of
    generations whose text is not stored (e.g. the release's word counts). Raises InputError when the
    judgements mix judges or rubric versions, or none is left.
    """
    from benger.gutachten import analyse, compare

    params = params or ErrorModeParams()
    scored = [j for j in judgements if j.status == "scored" and j.dimensions and j.target_id in generations]
    if not scored:
        raise InputError("no scored judgements of stored generations to classify")
    pairs = {(j.judge, j.rubric_id) for j in scored}
    if len(pairs) > 1:
        raise InputError(f"judgements of several judges/rubrics {sorted(pairs)}; choose one with --judge/--rubric")
    by_target: dict[str, list[Judgement]] = defaultdict(list)
    for j in scored:
        by_target[j.target_id].append(j)
    ref_cache: dict[tuple[str, str], Any] = {}
    items: list[FlaggedGeneration] = []
    for gid, js in sorted(by_target.items()):
        gen = generations[gid]
        dims = _mean_dims(js)
        rubric_max = next((m for m in maxima.values() if set(dims) <= set(m)), None)
        if rubric_max is None:
            raise InputError(f"judgement of {gid} has dimensions {sorted(dims)} of no known rubric", field="dimensions")
        length = len(gen.text.split()) if gen.text.strip() else (words or {}).get(gid)
        shares = _shares(dims, rubric_max)
        item = FlaggedGeneration(
            generation_id=gid,
            system=gen.system,
            tier=tiers.get(gen.system),
            task_id=gen.task_id,
            words=length,
            total=_mean([j.total for j in js]),
            shares={k: round(v, 4) for k, v in shares.items()},
            modes=classify(shares, length, params),
            excerpt=_excerpt(gen.text),
        )
        task = tasks.get((gen.corpus, gen.task_id), tasks.get(gen.task_id))  # by (corpus, task id) or task id
        if gen.text.strip() and isinstance(task, FalloesungTask):
            if (task.corpus, task.task_id) not in ref_cache:
                ref_cache[(task.corpus, task.task_id)] = analyse(task.reference)
            mine = analyse(gen.text)
            item.norm_recall = compare(mine, ref_cache[(task.corpus, task.task_id)]).norms_paragraph.recall
            item.subsumtion_per_1000_words = mine.subsumtion_per_1000_words
        items.append(item)
    return _summarise(items, params, next(iter(pairs)))


def _summarise(items: list[FlaggedGeneration], params: ErrorModeParams, pair: tuple[str, str]) -> ErrorModeReport:
    counts = Counter(m for it in items for m in it.modes)
    by_system: dict[str, Counter[str]] = defaultdict(Counter)
    by_tier: dict[str, Counter[str]] = defaultdict(Counter)
    for it in items:
        for table, key in ((by_system, it.system), (by_tier, it.tier or "unknown")):
            table[key]["n"] += 1
            table[key].update(it.modes)
    overlaps = {
        f"{a}+{b}": sum(1 for it in items if a in it.modes and b in it.modes) for a, b in combinations(MODES, 2)
    }
    examples = {m: [it for it in items if m in it.modes][: params.examples] for m in MODES}
    return ErrorModeReport(
        provenance={
            "judge": pair[0],
            "rubric_id": pair[1],
            "params": params.model_dump(),
            "section": "paper §6.6",
        },
        n_judged=len(items),
        n_without_length=sum(1 for it in items if it.words is None),
        counts={m: counts.get(m, 0) for m in MODES},
        by_system={k: {m: v.get(m, 0) for m in ("n", *MODES)} for k, v in sorted(by_system.items())},
        by_tier={k: {m: v.get(m, 0) for m in ("n", *MODES)} for k, v in sorted(by_tier.items())},
        overlaps=overlaps,
        examples=examples,
        items=items,
    )


def error_modes_from_store(
    store: Any,
    *,
    judge: str | None = None,
    rubric_id: str | None = None,
    corpus: str | None = None,
    params: ErrorModeParams | None = None,
    words: Mapping[str, int] | None = None,
    corpora: Collection[str] | None = None,
) -> ErrorModeReport:
    """Classify the ``ok`` generations of ``store`` (public Store methods only) judged by ``judge``
    (``corpus``: of that corpus; ``corpora``: of these corpora only, None for all).

    Without ``judge``/``rubric_id`` the pair with the most scored generation judgements is used.
    """
    from benger.judge import falloesung_rubric, grundprinzipien_rubric

    gens = {
        g.generation_id: g
        for g in store.generations(corpus=corpus, status="ok")
        if corpora is None or g.corpus in corpora
    }
    if not gens:
        raise InputError("the store holds no ok generations" + (f" of corpus {corpus!r}" if corpus else ""))
    judgements = store.judgements(judge=judge, target_kind="generation", status="scored", rubric_id=rubric_id)
    judgements = [j for j in judgements if j.target_id in gens]
    if not judgements:
        raise InputError("no scored judgements of these generations (filters: judge/rubric/corpus)")
    if judge is None or rubric_id is None:
        top = Counter((j.judge, j.rubric_id) for j in judgements).most_common(1)[0][0]
        judgements = [j for j in judgements if (j.judge, j.rubric_id) == top]
    maxima = {r.keys[0]: r.maxima() for r in (falloesung_rubric(), grundprinzipien_rubric())}
    tiers = {s.name: s.tier for s in store.systems()}
    task_keys = {(gens[j.target_id].corpus, gens[j.target_id].task_id) for j in judgements}
    tasks = {(c, tid): store.get_task(tid, c) for c, tid in task_keys}  # a task is (corpus, task id)
    return classify_generations(gens, judgements, maxima, tiers=tiers, tasks=tasks, params=params, words=words)


def release_word_counts(release: Any, generations: Mapping[str, Generation] | None = None) -> dict[str, int]:
    """Word counts by generation id from the release's ``benchathon_generations_stats.json`` (keyed by
    system and task there; the final campaign has one generation per cell, superseded ones are skipped)."""
    cell = {
        (str(r.get("model")), str(r.get("task"))): int(r["words"]) for r in release.generation_stats if "words" in r
    }
    out: dict[str, int] = {}
    for g in generations.values() if generations is not None else release.generations:
        if g.generation_id in release.superseded_ids:
            continue
        if (g.system, g.task_id) in cell:
            out[g.generation_id] = cell[(g.system, g.task_id)]
    return out


def error_modes_markdown(report: ErrorModeReport) -> str:
    """The report as a markdown section (for the HTML/Markdown report): provenance, a per-tier table
    with counts and rates, the per-system table, overlaps and one example per mode."""
    prov = report.provenance
    params = ", ".join(f"{k}={v}" for k, v in prov["params"].items() if k != "examples")
    lines = [
        "### Error modes (paper §6.6)",
        "",
        f"Judge `{prov['judge']}`, rubric `{prov['rubric_id']}`; thresholds: {params}. "
        f"{report.n_judged} judged generations ({report.n_without_length} without a known length).",
        "",
    ]
    for title, table in (("tier", report.by_tier), ("system", report.by_system)):
        lines += [f"| {title} | n | " + " | ".join(MODES) + " |", "|---|---|" + "---|" * len(MODES)]
        for key, row in table.items():
            cells = [f"{row[m]} ({row[m] / row['n']:.0%})" if row["n"] else "–" for m in MODES]
            lines.append(f"| {key} | {row['n']} | " + " | ".join(cells) + " |")
        lines.append("")
    lines.append("Overlaps: " + ", ".join(f"{k.replace('+', ' & ')}: {v}" for k, v in report.overlaps.items()) + ".")
    for mode, items in report.examples.items():
        if items:
            it = items[0]
            lines += ["", f"*{mode}* — {it.system}, task {it.task_id}, {it.words} words: {it.excerpt}"]
    return "\n".join(lines) + "\n"

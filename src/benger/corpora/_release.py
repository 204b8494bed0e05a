"""Loader for the official BenGER release (Dataset_ARR layout: ``data/interim`` and ``data/processed``).

``load_release(path)`` reads every released file the project uses, validates each file whole against its
pydantic model (:mod:`benger.corpora._release_models`), checks the files against each other
(:mod:`benger.corpora._release_check`: systems, tasks, generations, picks, reviews, assignments, counts) and
only then builds the typed, frozen :class:`Release`; nothing is written anywhere. Bad input raises one
:class:`benger.errors.InputError` naming the file, the line (as an editor counts), the 1-based record and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from benger.corpora._release_check import ReleaseCheck, check_unique_cases, check_unique_items
from benger.corpora._release_io import JsonFile, read_csv
from benger.corpora._release_judgements import evaluations, pick_judgements
from benger.corpora._release_models import (
    AnchorRecord,
    BenchathonCase,
    GenerationStat,
    GradeRecord,
    GradingSample,
    HumanMetricRecord,
    JudgeSwap,
    MetricRecord,
    PrincipleRecord,
    PrincipleSummaryRecord,
    RepeatRecord,
    SystemRecord,
    ZjsSummaryRecord,
)
from benger.corpora._release_records import (
    AnchorRow,
    Assignment,
    HumanMetricRow,
    JudgeRepeat,
    MetricRow,
    Pick,
    Release,
    SystemInfo,
)
from benger.errors import InputError
from benger.judge import falloesung_rubric
from benger.schema import (
    Corpus,
    FalloesungTask,
    HumanReview,
    PrincipleItem,
    SystemConfig,
)

_PROVIDERS = {"anthropic": "anthropic", "openai": "openai", "google": "google"}


def _build(file: JsonFile, idx: int, make: Any) -> Any:
    """``make()`` for record ``idx`` of ``file``; a schema model that still refuses it is an InputError there."""
    try:
        return make()
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(step) for step in first["loc"]) or None
        raise file.error(str(first["msg"]).removeprefix("Value error, "), (idx,), field) from None


# ---------------------------------------------------------------- parts
def _tasks(root: Path, picks: list[Any], grades: list[GradeRecord], sample: JsonFile) -> Corpus:
    file = JsonFile(root / "data/interim/benchathon.json")
    cases: list[BenchathonCase] = file.validate(list[BenchathonCase])
    check_unique_cases(file, cases)
    solution_task = {g.solution_id: g.task_id for g in grades}
    inner_to_uuid: dict[int, str] = {}
    for pick in picks:
        if pick.subject_id in solution_task:
            inner_to_uuid.setdefault(pick.task_inner_id, solution_task[pick.subject_id])
    tasks = []
    for idx, case in enumerate(cases):
        if idx + 1 not in inner_to_uuid:
            raise sample.error(f"no pick links task_inner_id {idx + 1} to a task id", ("picks",), "picks")
        tasks.append(
            _build(
                file,
                idx,
                lambda case=case, idx=idx: FalloesungTask(
                    task_id=inner_to_uuid[idx + 1],
                    corpus="benchathon",
                    area=case.bereich,
                    facts=case.sachverhalt,
                    reference=case.musterlösung,
                    meta={"inner_id": idx + 1},
                ),
            )
        )
    return Corpus(name="benchathon", tasks=list(tasks), description="Benchathon (15 exam cases)")


def _principles(root: Path) -> Corpus:
    file = JsonFile(root / "data/interim/grundprinzipien.json")
    items: list[PrincipleRecord] = file.validate(list[PrincipleRecord])
    check_unique_items(file, items)
    tasks = [
        _build(
            file,
            idx,
            lambda item=item, idx=idx: PrincipleItem(
                task_id=f"gp-{idx + 1:04d}",
                corpus="grundprinzipien",
                area=item.Bereich,
                case=item.fall,
                question=item.task,
                gold_answer=item.binary_solution,
                gold_reasoning=item.reasoning,
                principle=item.Grundprinzip,
                authors=item.Autoren,
            ),
        )
        for idx, item in enumerate(items)
    ]
    return Corpus(name="grundprinzipien", tasks=tasks, description="Grundprinzipien (531 items)")


def _reviews(file: JsonFile, grades: list[GradeRecord]) -> tuple[HumanReview, ...]:
    return tuple(
        _build(
            file,
            idx,
            lambda rec=rec, idx=idx: HumanReview(
                review_id=f"review-{idx + 1:03d}",
                target_kind="generation" if rec.solution_type == "llm_system" else "human_solution",
                target_id=rec.solution_id,
                task_id=rec.task_id,
                grader_id=rec.grader_id,
                role=rec.role,
                dimensions=dict(rec.dimensions),
                raw_score=rec.raw_score,
                grade_points=rec.grade_points,
                passed=rec.passed,
                position=idx,
                meta={"solution_type": rec.solution_type, "author": rec.system_or_user, "area": rec.bereich},
            ),
        )
        for idx, rec in enumerate(grades)
    )


def _systems(path: Path) -> tuple[SystemInfo, ...]:
    file = JsonFile(path)
    records: list[SystemRecord] = file.validate(list[SystemRecord], unique="model_id")
    out = []
    for idx, rec in enumerate(records):
        config = _build(
            file,
            idx,
            lambda rec=rec: SystemConfig(
                name=rec.model_id,
                provider=_PROVIDERS.get(rec.provider.lower(), "openai-compatible"),
                model=(rec.raw_model_ids or [rec.model_id])[0],
                tier=rec.tier,
                weights=rec.weights,
                temperature=rec.temperature,
                max_output_tokens=rec.max_output_tokens or 8000,
                repetitions=rec.repetitions or 1,
                display_name=rec.name,
                provider_family=rec.provider,
            ),
        )
        out.append(SystemInfo(config=config, raw=file.data[idx]))
    return tuple(out)


def _metrics(processed: Path, verify: Callable[[JsonFile, list[Any]], None]) -> tuple[MetricRow, ...]:
    rows: list[MetricRow] = []
    for name, superseded in (
        ("benchathon_automatic_metrics.json", False),
        ("benchathon_superseded_automatic_metrics.json", True),
    ):
        file = JsonFile(processed / name)
        records: list[MetricRecord] = file.validate(list[MetricRecord], unique=("generation_id", "metric"))
        verify(file, records)
        rows.extend(MetricRow(r.system, r.task_id, r.generation_id, r.metric, r.value, superseded) for r in records)
    return tuple(rows)


def _object(path: Path) -> dict[str, Any]:
    file = JsonFile(path)
    if not isinstance(file.data, dict):
        raise InputError(f"expected a JSON object, got {type(file.data).__name__}", file=path, line=1)
    return file.data


def load_release(path: str | Path) -> Release:
    """Read and validate the release at ``path`` (the folder that holds ``data/``)."""
    root = Path(path)
    interim, processed = root / "data/interim", root / "data/processed"
    if not interim.is_dir() or not processed.is_dir():
        raise InputError("not a BenGER release folder (expected data/interim and data/processed)", file=root)

    sample_file = JsonFile(interim / "benchathon_human_grading_sample.json")
    sample: GradingSample = sample_file.validate(GradingSample)
    grades_file = JsonFile(processed / "benchathon_human_grades.json")
    maxima = {"maxima": falloesung_rubric().maxima()}
    grades: list[GradeRecord] = grades_file.validate(
        list[GradeRecord], context=maxima, unique=("solution_id", "grader_id")
    )
    reviews = _reviews(grades_file, grades)
    benchathon = _tasks(root, sample.picks, grades, sample_file)
    inner_to_uuid = {t.meta["inner_id"]: t.task_id for t in benchathon.tasks}
    task_ids = set(inner_to_uuid.values())
    check = ReleaseCheck(root, sample_file=sample_file, sample=sample, n_cases=len(benchathon.tasks), task_ids=task_ids)
    check.sample_counts()
    check.assignments_csv()

    picks = tuple(
        Pick(
            pick_id=rec.pick_id,
            task_inner_id=rec.task_inner_id,
            task_id=inner_to_uuid.get(rec.task_inner_id, ""),
            area=rec.bereich,
            difficulty=str(rec.difficulty),
            provenance=rec.provenance,
            subject_type=rec.subject_type,
            subject_id=rec.subject_id,
            system_label=rec.system,
            participant=rec.user_pseudonym,
            text=rec.submission_text,
        )
        for rec in sample.picks
    )
    assignments = tuple(
        Assignment(rec.pick_id, rec.reviewer_name, rec.reviewer_role, str(rec.pass_)) for rec in sample.assignments
    )

    check.grades(grades_file, grades, {p.pick_id: p.task_id for p in picks})
    check.scores(grades_file, grades)
    systems = _systems(processed / "systems.json")
    names = check.system_names(systems)
    hashes = {s.config.name: s.config.config_hash() for s in systems}
    texts = {p.subject_id: p.text for p in picks if p.subject_type == "model"}
    gens, judg = evaluations(
        processed / "benchathon_model_evaluations.json", texts, hashes,
        lambda f, recs: check.evaluations(f, recs, names, final=True),
    )  # fmt: skip
    sup_g, sup_j = evaluations(
        processed / "benchathon_superseded_evaluations.json", texts, hashes,
        lambda f, recs: check.evaluations(f, recs, names, final=False),
    )  # fmt: skip
    final_ids = {g.generation_id for g in gens}
    for index, gen in enumerate(sup_g):  # one generation per record, in file order
        if gen.generation_id in final_ids:
            raise JsonFile(processed / "benchathon_superseded_evaluations.json").error(
                f"generation_id {gen.generation_id!r} is also in benchathon_model_evaluations.json; a generation "
                "is either final or superseded, not both",
                (index, "generation_id"),
                "generation_id",
            )

    by_id = {g.generation_id: g for g in gens + sup_g}
    repeats_file = JsonFile(processed / "benchathon_human_judge_repeats.json")
    repeats: list[RepeatRecord] = repeats_file.validate(list[RepeatRecord], unique="generation_id")
    check.references(repeats_file, repeats, by_id)
    human_metrics: list[HumanMetricRecord] = JsonFile(processed / "benchathon_human_automatic_metrics.json").validate(
        list[HumanMetricRecord]
    )
    anchors_path = processed / "csv/creator_calibration_anchors.csv"
    anchors = read_csv(anchors_path, AnchorRecord, unique=("judge", "solution_id"))
    check.anchors(anchors_path, anchors)
    principles = _principles(root)
    zjs_file = JsonFile(processed / "zjs_model_summary.json")
    zjs_file.validate(list[ZjsSummaryRecord])
    check.summaries(zjs_file, names)
    gp_file = JsonFile(processed / "grundprinzipien_model_summary.json")
    gp_file.validate(list[PrincipleSummaryRecord])
    check.summaries(gp_file, names, len(principles.tasks))
    stats_file = JsonFile(processed / "benchathon_generations_stats.json")
    stats: list[GenerationStat] = stats_file.validate(list[GenerationStat], unique=("model", "task"))
    check.generation_stats(stats_file, stats, {(g.system, g.task_id) for g in gens + sup_g})
    swap_file = JsonFile(processed / "benchathon_judge_swap.json")
    raws: dict[str, list[float]] = {}
    for j in judg + sup_j:
        raws.setdefault(by_id[j.target_id].system, []).append(float(j.total or 0.0))
    check.judge_swap(swap_file, swap_file.validate(JudgeSwap), names, raws)
    op_path = processed / "operational_metadata.json"
    return Release(
        path=root,
        benchathon=benchathon,
        grundprinzipien=principles,
        picks=picks,
        assignments=assignments,
        reviews=reviews,
        generations=tuple(gens + sup_g),
        judgements=tuple(judg + sup_j),
        superseded_ids=frozenset(g.generation_id for g in sup_g),
        judge_repeats=tuple(JudgeRepeat(r.generation_id, tuple(r.raw_scores)) for r in repeats),
        metrics=_metrics(processed, lambda f, recs: check.references(f, recs, by_id)),
        instruction_variants=dict(_object(processed / "benchathon_instruction_variants.json")),
        human_metrics=tuple(HumanMetricRow(r.annotation_id, r.metric, r.value, r.variant) for r in human_metrics),
        anchors=tuple(
            AnchorRow(a.judge, a.judge_label, a.solution_id, a.pool, a.y_judge, a.y_creator) for a in anchors
        ),
        judge_swap=dict(swap_file.data),
        zjs_summary=tuple(zjs_file.data),
        gp_summary=tuple(gp_file.data),
        systems=systems,
        generation_stats=tuple(stats_file.data),
        operational_metadata=_object(op_path) if op_path.is_file() else {},
        pick_judgements=pick_judgements(
            anchors,
            {p.subject_id for p in picks if p.subject_type == "human"},
            {p.subject_id for p in picks if p.subject_type == "model"},
        ),
    )

"""Loader for the official BenGER release (Dataset_ARR layout: ``data/interim`` and ``data/processed``).

``load_release(path)`` reads every released file the project uses, validates it and returns a typed,
frozen :class:`Release`. Bad input raises :class:`benger.errors.InputError` naming the file, the record
(list index, 0-based) and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benger.corpora._release_io import as_list, get_field, parse_float, read_csv, read_json
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
from benger.judge import falloesung_rubric, grade_points, passed
from benger.schema import (
    Corpus,
    FalloesungTask,
    Generation,
    HumanReview,
    Judgement,
    PrincipleItem,
    SystemConfig,
    stable_hash,
)

PRIMARY_JUDGE = "gpt-5.4-mini"
_PROVIDERS = {"anthropic": "anthropic", "openai": "openai", "google": "google"}


def _scores(rec: dict[str, Any], path: Path, idx: int) -> tuple[dict[str, float], float]:
    """Validated dimensions and raw score (raw must equal the sum of the dimensions)."""
    maxima = falloesung_rubric().maxima()
    dims = get_field(rec, "dimensions", dict, path, idx)
    if set(dims) != set(maxima):
        missing = sorted(set(maxima) - set(dims)) or sorted(set(dims) - set(maxima))
        raise InputError(
            f"unexpected dimension set (missing/extra: {missing})", file=path, line=idx, field="dimensions"
        )
    out: dict[str, float] = {}
    for key, top in maxima.items():
        value = dims[key]
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= top:
            raise InputError(
                f"must be a number in [0, {top}], got {value!r}", file=path, line=idx, field=f"dimensions.{key}"
            )
        out[key] = float(value)
    raw = get_field(rec, "raw_score", float, path, idx)
    if abs(raw - sum(out.values())) > 1e-6:
        raise InputError(
            f"raw_score {raw} != sum of dimensions {sum(out.values())}", file=path, line=idx, field="raw_score"
        )
    return out, raw


# ---------------------------------------------------------------- parts
def _tasks(root: Path, sample: dict[str, Any], grades: list[dict[str, Any]], sample_path: Path) -> Corpus:
    path = root / "data/interim/benchathon.json"
    items = as_list(read_json(path), path)
    solution_task = {g["solution_id"]: g["task_id"] for g in grades}
    inner_to_uuid: dict[int, str] = {}
    for idx, pick in enumerate(sample["picks"]):
        inner = get_field(pick, "task_inner_id", int, sample_path, idx)
        sid = get_field(pick, "subject_id", str, sample_path, idx)
        if sid in solution_task:
            inner_to_uuid.setdefault(inner, solution_task[sid])
    tasks = []
    for idx, item in enumerate(items):
        if idx + 1 not in inner_to_uuid:
            raise InputError(f"no pick links task_inner_id {idx + 1} to a task id", file=sample_path, field="picks")
        tasks.append(
            FalloesungTask(
                task_id=inner_to_uuid[idx + 1],
                corpus="benchathon",
                area=get_field(item, "bereich", str, path, idx),
                facts=get_field(item, "sachverhalt", str, path, idx),
                reference=get_field(item, "musterlösung", str, path, idx),
                meta={"inner_id": idx + 1},
            )
        )
    return Corpus(name="benchathon", tasks=list(tasks), description="Benchathon (15 exam cases)")


def _principles(root: Path) -> Corpus:
    path = root / "data/interim/grundprinzipien.json"
    items = as_list(read_json(path), path)
    tasks = []
    for idx, item in enumerate(items):
        answer = get_field(item, "binary_solution", str, path, idx)
        try:
            tasks.append(
                PrincipleItem(
                    task_id=f"gp-{idx + 1:04d}",
                    corpus="grundprinzipien",
                    area=get_field(item, "Bereich", str, path, idx),
                    case=get_field(item, "fall", str, path, idx),
                    question=get_field(item, "task", str, path, idx),
                    gold_answer=answer,
                    gold_reasoning=get_field(item, "reasoning", str, path, idx),
                    principle=item.get("Grundprinzip"),
                    authors=item.get("Autoren"),
                )
            )
        except ValueError as exc:
            raise InputError(str(exc).splitlines()[0], file=path, line=idx, field="binary_solution") from exc
    return Corpus(name="grundprinzipien", tasks=list(tasks), description="Grundprinzipien (531 items)")


def _reviews(path: Path, grades: list[Any]) -> tuple[HumanReview, ...]:
    out = []
    for idx, rec in enumerate(grades):
        dims, raw = _scores(rec, path, idx)
        role = get_field(rec, "role", str, path, idx)
        if role not in ("blind", "creator"):
            raise InputError(f"role must be blind or creator, got {role!r}", file=path, line=idx, field="role")
        stype = get_field(rec, "solution_type", str, path, idx)
        gp = get_field(rec, "grade_points", int, path, idx)
        out.append(
            HumanReview(
                review_id=f"review-{idx + 1:03d}",
                target_kind="generation" if stype == "llm_system" else "human_solution",
                target_id=get_field(rec, "solution_id", str, path, idx),
                task_id=get_field(rec, "task_id", str, path, idx),
                grader_id=get_field(rec, "grader_id", str, path, idx),
                role=role,
                dimensions=dims,
                raw_score=raw,
                grade_points=gp,
                passed=get_field(rec, "passed", bool, path, idx),
                position=idx,
                meta={"solution_type": stype, "author": rec.get("system_or_user"), "area": rec.get("bereich")},
            )
        )
    return tuple(out)


def _evaluations(path: Path, n: int | None, texts: dict[str, str], hashes: dict[str, str]) -> tuple[list[Any], ...]:
    gens, judgements = [], []
    rubric_id = falloesung_rubric().id
    judge_hash = stable_hash({"judge": PRIMARY_JUDGE})
    for idx, rec in enumerate(as_list(read_json(path), path, n)):
        dims, raw = _scores(rec, path, idx)
        gid = get_field(rec, "generation_id", str, path, idx)
        system = get_field(rec, "system", str, path, idx)
        gens.append(
            Generation(
                generation_id=gid,
                task_id=get_field(rec, "task_id", str, path, idx),
                system=system,
                config_hash=hashes.get(system, stable_hash({"system": system})),
                text=texts.get(gid, ""),
                output_tokens=rec.get("output_tokens"),
            )
        )
        judgements.append(
            Judgement(
                judgement_id=f"{gid}:{PRIMARY_JUDGE}:0",
                target_kind="generation",
                target_id=gid,
                judge=PRIMARY_JUDGE,
                judge_config_hash=judge_hash,
                rubric_version=rubric_id,
                status="scored",
                dimensions=dims,
                total=raw,
                grade_points=grade_points(raw),
                passed=passed(raw),
            )
        )
    return gens, judgements


def _systems(path: Path) -> tuple[SystemInfo, ...]:
    out = []
    for idx, rec in enumerate(as_list(read_json(path), path)):
        model_id = get_field(rec, "model_id", str, path, idx)
        family = get_field(rec, "provider", str, path, idx)
        config = SystemConfig(
            name=model_id,
            provider=_PROVIDERS.get(family.lower(), "openai-compatible"),
            model=(rec.get("raw_model_ids") or [model_id])[0],
            tier=get_field(rec, "tier", str, path, idx),
            weights=get_field(rec, "weights", str, path, idx),
            temperature=rec.get("temperature"),
            max_output_tokens=int(rec.get("max_output_tokens") or 8000),
            repetitions=int(rec.get("repetitions") or 1),
            display_name=rec.get("name"),
            provider_family=family,
        )
        out.append(SystemInfo(config=config, raw=rec))
    return tuple(out)


def load_release(path: str | Path) -> Release:
    """Read and validate the release at ``path`` (the folder that holds ``data/``)."""
    root = Path(path)
    interim, processed = root / "data/interim", root / "data/processed"
    if not interim.is_dir() or not processed.is_dir():
        raise InputError("not a BenGER release folder (expected data/interim and data/processed)", file=root)

    sample_path = interim / "benchathon_human_grading_sample.json"
    sample = read_json(sample_path)
    if not isinstance(sample, dict):
        raise InputError("expected a JSON object", file=sample_path)
    as_list(get_field(sample, "picks", list, sample_path, 0), sample_path)
    as_list(get_field(sample, "assignments", list, sample_path, 0), sample_path)
    grades_path = processed / "benchathon_human_grades.json"
    grades = as_list(read_json(grades_path), grades_path)
    for idx, rec in enumerate(grades):
        get_field(rec, "solution_id", str, grades_path, idx)
    reviews = _reviews(grades_path, grades)
    benchathon = _tasks(root, sample, grades, sample_path)
    inner_to_uuid = {t.meta["inner_id"]: t.task_id for t in benchathon.tasks}

    picks = []
    for idx, rec in enumerate(sample["picks"]):
        inner = get_field(rec, "task_inner_id", int, sample_path, idx)
        stype = get_field(rec, "subject_type", str, sample_path, idx)
        picks.append(
            Pick(
                pick_id=get_field(rec, "pick_id", str, sample_path, idx),
                task_inner_id=inner,
                task_id=inner_to_uuid.get(inner, ""),
                area=get_field(rec, "bereich", str, sample_path, idx),
                difficulty=str(rec.get("difficulty")),
                provenance=get_field(rec, "provenance", str, sample_path, idx),
                subject_type=stype,
                subject_id=get_field(rec, "subject_id", str, sample_path, idx),
                system_label=rec.get("system"),
                participant=rec.get("user_pseudonym"),
                text=get_field(rec, "submission_text", str, sample_path, idx),
            )
        )
    assignments = tuple(
        Assignment(
            pick_id=get_field(rec, "pick_id", str, sample_path, idx),
            grader=get_field(rec, "reviewer_name", str, sample_path, idx),
            role=get_field(rec, "reviewer_role", str, sample_path, idx),
            pass_label=str(rec.get("pass")),
        )
        for idx, rec in enumerate(sample["assignments"])
    )

    systems = _systems(processed / "systems.json")
    hashes = {s.config.name: s.config.config_hash() for s in systems}
    texts = {p.subject_id: p.text for p in picks if p.subject_type == "model"}
    gens, judg = _evaluations(processed / "benchathon_model_evaluations.json", None, texts, hashes)
    sup_g, sup_j = _evaluations(processed / "benchathon_superseded_evaluations.json", None, texts, hashes)

    rep_path = processed / "benchathon_human_judge_repeats.json"
    repeats = []
    for idx, rec in enumerate(as_list(read_json(rep_path), rep_path)):
        scores = get_field(rec, "raw_scores", list, rep_path, idx)
        if not scores or not all(isinstance(s, int | float) for s in scores):
            raise InputError("expected a non-empty list of numbers", file=rep_path, line=idx, field="raw_scores")
        repeats.append(
            JudgeRepeat(get_field(rec, "generation_id", str, rep_path, idx), tuple(float(s) for s in scores))
        )

    metrics: list[MetricRow] = []
    for name, sup in (
        ("benchathon_automatic_metrics.json", False),
        ("benchathon_superseded_automatic_metrics.json", True),
    ):
        mpath = processed / name
        for idx, rec in enumerate(as_list(read_json(mpath), mpath)):
            metrics.append(
                MetricRow(
                    system=get_field(rec, "system", str, mpath, idx),
                    task_id=get_field(rec, "task_id", str, mpath, idx),
                    generation_id=get_field(rec, "generation_id", str, mpath, idx),
                    metric=get_field(rec, "metric", str, mpath, idx),
                    value=get_field(rec, "value", float, mpath, idx),
                    superseded=sup,
                )
            )
    hm_path = processed / "benchathon_human_automatic_metrics.json"
    human_metrics = tuple(
        HumanMetricRow(
            annotation_id=get_field(rec, "annotation_id", str, hm_path, idx),
            metric=get_field(rec, "metric", str, hm_path, idx),
            value=get_field(rec, "value", float, hm_path, idx),
            variant=get_field(rec, "variant", str, hm_path, idx, nullable=True),
        )
        for idx, rec in enumerate(as_list(read_json(hm_path), hm_path))
    )
    iv_path = processed / "benchathon_instruction_variants.json"
    variants = read_json(iv_path)
    if not isinstance(variants, dict):
        raise InputError("expected a JSON object", file=iv_path)

    an_path = processed / "csv/creator_calibration_anchors.csv"
    anchors = []
    for idx, row in enumerate(read_csv(an_path)):
        for key in ("judge", "judge_label", "solution_id", "pool", "y_judge", "y_creator"):
            if not row.get(key):
                raise InputError("required column is missing or empty", file=an_path, line=idx + 2, field=key)
        anchors.append(
            AnchorRow(
                judge=row["judge"],
                judge_label=row["judge_label"],
                solution_id=row["solution_id"],
                pool=row["pool"],
                y_judge=parse_float(row["y_judge"], an_path, idx + 2, "y_judge"),
                y_creator=parse_float(row["y_creator"], an_path, idx + 2, "y_creator"),
            )
        )

    def summary(name: str, key: str) -> tuple[dict[str, Any], ...]:
        spath = processed / name
        rows = as_list(read_json(spath), spath)
        for idx, rec in enumerate(rows):
            get_field(rec, "system", str, spath, idx)
            metrics_ = get_field(rec, "metrics", dict, spath, idx)
            get_field(metrics_, key, float, spath, idx)
        return tuple(rows)

    swap_path = processed / "benchathon_judge_swap.json"
    swap = read_json(swap_path)
    if not isinstance(swap, dict):
        raise InputError("expected a JSON object", file=swap_path)
    op_path = processed / "operational_metadata.json"
    gs_path = processed / "benchathon_generations_stats.json"
    return Release(
        path=root,
        benchathon=benchathon,
        grundprinzipien=_principles(root),
        picks=tuple(picks),
        assignments=assignments,
        reviews=reviews,
        generations=tuple(gens + sup_g),
        judgements=tuple(judg + sup_j),
        superseded_ids=frozenset(g.generation_id for g in sup_g),
        judge_repeats=tuple(repeats),
        metrics=tuple(metrics),
        instruction_variants=dict(variants),
        human_metrics=human_metrics,
        anchors=tuple(anchors),
        judge_swap=swap,
        zjs_summary=summary("zjs_model_summary.json", "llm_judge_falloesung_raw_mean"),
        gp_summary=summary("grundprinzipien_model_summary.json", "judge_raw_mean"),
        systems=systems,
        generation_stats=tuple(as_list(read_json(gs_path), gs_path)),
        operational_metadata=read_json(op_path) if op_path.is_file() else {},
    )

"""Your own human reviews (blind and creator) from a CSV or JSONL file, validated against each solution's rubric.

One row per review: ``solution_id`` (a stored generation id or human solution id; also ``target_id``),
``reviewer`` (the reviewer's pseudonym; also ``grader``, ``pseudonym``), ``role`` (``blind`` or ``creator``) and
one column per dimension of the solution's rubric, named by its key (JSONL may give them as a ``dimensions``
object instead). The total, grade points and pass are computed from the rubric (never read from the file). The
rubric of a solution is its task's own Bewertungsbogen, else the one given for the corpus (``rubrics``), else
the built-in rubric of the task kind. Every problem (up to 20) is reported at once, naming line and field; nothing
is stored unless the whole file is valid (``Store.add_human_reviews``: one transaction).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from benger.corpora._fields import ProblemLog, column_key
from benger.corpora._reading import check_suffix, read_text
from benger.judge import Rubric, falloesung_rubric, grundprinzipien_rubric, rubric_from_data
from benger.judge._parse import read_number
from benger.schema import HumanReview, stable_hash

_ALIASES = {
    "solution_id": ("solution_id", "target_id", "loesung_id", "id"),
    "reviewer": ("reviewer", "grader", "grader_id", "pseudonym", "korrektor"),
    "role": ("role", "rolle"),
}
_ROLES: dict[str, Literal["blind", "creator"]] = {
    "blind": "blind",
    "creator": "creator",
    "ersteller": "creator",
    "erstellerin": "creator",
}


def _field(record: Mapping[str, Any], name: str) -> Any:
    for alias in _ALIASES[name]:
        for key, value in record.items():
            if column_key(key) == alias and value not in (None, ""):
                return value
    return None


def _rubric_of(task: Any, rubrics: Mapping[str, Rubric]) -> Rubric:
    if task.rubric is not None:
        return rubric_from_data(task.rubric, f"task {task.task_id!r}")
    if task.corpus in rubrics:
        return rubrics[task.corpus]
    return falloesung_rubric() if task.kind == "falloesung" else grundprinzipien_rubric()


def load_reviews_file(
    path: str | Path, store: Any, *, rubrics: Mapping[str, Rubric] | None = None
) -> list[HumanReview]:
    """The reviews of ``path`` (``.csv`` or ``.jsonl``) as HumanReview records for the solutions in ``store``.

    ``rubrics``: corpus name -> rubric for tasks without their own Bewertungsbogen. Raises one InputError (a
    CorpusFileError) listing every problem: an unknown solution id, a missing reviewer or role, a role other than
    blind/creator, a dimension missing, unknown, not a number, outside 0..max or off its step, one reviewer twice
    on one solution. Under a rubric without a grade table a review keeps its raw points only: ``grade_points`` is
    None, and ``passed`` is None unless the rubric has a pass mark (``pass_total``)."""
    from benger.corpora._user import _csv_records, _jsonl_records

    path = Path(path)
    suffix = check_suffix(path, (".csv", ".jsonl", ".ndjson"))
    text = read_text(path)
    log = ProblemLog(path)
    records = _csv_records(text, log) if suffix == ".csv" else _jsonl_records(text, log)
    reviews: list[HumanReview] = []
    seen: dict[tuple[str, str], int] = {}
    for position, (line, record) in enumerate(records):
        review = _review(record, line, position, store, rubrics or {}, log, typed=suffix != ".csv")
        if review is None:
            continue
        key = (review.target_id, review.grader_id)
        if key in seen:
            log.add(f"reviewer {review.grader_id!r} reviews this solution twice (first on line {seen[key]})",
                    line=line, field="reviewer")  # fmt: skip
            continue
        seen[key] = line
        reviews.append(review)
    if not reviews and not log.problems:
        log.add("the file contains no reviews")
    log.raise_if_any()
    return reviews


def _review(
    record: Mapping[str, Any],
    line: int,
    position: int,
    store: Any,
    rubrics: Mapping[str, Rubric],
    log: ProblemLog,
    *,
    typed: bool,
) -> HumanReview | None:
    before = len(log.problems) + log.more
    solution_id, reviewer, role = (_field(record, n) for n in ("solution_id", "reviewer", "role"))
    for name, value in (("solution_id", solution_id), ("reviewer", reviewer), ("role", role)):
        if value is None:
            log.add(f"required field missing ({'/'.join(_ALIASES[name][:3])})", line=line, field=name)
    if role is not None and str(role).strip().lower() not in _ROLES:
        log.add(f"role {role!r}: expected 'blind' or 'creator'", line=line, field="role")
    if solution_id is None:
        return None
    target_id = str(solution_id).strip()
    generation = store.get_generation_by_id(target_id)
    solution = None if generation is not None else store.get_human_solution(target_id)
    if generation is None and solution is None:
        log.add(f"no generation or human solution {target_id!r} in the store", line=line, field="solution_id")
        return None
    owner: Any = generation if generation is not None else solution
    task = store.get_task(owner.task_id, owner.corpus)
    if task is None:
        log.add(f"the task {owner.task_id!r} of {target_id!r} is not in the store", line=line, field="solution_id")
        return None
    rubric = _rubric_of(task, rubrics)
    dims = _dimensions(record, rubric, line, log, typed=typed)
    if len(log.problems) + log.more > before or dims is None:
        return None
    total = math.fsum(dims.values())
    reviewer_id = str(reviewer).strip()
    return HumanReview(
        review_id="rev-" + stable_hash([target_id, reviewer_id, str(role).strip().lower()], length=24),
        target_kind="generation" if generation is not None else "human_solution",
        target_id=target_id,
        task_id=task.task_id,
        grader_id=reviewer_id,
        role=_ROLES[str(role).strip().lower()],
        dimensions=dims,
        raw_score=total,
        grade_points=rubric.grade_points(total),  # None under a rubric without a grade table: raw points only
        passed=rubric.passed(total),  # None when the rubric has neither a grade table nor a pass mark
        position=position,
        meta={"rubric_id": rubric.id, "source": f"{log.file}:{line}"},
    )


def review_changes(store: Any, reviews: Sequence[HumanReview]) -> tuple[list[HumanReview], dict[str, int]]:
    """The reviews of ``reviews`` to write and how many of them are ``new``, ``replaced`` (the same reviewer,
    solution and role with another score, dimension or order) and ``unchanged`` (written as stored already; where
    they were read from does not count). An import writes the first two and says all three, as corpus imports do:
    importing a changed review again used to say "imported 1 reviews" and silently replace the stored one."""
    stored = {r.review_id: r for r in store.human_reviews()}
    counts = {"new": 0, "replaced": 0, "unchanged": 0}
    write: list[HumanReview] = []
    for review in reviews:
        before = stored.get(review.review_id)
        kind = "new" if before is None else "unchanged" if _content(before) == _content(review) else "replaced"
        counts[kind] += 1
        if kind != "unchanged":
            write.append(review)
    return write, counts


def _content(review: HumanReview) -> dict[str, Any]:
    data = review.model_dump(exclude={"meta"})
    return {**data, "meta": {k: v for k, v in review.meta.items() if k != "source"}}


def _dimensions(
    record: Mapping[str, Any], rubric: Rubric, line: int, log: ProblemLog, *, typed: bool
) -> dict[str, float] | None:
    """The scores of ``record`` by the rubric's keys. A column matches a key by :func:`column_key` (the corpus
    reader's rule: ``pruefung`` is ``prüfung``). ``typed`` (JSONL): a score must be a JSON number, text ("4") is
    refused as the corpus and release readers refuse a wrong type; a CSV cell is text, read with a decimal comma."""
    nested = record.get("dimensions")
    values: Mapping[str, Any] = nested if isinstance(nested, dict) else record
    known = {column_key(k) for k in (*_ALIASES["solution_id"], *_ALIASES["reviewer"], *_ALIASES["role"])}
    known |= {"dimensions", "corpus"}
    by_key = {column_key(k): k for k in rubric.keys}
    columns: dict[str, str] = {}  # rubric key -> the column that gives it
    for column in values:
        dim_key = column if column in rubric.keys else by_key.get(column_key(column))
        if dim_key is None:
            if column_key(column) not in known:
                log.add(f"unknown dimension {column!r}; the rubric {rubric.id} has {', '.join(rubric.keys)}",
                        line=line, field=column)  # fmt: skip
            continue
        if dim_key in columns and values[column] not in (None, ""):
            log.add(f"given twice, as {columns[dim_key]!r} and as {column!r}", line=line, field=dim_key)
            continue
        if dim_key not in columns or values[columns[dim_key]] in (None, ""):
            columns[dim_key] = column
    dims: dict[str, float] = {}
    for dim in rubric.dimensions:
        raw = values.get(columns.get(dim.key, dim.key))
        if raw in (None, ""):
            log.add(f"dimension missing (rubric {rubric.id})", line=line, field=dim.key)
            continue
        if typed and isinstance(raw, str):
            log.add(f"expected a number, got text {raw!r} (write the score without quotes)", line=line, field=dim.key)
            continue
        value = read_number(raw)
        step = rubric.step_of(dim.key)
        if value is None:
            log.add(f"{raw!r} is not a number", line=line, field=dim.key)
        elif not 0 <= value <= dim.max or abs(value / step - round(value / step)) > 1e-9:
            log.add(f"{value:g} is not in 0..{dim.max:g} in steps of {step:g}", line=line, field=dim.key)
        else:
            dims[dim.key] = value
    return dims if len(dims) == len(rubric.dimensions) else None

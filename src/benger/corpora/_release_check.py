"""The release checked against itself (issue 32, item 1): every internal reference of the Dataset_ARR files.

Each file is first validated whole against its model (:mod:`benger.corpora._release_models`); then
:class:`ReleaseCheck` checks what one file says about another, before anything is built or written:

- ``benchathon.json``: no case twice (same Sachverhalt); ``grundprinzipien.json``: no item twice (same
  ``fall`` and ``task``);
- the grading sample: ``n_picks`` / ``n_assignments`` equal the lists' lengths, pick ids unique, every
  assignment names a pick and its ``task_inner_id`` is a Benchathon case;
- ``benchathon_human_grading_assignments.csv``: one row per assignment of the sample, in the same order,
  with the same pick, task, reviewer, role and pass, unique ``assignment_id`` (a truncated or edited copy is
  refused);
- evaluations (final and superseded): ``system`` in ``systems.json``, ``task_id`` a Benchathon task, one
  final generation per (system, task);
- automatic metrics, judge repeats and generation stats: their generation (or system and task) exists, with
  the same system and task;
- human grades: ``solution_id`` is a pick's subject, ``task_id`` that pick's task, and the review has an
  assignment (pick, grader, role) in the sample; anchors name a pick's subject;
- the ZJS and Grundprinzipien summaries: ``system`` in ``systems.json``; ``n_tasks`` at most the number of
  released items (Grundprinzipien);
- every rubric score (evaluations, human grades): ``grade_points`` is the paper's table of ``raw_score`` (half
  points up) and ``passed`` is grade points >= 4;
- ``benchathon_judge_swap.json``: its systems are in ``systems.json`` with at most their released generations,
  every judge covers exactly those systems with the stated ``n``, the primary judge is one of them and its
  means and pass rates (raw >= 50) are those of the evaluation files (all of a system's generations, or all but
  one), and each rank agreement is over the stated number of systems.

A contradiction raises one :class:`benger.errors.InputError` naming the file, line, record and field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from benger.corpora._release_io import JsonFile, read_csv
from benger.errors import InputError
from benger.judge import PASS_GRADE_POINTS, grade_points

#: The judge-swap file's pass rule (its ``_meta``: pass = raw_score >= 50), not the grade-point rule.
SWAP_PASS_RAW = 50.0
#: A released mean or rate agrees with its recomputation from the evaluation files up to float rounding.
_SAME = 1e-9

ASSIGNMENTS_CSV = "data/interim/benchathon_human_grading_assignments.csv"


class AssignmentCsvRecord(BaseModel):
    """``interim/benchathon_human_grading_assignments.csv``: one review assignment (CSV cells are text)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    assignment_id: str = Field(min_length=1)
    pick_id: str = Field(min_length=1)
    task_inner_id: int = Field(ge=1)
    reviewer_name: str = Field(min_length=1)
    reviewer_role: str = Field(min_length=1)
    pass_: str | None = Field(default=None, alias="pass")


def _first_repeat(keys: Iterable[Any]) -> tuple[int, int] | None:
    seen: dict[Any, int] = {}
    for idx, key in enumerate(keys):
        if key in seen:
            return seen[key], idx
        seen[key] = idx
    return None


def check_unique_cases(file: JsonFile, cases: Sequence[Any]) -> None:
    """No Benchathon case twice: the same Sachverhalt in two records is a duplicated task."""
    hit = _first_repeat(" ".join(c.sachverhalt.split()) for c in cases)
    if hit is not None:
        raise file.error(f"duplicated Benchathon case: the same Sachverhalt as record {hit[0] + 1}",
                         (hit[1], "sachverhalt"), "sachverhalt")  # fmt: skip


def check_unique_items(file: JsonFile, items: Sequence[Any]) -> None:
    """No Grundprinzipien item twice (same ``fall`` and ``task``): it would be generated and judged twice."""
    hit = _first_repeat((" ".join(i.fall.split()), " ".join(i.task.split())) for i in items)
    if hit is not None:
        raise file.error(f"duplicated Grundprinzipien item: the same fall and task as record {hit[0] + 1}",
                         (hit[1], "task"), "task")  # fmt: skip


class ReleaseCheck:
    """The cross-file checks of one release (module docstring). Build it, then call :meth:`run`."""

    def __init__(self, root: Path, *, sample_file: JsonFile, sample: Any, n_cases: int, task_ids: set[str]) -> None:
        self.root = root
        self.sample_file = sample_file
        self.sample = sample
        self.n_cases = n_cases
        self.task_ids = task_ids

    # ---------------------------------------------------------------- the grading sample and its CSV
    def sample_counts(self) -> None:
        data = self.sample_file.data
        for key, items in (("n_picks", self.sample.picks), ("n_assignments", self.sample.assignments)):
            stated = data.get(key)
            if stated is not None and stated != len(items):
                raise self.sample_file.error(f"{key} is {stated!r} but the file lists {len(items)}", (key,), key)
        hit = _first_repeat(p.pick_id for p in self.sample.picks)
        if hit is not None:
            raise self.sample_file.error(f"duplicate pick_id (first in pick {hit[0] + 1})",
                                         ("picks", hit[1], "pick_id"), "picks.pick_id")  # fmt: skip
        picks = {p.pick_id for p in self.sample.picks}
        for idx, pick in enumerate(self.sample.picks):
            if pick.task_inner_id > self.n_cases:
                raise self.sample_file.error(
                    f"task_inner_id {pick.task_inner_id} but benchathon.json has {self.n_cases} cases",
                    ("picks", idx, "task_inner_id"), "picks.task_inner_id",
                )  # fmt: skip
        for idx, a in enumerate(self.sample.assignments):
            if a.pick_id not in picks:
                raise self.sample_file.error(f"assignment names pick {a.pick_id!r}, which the sample does not list",
                                             ("assignments", idx, "pick_id"), "assignments.pick_id")  # fmt: skip

    def assignments_csv(self) -> None:
        path = self.root / ASSIGNMENTS_CSV
        if not path.exists():
            return  # the CSV is a convenience copy; the JSON sample is the source
        rows = read_csv(path, AssignmentCsvRecord, unique=("assignment_id",))
        expected = self.sample.assignments
        inner = {p.pick_id: p.task_inner_id for p in self.sample.picks}
        if len(rows) != len(expected):
            raise InputError(
                f"{len(rows)} assignment rows, but the grading sample lists {len(expected)} (truncated or extended?)",
                file=path,
            )
        for idx, (row, a) in enumerate(zip(rows, expected, strict=True)):
            for name, got, want in (
                ("pick_id", row.pick_id, a.pick_id),
                ("task_inner_id", row.task_inner_id, inner.get(a.pick_id)),
                ("reviewer_name", row.reviewer_name, a.reviewer_name),
                ("reviewer_role", row.reviewer_role, a.reviewer_role),
                ("pass", row.pass_, a.pass_),
            ):
                if want is not None and got != want:
                    raise InputError(
                        f"{got!r} but assignment {idx + 1} of benchathon_human_grading_sample.json says {want!r}",
                        file=path, line=idx + 2, record=idx + 1, field=name,
                    )  # fmt: skip

    # ---------------------------------------------------------------- generations and what refers to them
    @staticmethod
    def system_names(systems: Sequence[Any]) -> set[str]:
        """Every name under which ``systems.json`` knows a system (``model_id`` and ``raw_model_ids``)."""
        names = {s.config.name for s in systems}
        for s in systems:
            names.update(s.raw.get("raw_model_ids") or ())
        return names

    def evaluations(self, file: JsonFile, records: Sequence[Any], systems: set[str], *, final: bool) -> None:
        """Each evaluation names a known system and task (one final generation per system and task) and its
        grade points and pass follow its raw score (:meth:`scores`)."""
        self.scores(file, records)
        cells: dict[tuple[str, str], int] = {}
        for idx, rec in enumerate(records):
            if rec.system not in systems:
                raise file.error(f"system {rec.system!r} is not in systems.json", (idx, "system"), "system")
            if rec.task_id not in self.task_ids:
                raise file.error(f"task_id {rec.task_id!r} is not a Benchathon task", (idx, "task_id"), "task_id")
            if final:
                cell = (rec.system, rec.task_id)
                if cell in cells:
                    raise file.error(
                        f"a second final generation of system {rec.system!r} for this task (first in record "
                        f"{cells[cell] + 1}); the release has one per system and task",
                        (idx, "generation_id"), "generation_id",
                    )  # fmt: skip
                cells[cell] = idx

    def references(self, file: JsonFile, records: Sequence[Any], generations: dict[str, Any]) -> None:
        """Records that carry ``generation_id`` (and maybe ``system``/``task_id``): the generation exists."""
        for idx, rec in enumerate(records):
            gen = generations.get(rec.generation_id)
            if gen is None:
                raise file.error(f"generation_id {rec.generation_id!r} is not in the evaluation files",
                                 (idx, "generation_id"), "generation_id")  # fmt: skip
            for name in ("system", "task_id"):
                got = getattr(rec, name, None)
                if got is not None and got != getattr(gen, name):
                    raise file.error(f"{name} {got!r} but generation {rec.generation_id!r} has {getattr(gen, name)!r}",
                                     (idx, name), name)  # fmt: skip

    def generation_stats(self, file: JsonFile, records: Sequence[Any], cells: set[tuple[str, str]]) -> None:
        for idx, rec in enumerate(records):
            if (rec.model, rec.task) not in cells:
                raise file.error(f"no evaluated generation of {rec.model!r} for task {rec.task!r}",
                                 (idx, "task"), "task")  # fmt: skip

    def summaries(self, file: JsonFile, systems: set[str], n_items: int | None = None) -> None:
        for idx, rec in enumerate(file.data):
            system = rec.get("system")
            if system not in systems:
                raise file.error(f"system {system!r} is not in systems.json", (idx, "system"), "system")
            n_tasks = rec.get("n_tasks")
            if n_items is not None and isinstance(n_tasks, int) and n_tasks > n_items:
                raise file.error(f"n_tasks {n_tasks} but grundprinzipien.json has {n_items} items",
                                 (idx, "n_tasks"), "n_tasks")  # fmt: skip

    @staticmethod
    def scores(file: JsonFile, records: Sequence[Any]) -> None:
        """Each record's grade points are the grade table of its raw score and its pass follows them."""
        for idx, rec in enumerate(records):
            points = grade_points(rec.raw_score)
            if rec.grade_points != points:
                raise file.error(f"grade_points {rec.grade_points} but raw_score {rec.raw_score:g} is {points} grade "
                                 "points (the paper's table, half points up)",
                                 (idx, "grade_points"), "grade_points")  # fmt: skip
            if rec.passed != (points >= PASS_GRADE_POINTS):
                raise file.error(f"passed {rec.passed} but {points} grade points "
                                 f"{'pass' if points >= PASS_GRADE_POINTS else 'fail'} (pass: >= {PASS_GRADE_POINTS})",
                                 (idx, "passed"), "passed")  # fmt: skip

    def judge_swap(self, file: JsonFile, swap: Any, systems: set[str], raws: dict[str, list[float]]) -> None:
        """``benchathon_judge_swap.json`` against ``systems.json`` and the evaluation files (``raws``: system ->
        the primary judge's raw score of each of its released generations, final and superseded)."""
        coverage: dict[str, int] = swap.coverage
        for system, n in coverage.items():
            if system not in systems:
                raise file.error(f"system {system!r} is not in systems.json", ("coverage", system), "coverage")
            if n > len(raws.get(system, ())):
                raise file.error(f"{n} cells of {system!r} but the evaluation files hold {len(raws.get(system, ()))} "
                                 "of its generations", ("coverage", system), "coverage")  # fmt: skip
        primary = swap.meta.primary_judge
        if primary not in swap.per_judge_per_system:
            raise file.error(f"primary judge {primary!r} has no per_judge_per_system entry",
                             ("_meta", "primary_judge"), "_meta.primary_judge")  # fmt: skip
        for judge, cells in swap.per_judge_per_system.items():
            if set(cells) != set(coverage):
                odd = sorted(set(cells) ^ set(coverage))
                raise file.error(f"judge {judge!r} covers other systems than coverage ({', '.join(odd)})",
                                 ("per_judge_per_system", judge), "per_judge_per_system")  # fmt: skip
            for system, cell in cells.items():
                if cell.n != coverage[system]:
                    raise file.error(f"n {cell.n} of judge {judge!r} on {system!r} but coverage says "
                                     f"{coverage[system]}", ("per_judge_per_system", judge, system, "n"),
                                     "per_judge_per_system.n")  # fmt: skip
        for system, cell in swap.per_judge_per_system[primary].items():
            scores = raws[system]
            if not _swap_subset_matches(scores, cell.n, cell.mean_raw, cell.pass_rate):
                left = "all its" if cell.n == len(scores) else f"any {cell.n} of its {len(scores)}"
                raise file.error(
                    f"primary judge {primary!r} on {system!r}: mean_raw {cell.mean_raw:g} / pass_rate "
                    f"{cell.pass_rate:g} are not those of {left} generations in the evaluation files",
                    ("per_judge_per_system", primary, system, "mean_raw"), "per_judge_per_system.mean_raw",
                )  # fmt: skip
        for judge, agreement in swap.system_rank_agreement.items():
            if agreement.n_systems != len(coverage):
                raise file.error(f"n_systems {agreement.n_systems} of judge {judge!r} but coverage lists "
                                 f"{len(coverage)} systems", ("system_rank_agreement", judge, "n_systems"),
                                 "system_rank_agreement.n_systems")  # fmt: skip

    # ---------------------------------------------------------------- human reviews
    def grades(self, file: JsonFile, grades: Sequence[Any], pick_task: dict[str, str]) -> None:
        by_subject = {p.subject_id: p for p in self.sample.picks}
        assigned = {(a.pick_id, a.reviewer_name, a.reviewer_role) for a in self.sample.assignments}
        for idx, rec in enumerate(grades):
            pick = by_subject.get(rec.solution_id)
            if pick is None:
                raise file.error(f"solution_id {rec.solution_id!r} is not a pick of the grading sample",
                                 (idx, "solution_id"), "solution_id")  # fmt: skip
            task = pick_task.get(pick.pick_id)
            if task and rec.task_id != task:
                raise file.error(f"task_id {rec.task_id!r} but pick {pick.pick_id} is task {task!r}",
                                 (idx, "task_id"), "task_id")  # fmt: skip
            grader = rec.grader_id.split("@", 1)[0]
            if (pick.pick_id, grader, rec.role) not in assigned:
                raise file.error(f"no {rec.role} assignment of {grader} to pick {pick.pick_id} in the grading sample",
                                 (idx, "grader_id"), "grader_id")  # fmt: skip

    def anchors(self, path: Path, anchors: Sequence[Any]) -> None:
        subjects = {p.subject_id for p in self.sample.picks}
        for idx, rec in enumerate(anchors):
            if rec.solution_id not in subjects:
                raise InputError(f"solution_id {rec.solution_id!r} is not a pick of the grading sample",
                                 file=path, record=idx + 1, field="solution_id")  # fmt: skip


def _swap_subset_matches(scores: Sequence[float], n: int, mean: float, pass_rate: float) -> bool:
    """Whether ``n`` of ``scores`` (all of them, or all but one: a cell some judge did not score) have this mean
    and pass rate (raw >= 50). Fewer cells than that are not checked (True): which ones is not released."""

    def same(kept: Sequence[float]) -> bool:
        return (abs(sum(kept) / len(kept) - mean) <= _SAME * 100
                and abs(sum(x >= SWAP_PASS_RAW for x in kept) / len(kept) - pass_rate) <= _SAME)  # fmt: skip

    if n == 0 or n < len(scores) - 1:
        return True
    if n == len(scores):
        return same(scores)
    return any(same([*scores[:i], *scores[i + 1 :]]) for i in range(len(scores)))

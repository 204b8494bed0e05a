"""Rubrics as data: dimensions with maximum points and band descriptions, versioned, loaded from YAML.

A rubric is validated when it is loaded (:func:`load_rubric`): the dimension maxima sum to the declared
``total`` (100 for a graded rubric, whose total maps to 0-18 grade points, paper Section 3.3), every maximum
and band edge lies on the ``step`` grid, and each dimension's bands cover ``0 .. max`` without gap or overlap.
A fault raises :class:`~benger.errors.InputError` naming the file and the field (e.g.
``dimensions[3].bands[1].low``).

:attr:`Rubric.id` is ``"<name>@<version>+<sha8>"``, the sha8 taken over the rubric's canonical content, so
editing a band, a maximum or a label without bumping ``version`` still yields new judgement keys.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benger._yaml import load_yaml
from benger.errors import InputError
from benger.judge._grades import GRADE_UPPER_BOUNDS, PASS_GRADE_POINTS, grade_points

#: The rubric id the released primary-judge judgements carry (they predate content hashes).
RELEASED_RUBRIC_ID = "falloesung@1"
#: A graded rubric's total: the grade-point table maps 0-100 raw points to 0-18 grade points.
GRADED_TOTAL = 100.0


class Band(BaseModel):
    """A scoring band of a dimension, e.g. 18-20 points: "core results agree with the reference"."""

    model_config = ConfigDict(extra="forbid")
    low: float
    high: float
    description: str


class Dimension(BaseModel):
    """One rubric dimension: a key, a German label, the maximum points and the band descriptions."""

    model_config = ConfigDict(extra="forbid")
    key: str
    label: str
    label_en: str
    max: float = Field(gt=0)
    #: the dimension's own score step (default: the rubric's ``step``)
    step: float | None = Field(default=None, gt=0)
    question: str | None = None
    bands: list[Band] = Field(default_factory=list)


class RubricProblem(ValueError):
    """A rubric that is well-formed YAML but inconsistent; ``field`` is the path of the faulty field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


TaskKind = Literal["falloesung", "grundprinzip"]
#: The fields added after the first rubrics were hashed: left out of the content hash while unset, so the ids of
#: rubrics that do not use them (the built-ins, stored judgements) stay what they were.
_LATER_FIELDS = ("kind", "instructions", "grades", "pass_grade", "pass_total")


class Rubric(BaseModel):
    """A versioned rubric (a *Bewertungsbogen*): dimensions, grade mapping, pass rule and the judge's text.

    * ``graded``: the total maps to grade points: by ``grades`` (the inclusive upper raw bound of grade
      0, 1, ...; its last entry is ``total``) or, without ``grades``, by the paper's 0-18 table (``total`` 100).
    * pass: ``pass_grade`` grade points (default 4, "ausreichend") for a graded rubric, else ``pass_total`` raw
      points; an ungraded Grundprinzip rubric defaults to half its total (the paper's raw >= 50 of 100, Section 4:
      Grundprinzipien is not mapped to grade points, its Pass column is raw >= 50); otherwise no pass rule
      (``passed`` is None).
    * ``kind``: the task kind it scores (``falloesung`` / ``grundprinzip``; default: Grundprinzip for the built-in
      ``grundprinzipien`` rubric, Falllösung otherwise); a Grundprinzip rubric asks the judge for the candidate's
      Ja/Nein answer. The judge prompt is the built-in template of that kind.
    * ``instructions``: the rubric's own text for the judge (e.g. the expected Anspruchsgrundlagen of a case),
      put after the dimensions in the judge prompt.

    Construct it through :func:`load_rubric` / :func:`rubric_from_data` (or call :meth:`check`) to have its
    consistency validated. Immutable: its id is computed once.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    version: str
    title: str
    graded: bool = Field(description="whether totals map to grade points")
    total: float = Field(gt=0, description="declared maximum total; the dimension maxima must sum to it")
    step: float = Field(default=0.5, gt=0)
    dimensions: list[Dimension] = Field(min_length=1)
    kind: TaskKind | None = None
    instructions: str | None = None
    grades: list[float] | None = Field(default=None, min_length=2)
    pass_grade: int | None = Field(default=None, ge=0)
    pass_total: float | None = Field(default=None, ge=0)

    def check(self) -> Rubric:
        """Raise :class:`RubricProblem` (with the faulty field's path) unless the rubric is consistent."""
        _check(self)
        return self

    @cached_property
    def content_hash(self) -> str:
        """sha256 (hex) of the canonical JSON of the rubric's content (sorted keys, no whitespace).

        The later optional fields count only when set (a dimension's ``step`` likewise); the paper's grade table
        written out (``grades`` + ``pass_grade`` 4) hashes as the default it is."""
        data = self.model_dump(mode="json")
        paper_table = self.grades is not None and list(self.grades) == list(GRADE_UPPER_BOUNDS)
        if paper_table and self.pass_grade in (None, PASS_GRADE_POINTS):
            data["grades"] = data["pass_grade"] = None
        if self.kind == _default_kind(self.name):
            data["kind"] = None
        if not self.graded and self.pass_total is not None and self.pass_total == self._default_pass_total:
            data["pass_total"] = None
        for name in _LATER_FIELDS:
            if data[name] is None:
                del data[name]
        for dim in data["dimensions"]:
            if dim["step"] is None:
                del dim["step"]
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def task_kind(self) -> TaskKind:
        """The task kind this rubric scores."""
        return self.kind if self.kind is not None else _default_kind(self.name)

    @property
    def asks_answer(self) -> bool:
        """Whether the judge reports the candidate's Ja/Nein answer (Grundprinzip rubrics)."""
        return self.task_kind == "grundprinzip"

    @property
    def grade_bounds(self) -> tuple[float, ...] | None:
        """Inclusive upper raw bound per grade (None: an ungraded rubric)."""
        if not self.graded:
            return None
        return tuple(self.grades) if self.grades is not None else tuple(float(b) for b in GRADE_UPPER_BOUNDS)

    def grade_points(self, total: float) -> int | None:
        """The grade of a raw total (half points round up), None for an ungraded rubric."""
        bounds = self.grade_bounds
        return None if bounds is None else grade_points(total, bounds)

    @property
    def _default_pass_total(self) -> float | None:
        """The raw pass mark of an ungraded rubric without ``pass_total``: half the total for a Grundprinzip
        rubric (the paper's raw >= 50 of 100), else none."""
        return self.total / 2 if self.task_kind == "grundprinzip" else None

    @property
    def effective_pass_total(self) -> float | None:
        """The raw pass mark of an ungraded rubric (``pass_total`` or its Grundprinzip default), None if none."""
        return self.pass_total if self.pass_total is not None else self._default_pass_total

    def passed(self, total: float) -> bool | None:
        """Whether a raw total passes: ``pass_grade`` (default 4) for a graded rubric, else ``pass_total``
        (default for a Grundprinzip rubric: half the total, the paper's raw >= 50 of 100)."""
        grade = self.grade_points(total)
        if grade is not None:
            return grade >= (PASS_GRADE_POINTS if self.pass_grade is None else self.pass_grade)
        mark = self.effective_pass_total
        return None if mark is None else total >= mark - 1e-9

    @property
    def pass_rule(self) -> str | None:
        """The pass rule in words (for reports), None when the rubric has none."""
        if self.graded:
            grade = PASS_GRADE_POINTS if self.pass_grade is None else self.pass_grade
            return f"grade >= {grade}"
        mark = self.effective_pass_total
        return None if mark is None else f"raw >= {mark:g} of {self.total:g}"

    def step_of(self, key: str) -> float:
        """The score step of dimension ``key``."""
        step = next(d.step for d in self.dimensions if d.key == key)
        return self.step if step is None else step

    @property
    def base_id(self) -> str:
        """``name@version`` without the content hash (the form released judgements carry)."""
        return f"{self.name}@{self.version}"

    @property
    def id(self) -> str:
        """``name@version+sha8``: stored with every judgement (``Judgement.rubric_id``), part of its key."""
        return f"{self.base_id}+{self.content_hash[:8]}"

    @property
    def keys(self) -> list[str]:
        return [d.key for d in self.dimensions]

    @property
    def max_total(self) -> float:
        return sum(d.max for d in self.dimensions)

    def maxima(self) -> dict[str, float]:
        return {d.key: d.max for d in self.dimensions}


def _default_kind(name: str) -> TaskKind:
    return "grundprinzip" if name == "grundprinzipien" else "falloesung"


def _on_grid(value: float, step: float) -> bool:
    ratio = value / step
    return abs(ratio - round(ratio)) < 1e-9


def _check(rubric: Rubric) -> None:
    seen: set[str] = set()
    for i, dim in enumerate(rubric.dimensions):
        step = rubric.step if dim.step is None else dim.step
        if dim.key in seen:
            raise RubricProblem(f"dimensions[{i}].key", f"duplicate dimension key {dim.key!r}")
        seen.add(dim.key)
        if not _on_grid(dim.max, step):
            raise RubricProblem(f"dimensions[{i}].max", f"maximum {dim.max:g} is not a multiple of step {step:g}")
        _check_bands(dim, i, step)
    if abs(rubric.max_total - rubric.total) > 1e-9:
        raise RubricProblem(
            "total", f"the dimension maxima sum to {rubric.max_total:g}, but the declared total is {rubric.total:g}"
        )
    _check_grading(rubric)


def _check_grading(rubric: Rubric) -> None:
    if rubric.grades is not None:
        if not rubric.graded:
            raise RubricProblem("grades", "a grade table needs 'graded: true'")
        bounds = rubric.grades
        if any(b <= a for a, b in itertools.pairwise(bounds)) or bounds[0] < 0:
            raise RubricProblem("grades", "the grade bounds must rise strictly from >= 0")
        if abs(bounds[-1] - rubric.total) > 1e-9:
            raise RubricProblem("grades", f"the last grade bound is {bounds[-1]:g}, not the total {rubric.total:g}")
        if rubric.pass_grade is not None and rubric.pass_grade >= len(bounds):
            top = len(bounds) - 1
            raise RubricProblem("pass_grade", f"pass_grade {rubric.pass_grade} is above the top grade {top}")
    elif rubric.graded and abs(rubric.total - GRADED_TOTAL) > 1e-9:
        raise RubricProblem(
            "total",
            f"a graded rubric without 'grades' must total {GRADED_TOTAL:g} points (the paper's grade-point table), "
            f"not {rubric.total:g}",
        )
    if rubric.pass_total is not None:
        if rubric.graded:
            raise RubricProblem("pass_total", "a graded rubric passes by 'pass_grade', not 'pass_total'")
        if rubric.pass_total > rubric.total + 1e-9:
            raise RubricProblem("pass_total", f"{rubric.pass_total:g} is above the total {rubric.total:g}")
    if rubric.pass_grade is not None and not rubric.graded:
        raise RubricProblem("pass_grade", "'pass_grade' needs a graded rubric; use 'pass_total' for raw points")


def _check_bands(dim: Dimension, i: int, step: float) -> None:
    """Bands (in any order) must tile ``0 .. max`` on the step grid: no gap, no overlap."""
    if not dim.bands:
        return
    order = sorted(range(len(dim.bands)), key=lambda b: (dim.bands[b].low, dim.bands[b].high))
    expected_low = 0.0
    for b in order:
        band, where = dim.bands[b], f"dimensions[{i}].bands[{b}]"
        for edge in ("low", "high"):
            value = getattr(band, edge)
            if not _on_grid(value, step):
                raise RubricProblem(f"{where}.{edge}", f"{value:g} is not a multiple of step {step:g}")
        if band.low > band.high:
            raise RubricProblem(f"{where}.low", f"low {band.low:g} is above high {band.high:g}")
        if band.high > dim.max + 1e-9:
            raise RubricProblem(f"{where}.high", f"{band.high:g} is above the dimension maximum {dim.max:g}")
        if band.low < expected_low - 1e-9:
            raise RubricProblem(f"{where}.low", f"band {band.low:g}-{band.high:g} overlaps the band below it")
        if band.low > expected_low + 1e-9:
            raise RubricProblem(f"{where}.low", f"gap: no band covers {expected_low:g} to {band.low - step:g}")
        expected_low = band.high + step
    if abs(expected_low - step - dim.max) > 1e-9:
        raise RubricProblem(
            f"dimensions[{i}].bands", f"the bands end at {expected_low - step:g}, below the maximum {dim.max:g}"
        )


BUILTIN_RUBRICS = ("falloesung", "grundprinzipien")


def _validated(data: Any, source: str | Path) -> Rubric:
    try:
        rubric = Rubric.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[")
        raise InputError(f"invalid rubric: {err['msg']}", file=source, field=field or None) from exc
    try:
        return rubric.check()
    except RubricProblem as exc:
        raise InputError(f"invalid rubric: {exc}", file=source, field=exc.field) from exc


def rubric_from_data(data: Any, source: str | Path = "rubric") -> Rubric:
    """A rubric from already parsed data (a mapping: a corpus record's Bewertungsbogen, a unit's payload).

    Raises InputError naming ``source`` and the field, as :func:`load_rubric` does."""
    if isinstance(data, Rubric):
        return data.check()
    if not isinstance(data, dict):
        raise InputError(f"a rubric must be a mapping, got {type(data).__name__}", file=source)
    return _validated(data, source)


def load_rubric(name_or_path: str | Path) -> Rubric:
    """Load a built-in rubric by name ("falloesung", "grundprinzipien") or a YAML file by path.

    Raises InputError (file and field named) for a missing file, bad YAML or an inconsistent rubric.
    """
    if str(name_or_path) in BUILTIN_RUBRICS:
        return _builtin(str(name_or_path))
    path = Path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError("rubric file not found", file=path) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=path) from None
    except OSError as exc:
        raise InputError(f"cannot read the rubric: {exc.strerror or exc}", file=path) from None
    return _validated(load_yaml(text, path), path)


@cache
def _builtin(name: str) -> Rubric:
    source = resources.files("benger.judge").joinpath("rubrics", f"{name}.yaml")
    where = f"benger/judge/rubrics/{name}.yaml"
    return _validated(load_yaml(source.read_text(encoding="utf-8"), where), where)


def falloesung_rubric() -> Rubric:
    """The 10-dimension Falllösung rubric (20/10/10/15/15/10/10/5/3/2 = 100 points)."""
    return _builtin("falloesung")


def grundprinzipien_rubric() -> Rubric:
    """The 4-dimension Grundprinzipien rubric (40/25/25/10 = 100 points)."""
    return _builtin("grundprinzipien")

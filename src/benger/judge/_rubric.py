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
import json
import unicodedata
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from benger._yaml import load_yaml
from benger.errors import InputError
from benger.judge._grades import GRADE_UPPER_BOUNDS, PASS_GRADE_POINTS, grade_points
from benger.judge._released import RELEASED_RUBRIC_ID as RELEASED_RUBRIC_ID  # its home before issue 26
from benger.judge._rubric_check import RubricProblem, check_rubric, dimension_key, number

#: A number of a rubric: a finite int or float, never a bool or text (``max: true`` is not 1 point).
Number = Annotated[float, BeforeValidator(number)]
#: A text of a rubric, in NFC as a YAML file is read (benger._yaml): "Å" typed as U+212B, as A + U+030A or as U+00C5
#: is one rubric with one id, whether it comes from a file, a run config's inline copy, the store or a mapping.
Text = Annotated[str, AfterValidator(lambda text: unicodedata.normalize("NFC", text))]


class Band(BaseModel):
    """A scoring band of a dimension, e.g. 18-20 points: "core results agree with the reference"."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    low: Number
    high: Number
    description: Text


class Dimension(BaseModel):
    """One rubric dimension: a key, a German label, the maximum points and the band descriptions."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    key: Annotated[str, AfterValidator(dimension_key)]
    label: Text
    label_en: Text
    max: Number = Field(gt=0)
    #: the dimension's own score step (default: the rubric's ``step``)
    step: Number | None = Field(default=None, gt=0)
    question: Text | None = None
    bands: list[Band] = Field(default_factory=list)


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

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    name: Text
    version: Text
    title: Text
    graded: bool = Field(description="whether totals map to grade points", strict=True)
    total: Number = Field(gt=0, description="declared maximum total; the dimension maxima must sum to it")
    step: Number = Field(default=0.5, gt=0)
    dimensions: list[Dimension] = Field(min_length=1)
    kind: TaskKind | None = None
    instructions: Text | None = None
    grades: list[Number] | None = Field(default=None, min_length=2)
    pass_grade: int | None = Field(default=None, ge=0, strict=True)
    pass_total: Number | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _consistent(self) -> Rubric:
        check_rubric(self)
        return self

    def check(self) -> Rubric:
        """Raise :class:`RubricProblem` (with the faulty field's path) unless the rubric is consistent (the model's
        validator runs the same rules on construction; this re-runs them on a copy made without validation)."""
        check_rubric(self)
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


BUILTIN_RUBRICS = ("falloesung", "grundprinzipien")


def _validated(data: Any, source: str | Path) -> Rubric:
    """The rubric of ``data``; the model's validators refuse a bad one, here an InputError naming source and field."""
    try:
        return Rubric.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        problem = (err.get("ctx") or {}).get("error")
        if isinstance(problem, RubricProblem):
            raise InputError(f"invalid rubric: {problem}", file=source, field=problem.field) from None
        field = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[")
        message = err["msg"].removeprefix("Value error, ")
        raise InputError(f"invalid rubric: {message}", file=source, field=field or None) from None
    except RecursionError:
        raise InputError("invalid rubric: nested too deeply", file=source) from None


def rubric_from_data(data: Any, source: str | Path = "rubric") -> Rubric:
    """A rubric from already parsed data (a mapping: a corpus record's Bewertungsbogen, a unit's payload).

    Raises InputError naming ``source`` and the field, as :func:`load_rubric` does."""
    if isinstance(data, Rubric):
        try:
            return data.check()
        except RubricProblem as exc:
            raise InputError(f"invalid rubric: {exc}", file=source, field=exc.field) from None
    if not isinstance(data, dict):
        got = "nothing (empty)" if data is None else f"a {type(data).__name__}"
        raise InputError(f"a rubric must be a mapping of its fields (name, version, dimensions, ...), got {got}",
                         file=source)  # fmt: skip
    return _validated(data, source)


def rubric_data(rubric: Rubric) -> dict[str, Any]:
    """The canonical mapping of ``rubric`` (JSON types, unset fields left out): what the store keeps and a run
    config carries inline; :func:`rubric_from_data` reads it back to a rubric with the same id and content hash."""
    data: dict[str, Any] = rubric.model_dump(mode="json", exclude_none=True)
    return data


def load_rubric_file(path: str | Path) -> Rubric:
    """The rubric of a YAML (or JSON) file; InputError naming the file and the field for a bad one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError("rubric file not found", file=path) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=path) from None
    except OSError as exc:
        raise InputError(f"cannot read the rubric: {exc.strerror or exc}", file=path) from None
    return rubric_from_data(load_yaml(text, path), path)


@cache
def builtin_rubric(name: str) -> Rubric:
    """One of the paper's rubrics (``BUILTIN_RUBRICS``), from the package's YAML file."""
    source = resources.files("benger.judge").joinpath("rubrics", f"{name}.yaml")
    where = f"benger/judge/rubrics/{name}.yaml"
    return _validated(load_yaml(source.read_text(encoding="utf-8"), where), where)


def falloesung_rubric() -> Rubric:
    """The 10-dimension Falllösung rubric (20/10/10/15/15/10/10/5/3/2 = 100 points)."""
    return builtin_rubric("falloesung")


def grundprinzipien_rubric() -> Rubric:
    """The 4-dimension Grundprinzipien rubric (40/25/25/10 = 100 points)."""
    return builtin_rubric("grundprinzipien")

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
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from benger._yaml import load_yaml
from benger.errors import InputError

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
    question: str | None = None
    bands: list[Band] = Field(default_factory=list)


class RubricProblem(ValueError):
    """A rubric that is well-formed YAML but inconsistent; ``field`` is the path of the faulty field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class Rubric(BaseModel):
    """A versioned rubric; ``graded`` rubrics map their total to grade points (Falllösung).

    Construct it through :func:`load_rubric` (or call :meth:`check`) to have its consistency validated.
    """

    model_config = ConfigDict(extra="forbid")
    name: str
    version: str
    title: str
    graded: bool = Field(description="whether totals map to 0-18 grade points")
    total: float = Field(gt=0, description="declared maximum total; the dimension maxima must sum to it")
    step: float = Field(default=0.5, gt=0)
    dimensions: list[Dimension] = Field(min_length=1)

    def check(self) -> Rubric:
        """Raise :class:`RubricProblem` (with the faulty field's path) unless the rubric is consistent."""
        _check(self)
        return self

    @property
    def content_hash(self) -> str:
        """sha256 (hex) of the canonical JSON of every field (sorted keys, no whitespace)."""
        text = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

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


def _on_grid(value: float, step: float) -> bool:
    ratio = value / step
    return abs(ratio - round(ratio)) < 1e-9


def _check(rubric: Rubric) -> None:
    step = rubric.step
    seen: set[str] = set()
    for i, dim in enumerate(rubric.dimensions):
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
    if rubric.graded and abs(rubric.total - GRADED_TOTAL) > 1e-9:
        raise RubricProblem(
            "total", f"a graded rubric must total {GRADED_TOTAL:g} points (the grade-point table), not {rubric.total:g}"
        )


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

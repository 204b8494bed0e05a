"""Rubrics as data: dimensions with maximum points and band descriptions, versioned, loaded from YAML."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from benger.errors import InputError


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


class Rubric(BaseModel):
    """A versioned rubric; ``graded`` rubrics map their total to grade points (Falllösung)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    version: str
    title: str
    graded: bool = Field(description="whether totals map to 0-18 grade points")
    step: float = 0.5
    dimensions: list[Dimension]

    @model_validator(mode="after")
    def _unique_keys(self) -> Rubric:
        keys = [d.key for d in self.dimensions]
        if len(set(keys)) != len(keys):
            raise ValueError(f"duplicate dimension keys in rubric {self.name}")
        return self

    @property
    def id(self) -> str:
        """``name@version``: stored with every judgement."""
        return f"{self.name}@{self.version}"

    @property
    def keys(self) -> list[str]:
        return [d.key for d in self.dimensions]

    @property
    def max_total(self) -> float:
        return sum(d.max for d in self.dimensions)

    def maxima(self) -> dict[str, float]:
        return {d.key: d.max for d in self.dimensions}


BUILTIN_RUBRICS = ("falloesung", "grundprinzipien")


def load_rubric(name_or_path: str | Path) -> Rubric:
    """Load a built-in rubric by name ("falloesung", "grundprinzipien") or a YAML file by path."""
    if str(name_or_path) in BUILTIN_RUBRICS:
        return _builtin(str(name_or_path))
    path = Path(name_or_path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError("rubric file not found", file=path) from exc
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=path) from exc
    try:
        return Rubric.model_validate(data)
    except ValueError as exc:
        raise InputError(f"invalid rubric: {exc}", file=path) from exc


@cache
def _builtin(name: str) -> Rubric:
    text = resources.files("benger.judge").joinpath("rubrics", f"{name}.yaml").read_text(encoding="utf-8")
    return Rubric.model_validate(yaml.safe_load(text))


def falloesung_rubric() -> Rubric:
    """The 10-dimension Falllösung rubric (20/10/10/15/15/10/10/5/3/2 = 100 points)."""
    return _builtin("falloesung")


def grundprinzipien_rubric() -> Rubric:
    """The 4-dimension Grundprinzipien rubric (40/25/25/10 = 100 points)."""
    return _builtin("grundprinzipien")

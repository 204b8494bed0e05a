"""Rubric judging: rubrics as data, grade-point table, prompt templates, validated judge output.

Each name loads its module on first use (PEP 562 ``__getattr__``), so that importing one submodule does
not import the whole stage (issue 26: ``benger leaderboard`` imported every stage through package imports).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.judge._grades import GRADE_UPPER_BOUNDS, PASS_GRADE_POINTS, grade_points, grade_points_linear, passed
    from benger.judge._parse import (
        MalformedOutput,
        ParsedJudgement,
        Unscored,
        extract_json_object,
        parse_judgement,
        validate_judgement,
    )
    from benger.judge._prompts import JudgeTemplate, judge_schema, judge_template
    from benger.judge._rubric import (
        Band,
        Dimension,
        Rubric,
        falloesung_rubric,
        grundprinzipien_rubric,
        rubric_data,
        rubric_from_data,
    )
    from benger.judge._rubric_registry import RUBRICS, load_rubric, register_rubric, registered_rubrics
    from benger.judge._stored import save_rubrics, stored_rubric

_HOMES: dict[str, tuple[str, ...]] = {
    "benger.judge._grades": (
        "GRADE_UPPER_BOUNDS",
        "PASS_GRADE_POINTS",
        "grade_points",
        "grade_points_linear",
        "passed",
    ),
    "benger.judge._parse": (
        "MalformedOutput",
        "ParsedJudgement",
        "Unscored",
        "extract_json_object",
        "parse_judgement",
        "validate_judgement",
    ),
    "benger.judge._prompts": (
        "JudgeTemplate",
        "judge_schema",
        "judge_template",
    ),
    "benger.judge._rubric": (
        "Band",
        "Dimension",
        "Rubric",
        "falloesung_rubric",
        "grundprinzipien_rubric",
        "rubric_data",
        "rubric_from_data",
    ),
    "benger.judge._stored": (
        "save_rubrics",
        "stored_rubric",
    ),
    "benger.judge._rubric_registry": (
        "RUBRICS",
        "load_rubric",
        "register_rubric",
        "registered_rubrics",
    ),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benger.judge' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "GRADE_UPPER_BOUNDS",
    "PASS_GRADE_POINTS",
    "RUBRICS",
    "Band",
    "Dimension",
    "JudgeTemplate",
    "MalformedOutput",
    "ParsedJudgement",
    "Rubric",
    "Unscored",
    "extract_json_object",
    "falloesung_rubric",
    "grade_points",
    "grade_points_linear",
    "grundprinzipien_rubric",
    "judge_schema",
    "judge_template",
    "load_rubric",
    "parse_judgement",
    "passed",
    "register_rubric",
    "registered_rubrics",
    "rubric_data",
    "rubric_from_data",
    "save_rubrics",
    "stored_rubric",
    "validate_judgement",
]

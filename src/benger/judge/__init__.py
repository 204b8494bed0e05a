"""Rubric judging: rubrics as data, grade-point table, prompt templates, validated judge output."""

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
    rubric_from_data,
)
from benger.judge._rubric_registry import RUBRICS, load_rubric, register_rubric, registered_rubrics

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
    "rubric_from_data",
    "validate_judgement",
]

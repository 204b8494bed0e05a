"""Rubric values that are well-formed YAML but no rubric (issue 31): a number that is infinite or a bool, a
dimension key that is empty or repeats another in other case. The model's validators refuse each with the file and
the field; a fuzzed rubric is either refused that way or has finite, positive maxima that add up to its total."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benger.errors import InputError
from benger.judge import Rubric, load_rubric, rubric_from_data

BASE = """\
name: kurz
version: "1"
title: Kurz
graded: false
total: 10
step: 0.5
dimensions:
  - {key: ergebnis, label: Ergebnis, label_en: Result, max: 6}
  - {key: begruendung, label: Begründung, label_en: Reasoning, max: 4}
"""

# (what, the YAML text, the field the error names, words of its message)
CASES = [
    ("step .inf", BASE.replace("step: 0.5", "step: .inf"), "step", "finite"),
    ("step .nan", BASE.replace("step: 0.5", "step: .nan"), "step", "finite"),
    ("total .inf", BASE.replace("total: 10", "total: .inf"), "total", "finite"),
    ("dimension step .inf", BASE.replace("max: 6}", "max: 6, step: .inf}"), "dimensions[0].step", "finite"),
    ("max true", BASE.replace("max: 4}", "max: true}"), "dimensions[1].max", "got bool True"),
    ("max as text", BASE.replace("max: 4}", "max: '4'}"), "dimensions[1].max", "got str '4'"),
    ("total false", BASE.replace("total: 10", "total: false"), "total", "got bool False"),
    ("graded as text", BASE.replace("graded: false", "graded: 'no'"), "graded", "boolean"),
    ("empty key", BASE.replace("key: begruendung", 'key: ""'), "dimensions[1].key", "non-empty"),
    ("blank key", BASE.replace("key: begruendung", 'key: "  "'), "dimensions[1].key", "non-empty"),
    ("key with a blank", BASE.replace("key: begruendung", 'key: "begruendung "'), "dimensions[1].key", "blanks"),
    ("keys differ in case", BASE.replace("key: begruendung", "key: ERGEBNIS"), "dimensions[1].key", "only in case"),
    ("pass_total .inf", BASE + "pass_total: .inf\n", "pass_total", "finite"),
    ("grades with .inf", BASE.replace("graded: false", "graded: true") + "grades: [5, .inf]\n", "grades[1]", "finite"),
]


@pytest.mark.parametrize(("what", "text", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_value_is_refused_naming_file_and_field(
    tmp_path: Path, what: str, text: str, field: str, words: str
) -> None:
    path = tmp_path / "kurz.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_rubric(path)
    assert (info.value.file, info.value.field) == (str(path), field), what
    assert words in str(info.value) and str(path) in str(info.value)
    assert "Value error" not in str(info.value)


def test_the_base_rubric_loads_and_a_whole_number_is_a_number(tmp_path: Path) -> None:
    path = tmp_path / "kurz.yaml"
    path.write_text(BASE, encoding="utf-8")
    rubric = load_rubric(path)
    assert rubric.maxima() == {"ergebnis": 6.0, "begruendung": 4.0} and rubric.max_total == 10.0


def test_the_same_rules_hold_for_a_rubric_given_as_data() -> None:
    data = yaml.safe_load(BASE.replace("max: 4}", "max: true}"))
    with pytest.raises(InputError, match=r"task 't1'.*field 'dimensions\[1\]\.max'"):
        rubric_from_data(data, "task 't1'")
    with pytest.raises(Exception, match="finite"):
        Rubric.model_validate(yaml.safe_load(BASE.replace("step: 0.5", "step: .inf")))


# ---------------------------------------------------------------- fuzzing

_numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    st.sampled_from([math.inf, -math.inf, math.nan, 0, 0.25, 1, 2.5]),
    st.integers(min_value=-5, max_value=200),
    st.booleans(),
    st.sampled_from(["5", "", None, [1], {"a": 1}]),
)
_keys = st.one_of(st.sampled_from(["a", "A", "b", "", " ", "a ", "ergebnis", "Ergebnis"]), st.text(max_size=4))


@st.composite
def _rubric_data(draw: st.DrawFn) -> dict[str, Any]:
    dims = []
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        dim: dict[str, Any] = {"key": draw(_keys), "label": "L", "label_en": "L", "max": draw(_numbers)}
        if draw(st.booleans()):
            dim["step"] = draw(_numbers)
        dims.append(dim)
    data: dict[str, Any] = {
        "name": "fuzz",
        "version": "1",
        "title": "Fuzz",
        "graded": draw(st.sampled_from([False, False, True, "no"])),
        "total": draw(st.one_of(_numbers, st.just(sum(d["max"] for d in dims if type(d["max"]) in (int, float))))),
        "step": draw(st.one_of(st.just(0.5), st.just(1), _numbers)),
        "dimensions": dims,
    }
    if draw(st.booleans()):
        data["pass_total"] = draw(_numbers)
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=_rubric_data())
def test_fuzzed_rubric_is_refused_clearly_or_has_finite_positive_maxima(tmp_path: Path, data: dict[str, Any]) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        rubric = load_rubric(path)
    except InputError as exc:
        assert exc.file == str(path) and exc.field, str(exc)  # names the file and the field
        assert str(path) in str(exc) and "Traceback" not in str(exc)
        return
    given_ = [data["step"], data["total"], *(v for d in data["dimensions"] for v in (d["max"], d.get("step")))]
    assert not any(isinstance(v, bool | str) for v in given_), "a bool or text read as a number"
    steps = [rubric.step, *(rubric.step_of(k) for k in rubric.keys)]
    assert all(math.isfinite(s) and s > 0 for s in steps)
    maxima = list(rubric.maxima().values())
    assert all(isinstance(m, float) and math.isfinite(m) and m > 0 for m in maxima)
    assert math.isfinite(rubric.max_total) and rubric.max_total > 0
    assert abs(rubric.max_total - rubric.total) < 1e-9
    folded = [k.casefold() for k in rubric.keys]
    assert len(set(folded)) == len(folded) and all(k and k == k.strip() for k in rubric.keys)

"""The official release loader: documented counts, derived ids, and clear errors on corrupt files."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benger.corpora import Release, load_release
from benger.errors import InputError

GRADES = "data/processed/benchathon_human_grades.json"


@pytest.fixture(scope="module")
def release(release_dir: Path) -> Release:
    return load_release(release_dir)


def _copy_with(release_dir: Path, tmp_path: Path, rel: str, text: str) -> Path:
    """A release copy in tmp_path: symlinks to every file except ``rel``, which gets ``text``."""
    for src in release_dir.rglob("*"):
        if src.is_file():
            dst = tmp_path / src.relative_to(release_dir)
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.relative_to(release_dir).as_posix() == rel:
                dst.write_text(text, encoding="utf-8")
            else:
                os.symlink(src, dst)
    return tmp_path


def test_documented_counts(release: Release) -> None:
    assert len(release.benchathon.tasks) == 15
    assert len(release.grundprinzipien.tasks) == 531
    assert len(release.picks) == 45
    assert len(release.assignments) == 180
    assert len(release.reviews) == 180
    assert len(release.generations) == 180 + 28
    assert len(release.superseded_ids) == 28
    assert len(release.judgements) == 208
    assert len(release.judge_repeats) == 208
    assert len(release.anchors) == 358
    assert len(release.systems) == 12


def test_task_ids_and_normalisation(release: Release) -> None:
    tasks = release.benchathon.tasks
    assert [t.meta["inner_id"] for t in tasks] == list(range(1, 16))
    assert len({t.task_id for t in tasks}) == 15 and all(len(t.task_id) == 36 for t in tasks)
    # every review's task id is one of the derived Benchathon task ids
    assert {r.task_id for r in release.reviews} <= {t.task_id for t in tasks}
    items = release.grundprinzipien.tasks
    assert items[0].task_id == "gp-0001" and items[-1].task_id == "gp-0531"
    assert {i.gold_answer for i in items} == {"Ja", "Nein"}  # "Ja." / "Nein." normalised


def test_reviews_keep_file_order_and_scores(release: Release) -> None:
    assert [r.position for r in release.reviews] == list(range(180))
    assert sum(r.role == "blind" for r in release.reviews) == 135
    for r in release.reviews:
        assert r.raw_score == pytest.approx(sum(r.dimensions.values()))


def test_generations_carry_pick_texts_and_judgements(release: Release) -> None:
    with_text = [g for g in release.generations if g.text]
    assert len(with_text) == 15  # the 15 LLM picks, P33 among the superseded generations
    assert any(g.generation_id in release.superseded_ids for g in with_text)
    j = release.judgements[0]
    assert j.status == "scored" and j.dimensions is not None and len(j.dimensions) == 10
    assert j.total == pytest.approx(sum(j.dimensions.values()))


def test_missing_file_is_named(release_dir: Path, tmp_path: Path) -> None:
    root = _copy_with(release_dir, tmp_path, GRADES, "[]")
    (root / GRADES).unlink()
    with pytest.raises(InputError, match=r"benchathon_human_grades\.json"):
        load_release(root)


def test_truncated_file_names_file(release_dir: Path, tmp_path: Path) -> None:
    text = (release_dir / GRADES).read_text(encoding="utf-8")
    root = _copy_with(release_dir, tmp_path, GRADES, text[: len(text) // 2])
    with pytest.raises(InputError, match=r"benchathon_human_grades\.json") as err:
        load_release(root)
    assert "not valid JSON" in str(err.value)


def _mutated(release_dir: Path, tmp_path: Path, rel: str, mutate: Callable[[Any], None]) -> Path:
    """A release copy whose file ``rel`` is re-written in the release's own layout after ``mutate``."""
    data = json.loads((release_dir / rel).read_text(encoding="utf-8"))
    mutate(data)
    return _copy_with(release_dir, tmp_path, rel, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _error(root: Path) -> InputError:
    with pytest.raises(InputError) as err:
        load_release(root)
    return err.value


def test_review_without_dimensions_names_field(release_dir: Path, tmp_path: Path) -> None:
    err = _error(_mutated(release_dir, tmp_path, GRADES, lambda rows: rows[7].pop("dimensions")))
    # record 8 starts on line 184 of the file (grep -n '^  {' of the release's file)
    assert (err.line, err.record, err.field) == (184, 8, "dimensions")
    assert err.file is not None and err.file.endswith("benchathon_human_grades.json")
    assert f"{err.file}:184, record 8, field 'dimensions': Field required" == str(err)


def test_raw_score_must_equal_dimension_sum(release_dir: Path, tmp_path: Path) -> None:
    rel = "data/processed/benchathon_model_evaluations.json"
    lines = (release_dir / rel).read_text(encoding="utf-8").split("\n")
    assert lines[68] == '    "raw_score": 77.0,'  # record 4
    lines[68] = '    "raw_score": 78.0,'
    err = _error(_copy_with(release_dir, tmp_path, rel, "\n".join(lines)))
    assert (err.line, err.record, err.field) == (69, 4, "raw_score")
    assert "raw_score 78.0 != sum of dimensions 77.0" in str(err)


EVALS = "data/processed/benchathon_model_evaluations.json"
SYSTEMS = "data/processed/systems.json"


def _set(index: int, key: str, value: Any) -> Callable[[Any], None]:
    return lambda rows: rows[index].__setitem__(key, value)


def _append_copy(rows: list[Any]) -> None:
    rows.append(dict(rows[0]))


# (file, mutation, line, record, field, message): the observed examples; lines from grep -n
OBSERVED = [
    (EVALS, _set(0, "output_tokens", "viele"), 21, 1, "output_tokens", "Input should be a valid integer, got 'viele'"),
    (SYSTEMS, _set(0, "temperature", "warm"), 15, 1, "temperature", "Input should be a valid number, got 'warm'"),
    (SYSTEMS, _set(1, "max_output_tokens", "viel"), 39, 2, "max_output_tokens", "valid integer, got 'viel'"),
    (SYSTEMS, _set(1, "raw_model_ids", "abc"), 27, 2, "raw_model_ids", "Input should be a valid list, got 'abc'"),
    (GRADES, _set(1, "raw_score", float("nan")), 37, None, None, "NaN is not a JSON number"),
    (GRADES, _set(1, "raw_score", float("inf")), 37, None, None, "Infinity is not a JSON number"),
    (EVALS, _set(0, "raw_score", "83"), 6, 1, "raw_score", "Input should be a valid number, got '83'"),
    (GRADES, _set(7, "dimensions", {}), 196, 8, "dimensions", "unexpected dimension set"),
    (GRADES, _set(0, "role", "teacher"), 9, 1, "role", "Input should be 'blind' or 'creator', got 'teacher'"),
    ("data/interim/grundprinzipien.json", _set(2, "Grundprinzip", 42), 28, 3, "Grundprinzip", "valid string, got 42"),
    ("data/interim/grundprinzipien.json", _set(0, "binary_solution", "Vielleicht"), 4, 1, "binary_solution", "'Ja' or"),
    (
        "data/processed/benchathon_human_judge_repeats.json",
        _set(1, "raw_scores", [80.0, "hoch"]),
        16,
        2,
        "raw_scores[1]",
        "Input should be a valid number, got 'hoch'",
    ),
    # a second record with record 1's id: named at the copy (line = record 1's line + 180 records * 21 lines)
    (EVALS, _append_copy, 3785, 181, "generation_id", "duplicate generation_id '9d542d6f-346e-48d9-9c24-c8aff4a700d1'"),
    (EVALS, _append_copy, 3785, 181, "generation_id", "(first in record 1)"),
    (SYSTEMS, _append_copy, 279, 13, "model_id", "duplicate model_id 'claude-opus-4-7' (first in record 1)"),
    (
        "data/processed/benchathon_human_judge_repeats.json",
        _append_copy,
        2083,  # 3 + 208 records * 10 lines
        209,
        "generation_id",
        "duplicate generation_id",
    ),
]


@pytest.mark.parametrize(("rel", "mutate", "line", "record", "field", "message"), OBSERVED)
def test_observed_bad_values_name_file_line_record_field(
    release_dir: Path,
    tmp_path: Path,
    rel: str,
    mutate: Callable[[Any], None],
    line: int,
    record: int | None,
    field: str | None,
    message: str,
) -> None:
    err = _error(_mutated(release_dir, tmp_path, rel, mutate))
    assert err.file == str(tmp_path / rel)
    assert (err.line, err.record, err.field) == (line, record, field)
    assert message in str(err)


def test_deep_nesting_in_a_release_file(release_dir: Path, tmp_path: Path) -> None:
    text = (
        (release_dir / SYSTEMS)
        .read_text(encoding="utf-8")
        .replace('"size": null', '"size": ' + "[" * 100_000 + "]" * 100_000, 1)
    )
    err = _error(_copy_with(release_dir, tmp_path, SYSTEMS, text))
    assert err.line == 13 and "nested deeper than 64 levels" in str(err)


def test_bad_anchor_value_names_csv_line(release_dir: Path, tmp_path: Path) -> None:
    rel = "data/processed/csv/creator_calibration_anchors.csv"
    lines = (release_dir / rel).read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].rsplit(",", 1)[0] + ",abc"
    root = _copy_with(release_dir, tmp_path, rel, "\n".join(lines) + "\n")
    with pytest.raises(InputError) as err:
        load_release(root)
    assert err.value.field == "y_creator" and err.value.line == 3


ANCHORS = "data/processed/csv/creator_calibration_anchors.csv"


def test_bad_byte_in_the_anchors_csv_names_the_line(release_dir: Path, tmp_path: Path) -> None:
    root = _copy_with(release_dir, tmp_path, ANCHORS, "")
    data = (release_dir / ANCHORS).read_bytes().split(b"\n")
    data[4] = data[4].replace(b"human", b"hum\xffan", 1)
    (root / ANCHORS).write_bytes(b"\n".join(data))
    err = _error(root)
    assert err.line == 5 and "not valid UTF-8 (byte 0xff" in str(err)


@pytest.mark.parametrize("rel", [ANCHORS, SYSTEMS, "data/interim/benchathon_human_grading_sample.json"])
def test_a_utf8_bom_is_read_the_same_for_csv_and_json(release_dir: Path, tmp_path: Path, rel: str) -> None:
    # before: a BOM in the anchors CSV was "required column is missing"; in release JSON "not valid JSON"
    root = _copy_with(release_dir, tmp_path, rel, "\ufeff" + (release_dir / rel).read_text(encoding="utf-8"))
    release = load_release(root)
    assert len(release.anchors) == 358 and len(release.systems) == 12 and len(release.picks) == 45


@pytest.mark.parametrize(
    ("mutate", "line", "field", "message"),
    [
        (lambda lines: lines.__setitem__(3, lines[3].rsplit(",", 1)[0] + ",nan"), 4, "y_creator", "finite number"),
        (lambda lines: lines.__setitem__(6, lines[6].replace(",human,", ',"human,')), 7, None, "unclosed quote"),
        (lambda lines: lines.__setitem__(0, lines[0].replace("y_judge", "y_richter")), 1, "y_judge", "required column"),
        (lambda lines: lines.__setitem__(slice(None), [x.replace(",", ";") for x in lines]), 1, None, "semicolons"),
        (lambda lines: lines.__setitem__(slice(1, None), []), None, None, "no data rows"),
    ],
)
def test_anchor_csv_problems_are_named(
    release_dir: Path,
    tmp_path: Path,
    mutate: Callable[[list[str]], None],
    line: int | None,
    field: str | None,
    message: str,
) -> None:
    lines = (release_dir / ANCHORS).read_text(encoding="utf-8").splitlines()
    mutate(lines)
    err = _error(_copy_with(release_dir, tmp_path, ANCHORS, "\n".join(lines) + "\n"))
    assert (err.line, err.field) == (line, field) and message in str(err)

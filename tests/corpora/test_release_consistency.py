"""A release that contradicts itself is refused, naming file, record and field (issue 32, item 1).

Each row mutates one file of a copy of the release in tmp_path (the other files are symlinks to the real
release, which is never changed) and names what the checker must say. The real release still loads.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.corpora import load_release
from benger.errors import InputError

pytestmark = pytest.mark.slow  # reads the released data (about 0.3 s per load)

EVALS = "data/processed/benchathon_model_evaluations.json"
SUPERSEDED = "data/processed/benchathon_superseded_evaluations.json"
GRADES = "data/processed/benchathon_human_grades.json"
SAMPLE = "data/interim/benchathon_human_grading_sample.json"
ASSIGNMENTS = "data/interim/benchathon_human_grading_assignments.csv"
CASES = "data/interim/benchathon.json"
ITEMS = "data/interim/grundprinzipien.json"
METRICS = "data/processed/benchathon_automatic_metrics.json"
REPEATS = "data/processed/benchathon_human_judge_repeats.json"
STATS = "data/processed/benchathon_generations_stats.json"
ZJS = "data/processed/zjs_model_summary.json"
GP = "data/processed/grundprinzipien_model_summary.json"
ANCHORS = "data/processed/csv/creator_calibration_anchors.csv"
SWAP = "data/processed/benchathon_judge_swap.json"
PRIMARY, LLAMA = "gpt-5.4-mini", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"


def _copy_with(release_dir: Path, tmp_path: Path, rel: str, text: str) -> Path:
    root = tmp_path / "release"
    for src in release_dir.rglob("*"):
        if src.is_file():
            dst = root / src.relative_to(release_dir)
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.relative_to(release_dir).as_posix() == rel:
                dst.write_text(text, encoding="utf-8")
            else:
                os.symlink(src, dst)
    return root


def _json(mutate: Callable[[Any], None]) -> Callable[[str], str]:
    def apply(text: str) -> str:
        data = json.loads(text)
        mutate(data)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    return apply


def _set(index: int, key: str, value: Any) -> Callable[[str], str]:
    return _json(lambda rows: rows[index].__setitem__(key, value))


def _append(index: int) -> Callable[[str], str]:
    return _json(lambda rows: rows.append(dict(rows[index])))


def _same_cell(rows: list[dict[str, Any]]) -> None:
    other = next(i for i, r in enumerate(rows) if r["system"] == rows[0]["system"] and i > 0)
    rows[other]["task_id"] = rows[0]["task_id"]


def _flip(index: int, key: str) -> Callable[[str], str]:
    return _json(lambda rows: rows[index].__setitem__(key, not rows[index][key]))


def _bump(index: int, key: str) -> Callable[[str], str]:
    return _json(lambda rows: rows[index].__setitem__(key, (rows[index][key] + 1) % 19))


def _swap(edit: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    return _json(edit)


def _rename_coverage(data: dict[str, Any]) -> None:
    data["coverage"]["gpt-9"] = data["coverage"].pop("gpt-5.4")


def _cell(judge: str, system: str, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["per_judge_per_system"][judge][system].__setitem__(key, value)


def _csv_lines(edit: Callable[[list[str]], list[str]]) -> Callable[[str], str]:
    return lambda text: "\n".join(edit(text.split("\n")))


def _csv_cell(line: int, column: str, value: str) -> Callable[[str], str]:
    def edit(lines: list[str]) -> list[str]:
        header = lines[0].split(",")
        cells = lines[line - 1].split(",")
        cells[header.index(column)] = value
        lines[line - 1] = ",".join(cells)
        return lines

    return _csv_lines(edit)


# (file, mutation, record, field, message fragment); the error names the mutated file
ROWS: list[tuple[str, Callable[[str], str], int | None, str | None, str]] = [
    # the observations of issue 32
    (EVALS, _set(0, "system", "gpt-9-phantom"), 1, "system", "system 'gpt-9-phantom' is not in systems.json"),
    (ITEMS, _append(5), 532, "task", "duplicated Grundprinzipien item: the same fall and task as record 6"),
    (CASES, _append(0), 16, "sachverhalt", "duplicated Benchathon case: the same Sachverhalt as record 1"),
    (ASSIGNMENTS, _csv_lines(lambda lines: [*lines[:-11], ""]), None, None, "170 assignment rows, but the grading"),
    (ASSIGNMENTS, _csv_cell(5, "reviewer_name", "grader_07"), 4, "reviewer_name", "'grader_07' but assignment 4"),
    (ASSIGNMENTS, _csv_cell(9, "pass", "Z"), 8, "pass", "'Z' but assignment 8"),
    (ASSIGNMENTS, _csv_cell(3, "assignment_id", "A001"), None, "assignment_id", "duplicate assignment_id 'A001'"),
    # the same kinds: every internal reference
    (SUPERSEDED, _set(2, "system", "claude-opus-9"), 3, "system", "is not in systems.json"),
    (EVALS, _set(3, "task_id", "00000000-0000-0000-0000-000000000000"), 4, "task_id", "is not a Benchathon task"),
    (EVALS, _json(_same_cell), 15, "generation_id", "a second final generation of system"),
    (SAMPLE, _json(lambda d: d.__setitem__("n_picks", 44)), None, "n_picks", "n_picks is 44 but the file lists 45"),
    (SAMPLE, _json(lambda d: d.__setitem__("n_assignments", 181)), None, "n_assignments", "lists 180"),
    (SAMPLE, _json(lambda d: d["assignments"][3].__setitem__("pick_id", "P99")), None, "assignments.pick_id",
     "assignment names pick 'P99'"),
    (SAMPLE, _json(lambda d: d["picks"][1].__setitem__("pick_id", "P01")), None, "picks.pick_id", "duplicate pick_id"),
    (GRADES, _set(4, "solution_id", "11111111-2222-3333-4444-555555555555"), 5, "solution_id", "is not a pick"),
    (GRADES, _set(0, "grader_id", "grader_03@anonymized.benger.invalid"), 1, "grader_id", "no blind assignment"),
    (GRADES, _set(2, "role", "creator"), 3, "grader_id", "no creator assignment"),
    (METRICS, _set(6, "generation_id", "not-a-generation"), 7, "generation_id", "is not in the evaluation files"),
    (METRICS, _set(6, "system", "gpt-5.4"), 7, "system", "but generation"),
    (METRICS, _append(0), 1253, "metric", "duplicate generation_id + metric"),
    (REPEATS, _set(0, "generation_id", "not-a-generation"), 1, "generation_id", "is not in the evaluation files"),
    (STATS, _set(0, "model", "gpt-9"), 1, "task", "no evaluated generation of 'gpt-9'"),
    (ZJS, _set(0, "system", "gpt-9"), 1, "system", "system 'gpt-9' is not in systems.json"),
    (GP, _set(0, "n_tasks", 600), 1, "n_tasks", "n_tasks 600 but grundprinzipien.json has 531 items"),
    (ANCHORS, _csv_cell(2, "solution_id", "not-a-pick"), 1, "solution_id", "'not-a-pick' is not a pick"),
    # issue 24: every rubric score's grade points and pass follow its raw score (record 1: raw 83 is 13 points)
    (EVALS, _set(0, "grade_points", 12), 1, "grade_points", "grade_points 12 but raw_score 83 is 13 grade points"),
    (EVALS, _flip(0, "passed"), 1, "passed", "passed False but 13 grade points pass (pass: >= 4)"),
    (SUPERSEDED, _bump(4, "grade_points"), 5, "grade_points", "grade points (the paper's table, half points up)"),
    (GRADES, _bump(7, "grade_points"), 8, "grade_points", "grade points (the paper's table, half points up)"),
    (GRADES, _flip(2, "passed"), 3, "passed", "(pass: >= 4)"),
    # issue 24: the judge-swap file against systems.json and the evaluation files
    (SWAP, _swap(_rename_coverage), None, "coverage", "system 'gpt-9' is not in systems.json"),
    (SWAP, _swap(lambda d: d["coverage"].__setitem__("gpt-5.4", 31)), None, "coverage",
     "31 cells of 'gpt-5.4' but the evaluation files hold 30 of its generations"),
    (SWAP, _swap(lambda d: d["_meta"].__setitem__("primary_judge", "gpt-9")), None, "_meta.primary_judge",
     "primary judge 'gpt-9' has no per_judge_per_system entry"),
    (SWAP, _swap(lambda d: d["per_judge_per_system"]["claude-opus-4-7"].pop("gpt-5.4")), None,
     "per_judge_per_system", "judge 'claude-opus-4-7' covers other systems than coverage (gpt-5.4)"),
    (SWAP, _swap(_cell("claude-sonnet-4-6", "gpt-5.4", "n", 29)), None, "per_judge_per_system.n",
     "n 29 of judge 'claude-sonnet-4-6' on 'gpt-5.4' but coverage says 30"),
    (SWAP, _swap(_cell(PRIMARY, "claude-opus-4-7", "mean_raw", 70.0)), None, "per_judge_per_system.mean_raw",
     "mean_raw 70 / pass_rate 0.933333 are not those of all its generations"),
    (SWAP, _swap(_cell(PRIMARY, "gpt-5.4", "pass_rate", 0.9)), None, "per_judge_per_system.mean_raw",
     "are not those of all its generations"),
    (SWAP, _swap(_cell(PRIMARY, LLAMA, "mean_raw", 37.8)), None, "per_judge_per_system.mean_raw",
     "are not those of any 14 of its 15 generations"),
    (SWAP, _swap(lambda d: d["system_rank_agreement"]["claude-opus-4-7"].__setitem__("n_systems", 11)), None,
     "system_rank_agreement.n_systems", "n_systems 11 of judge 'claude-opus-4-7' but coverage lists 12 systems"),
]  # fmt: skip


@pytest.mark.parametrize(("rel", "mutate", "record", "field", "message"), ROWS)
def test_a_release_that_contradicts_itself_is_refused(
    release_dir: Path,
    tmp_path: Path,
    rel: str,
    mutate: Callable[[str], str],
    record: int | None,
    field: str | None,
    message: str,
) -> None:
    root = _copy_with(release_dir, tmp_path, rel, mutate((release_dir / rel).read_text(encoding="utf-8-sig")))
    with pytest.raises(InputError) as err:
        load_release(root)
    assert err.value.file == str(root / rel), str(err.value)
    assert message in str(err.value)
    assert (err.value.record, err.value.field) == (record, field), str(err.value)
    if rel.endswith(".json") and record is not None:
        assert err.value.line is not None


def test_the_real_release_is_consistent(release_dir: Path) -> None:
    release = load_release(release_dir)
    assert (len(release.generations), len(release.reviews), len(release.assignments)) == (208, 180, 180)


def test_a_refused_release_leaves_no_store_file(release_dir: Path, tmp_path: Path) -> None:
    """Issue 32, item 5: the import validates the whole release before it creates the store."""
    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    root = _copy_with(release_dir, tmp_path, GRADES, _set(0, "task_id", "unknown-task")(
        (release_dir / GRADES).read_text(encoding="utf-8")))  # fmt: skip
    db = tmp_path / "new.db"
    result = CliRunner().invoke(app, ["import", f"release:{root}", "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert "task_id 'unknown-task' but pick" in result.output
    assert not db.exists() and not list(tmp_path.glob("new.db*"))

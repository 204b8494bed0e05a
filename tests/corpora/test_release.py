"""The official release loader: documented counts, derived ids, and clear errors on corrupt files."""

from __future__ import annotations

import json
import os
from pathlib import Path

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


def test_review_without_dimensions_names_field(release_dir: Path, tmp_path: Path) -> None:
    rows = json.loads((release_dir / GRADES).read_text(encoding="utf-8"))
    del rows[7]["dimensions"]
    root = _copy_with(release_dir, tmp_path, GRADES, json.dumps(rows))
    with pytest.raises(InputError) as err:
        load_release(root)
    assert err.value.field == "dimensions" and err.value.line == 7
    assert err.value.file is not None and err.value.file.endswith("benchathon_human_grades.json")


def test_raw_score_must_equal_dimension_sum(release_dir: Path, tmp_path: Path) -> None:
    rel = "data/processed/benchathon_model_evaluations.json"
    rows = json.loads((release_dir / rel).read_text(encoding="utf-8"))
    rows[3]["raw_score"] += 1.0
    root = _copy_with(release_dir, tmp_path, rel, json.dumps(rows))
    with pytest.raises(InputError, match="raw_score") as err:
        load_release(root)
    assert err.value.field == "raw_score" and err.value.line == 3


def test_bad_anchor_value_names_csv_line(release_dir: Path, tmp_path: Path) -> None:
    rel = "data/processed/csv/creator_calibration_anchors.csv"
    lines = (release_dir / rel).read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].rsplit(",", 1)[0] + ",abc"
    root = _copy_with(release_dir, tmp_path, rel, "\n".join(lines) + "\n")
    with pytest.raises(InputError) as err:
        load_release(root)
    assert err.value.field == "y_creator" and err.value.line == 3

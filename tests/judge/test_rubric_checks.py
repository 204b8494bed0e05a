"""Rubrics are validated on load and identified by their content (issue 10, observation 5)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from benger.errors import InputError
from benger.judge import falloesung_rubric, load_rubric
from benger.judge._rubric import RELEASED_RUBRIC_ID
from benger.pipeline import PromptSet, plan_judgements
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import open_store


def _builtin_yaml() -> dict[str, Any]:
    path = Path(__file__).resolve().parents[2] / "src" / "benger" / "judge" / "rubrics" / "falloesung.yaml"
    return dict(yaml.safe_load(path.read_text(encoding="utf-8")))


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "rubric.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _edit(change: str) -> dict[str, Any]:
    data = copy.deepcopy(_builtin_yaml())
    dims = data["dimensions"]
    if change == "max 20 -> 10 (sum 90)":
        dims[0]["max"] = 10
        dims[0]["bands"] = [{"low": 0, "high": 10, "description": "x"}]
    elif change == "declared total 90":
        data["total"] = 90
    elif change == "gap":
        dims[1]["bands"][1]["low"] = 5.5  # bands 0-4.5 and 5.5-8: nothing covers 5
    elif change == "overlap":
        dims[1]["bands"][2]["high"] = 5.5  # 0-5.5 overlaps 5-8
    elif change == "off step":
        dims[2]["bands"][0]["low"] = 8.25
    elif change == "band above max":
        dims[7]["bands"][0]["high"] = 6
    elif change == "bands stop short":
        dims[8]["bands"][0]["high"] = 2.5
        dims[8]["bands"][0]["low"] = 2.5
        dims[8]["bands"] = dims[8]["bands"][1:]
    elif change == "no total":
        del data["total"]
    elif change == "label twice":
        dims[3]["label"] = dims[1]["label"]
    elif change == "label twice, other case and spaces":
        dims[4]["label_en"] = "  " + dims[0]["label_en"].upper().replace(" ", "   ") + " "
    return data


CASES = [
    # (edit, the field the error names, a word of the message)
    ("max 20 -> 10 (sum 90)", "total", "sum to 90"),
    ("declared total 90", "total", "sum to 100"),
    ("gap", "dimensions[1].bands[1].low", "gap"),
    ("overlap", "dimensions[1].bands[1].low", "overlaps"),
    ("off step", "dimensions[2].bands[0].low", "step"),
    ("band above max", "dimensions[7].bands[0].high", "maximum"),
    ("bands stop short", "dimensions[8].bands", "below the maximum"),
    ("no total", "total", "required"),
    ("label twice", "dimensions[3].label", "dimensions[1] has the same label"),
    ("label twice, other case and spaces", "dimensions[4].label_en", "dimensions[0] has the same label_en"),
]


@pytest.mark.parametrize(("change", "field", "words"), CASES, ids=[c[0] for c in CASES])
def test_inconsistent_rubric_is_refused_naming_file_and_field(
    tmp_path: Path, change: str, field: str, words: str
) -> None:
    path = _write(tmp_path, _edit(change))
    with pytest.raises(InputError) as info:
        load_rubric(path)
    assert info.value.file == str(path) and info.value.field == field
    assert words in str(info.value)


def test_graded_rubric_must_total_100(tmp_path: Path) -> None:
    data = _edit("max 20 -> 10 (sum 90)")
    data["total"] = 90  # consistent sum, but its grade table (the paper's) is defined on 0-100
    with pytest.raises(InputError, match="the last grade bound is 100, not the total 90") as info:
        load_rubric(_write(tmp_path, data))
    assert info.value.field == "grades"
    del data["grades"], data["pass_grade"]  # the paper's table by default: still 0-100
    with pytest.raises(InputError, match="graded rubric without 'grades' must total 100") as info:
        load_rubric(_write(tmp_path, data))
    assert info.value.field == "total"
    data["graded"] = False
    assert load_rubric(_write(tmp_path, data)).max_total == 90


def test_builtin_rubric_loads_and_its_id_carries_the_content_hash(tmp_path: Path) -> None:
    rubric = falloesung_rubric()
    assert rubric.base_id == "falloesung@1" == RELEASED_RUBRIC_ID
    name, _, sha8 = rubric.id.partition("+")
    assert name == "falloesung@1" and len(sha8) == 8 and sha8 == rubric.content_hash[:8]
    # a copy written to a file and loaded back is the same rubric
    assert load_rubric(_write(tmp_path, _builtin_yaml())).id == rubric.id


@pytest.mark.parametrize("edit", ["band text", "band edge", "label"])
def test_editing_the_content_changes_the_id(edit: str) -> None:
    data = _builtin_yaml()
    if edit == "band text":
        data["dimensions"][0]["bands"][0]["description"] += " (geändert)"
    elif edit == "band edge":
        data["dimensions"][0]["bands"][0]["low"] = 16.5
        data["dimensions"][0]["bands"][1]["high"] = 16
    else:
        data["dimensions"][4]["label"] = "Subsumtion"
    from benger.judge import Rubric

    edited = Rubric.model_validate(data).check()
    assert edited.base_id == falloesung_rubric().base_id and edited.id != falloesung_rubric().id


def test_plan_judgements_redoes_items_judged_under_an_edited_rubric(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(tmp_path / "r.db")
    task = FalloesungTask(task_id="t1", corpus="fall", area="Zivilrecht", facts="SV", reference="ML")
    store.add_corpus(Corpus(name="fall", tasks=[task]))
    store.save_generation(Generation(generation_id="g1", task_id="t1", system="s", config_hash="c", text="L"))
    judge = SystemConfig(name="j", provider="local", model="m")
    prompts = PromptSet()
    rubric = falloesung_rubric()
    store.save_judgement(
        Judgement(
            judgement_id="j1",
            target_kind="generation",
            target_id="g1",
            judge="j",
            judge_config_hash=prompts.judge_config_hash(judge, rubric),
            rubric_id=rubric.id,
            status="scored",
            total=50.0,
        )
    )
    targets = [("generation", "g1", "falloesung")]
    assert plan_judgements(store, targets, [judge], prompts) == []  # done under the rubric as it is
    data = _builtin_yaml()
    data["dimensions"][0]["bands"][0]["description"] = "Andere Beschreibung des obersten Bandes."
    from benger.judge import Rubric

    edited = Rubric.model_validate(data).check()
    monkeypatch.setattr("benger.pipeline._units.falloesung_rubric", lambda: edited)
    units = plan_judgements(store, targets, [judge], prompts)
    assert [(u.target_id, u.rubric_id) for u in units] == [("g1", edited.id)]
    store.close()


@pytest.mark.parametrize(
    ("text", "got"),
    [("", "got nothing (empty)"), ("# only a comment\n", "got nothing (empty)"), ("- a\n- b\n", "got a list"),
     ("kurz3\n", "got a str"), ("7\n", "got a int")],
    ids=["empty", "comment only", "list", "scalar", "number"],
)  # fmt: skip
def test_a_rubric_file_that_is_no_mapping_is_named_as_such(tmp_path: Path, text: str, got: str) -> None:
    # before: "invalid rubric: Input should be a valid dictionary or instance of Rubric" (pydantic's words)
    path = tmp_path / "bogen.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_rubric(path)
    assert info.value.file is not None and Path(str(info.value.file)) == path
    assert str(info.value).endswith(f"a rubric must be a mapping of its fields (name, version, dimensions, ...), {got}")
    assert "instance of Rubric" not in str(info.value)

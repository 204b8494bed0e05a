"""The ZJS loader on the platform task export format, and the message when the texts are missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.corpora import FalloesungTask, load_zjs
from benger.errors import InputError

PLATFORM_EXPORT = [
    {  # platform row: content nested under "data", id and inner_id next to it
        "id": "7f0c1a52-0000-4000-8000-000000000001",
        "inner_id": 1,
        "meta": {"url": "https://example.invalid/zjs/1"},
        "data": {
            "sachverhalt": "Angabe 1",
            "musterlösung": "Lösung 1",
            "bereich": "zivilrecht",
            "schwierigkeit": "Examen",
            "titel": "Fall 1",
        },
    },
    {"inner_id": 2, "data": {"angabe": "Angabe 2", "loesung": "Lösung 2", "rechtsgebiet": "Strafrecht"}},
    {"Sachverhalt": "Angabe 3", "Musterlösung": "Lösung 3", "Bereich": "Öffentliches Recht"},  # flat
]


def test_platform_export_is_read(tmp_path: Path) -> None:
    path = tmp_path / "zjs.json"
    path.write_text(json.dumps(PLATFORM_EXPORT, ensure_ascii=False), encoding="utf-8")
    corpus = load_zjs(path)
    assert corpus.name == "zjs"
    tasks = [t for t in corpus.tasks if isinstance(t, FalloesungTask)]
    assert [t.task_id for t in tasks] == ["7f0c1a52-0000-4000-8000-000000000001", "zjs-0002", "zjs-0003"]
    assert [t.area for t in tasks] == ["Zivilrecht", "Strafrecht", "Öffentliches Recht"]
    assert (tasks[0].facts, tasks[0].reference, tasks[0].difficulty, tasks[0].title) == (
        "Angabe 1",
        "Lösung 1",
        "Examen",
        "Fall 1",
    )
    assert tasks[0].meta == {"url": "https://example.invalid/zjs/1", "inner_id": 1}
    assert tasks[1].reference == "Lösung 2"


def test_tasks_wrapper_and_release_folder_layout(tmp_path: Path) -> None:
    target = tmp_path / "release" / "data" / "interim" / "zjs.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps({"tasks": PLATFORM_EXPORT[:1]}), encoding="utf-8")
    corpus = load_zjs(tmp_path / "release")
    assert len(corpus.tasks) == 1


def test_missing_file_explains_the_zenodo_fetch(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        load_zjs(tmp_path)
    message = str(info.value)
    assert info.value.file == str(tmp_path / "data" / "interim" / "zjs.json")
    for needle in ("not part of the public", "IP clearance", "10.5281/zenodo.20489788", "data/interim/zjs.json"):
        assert needle in message


def test_bad_task_names_its_position_and_field(tmp_path: Path) -> None:
    bad = [
        PLATFORM_EXPORT[0],
        {"inner_id": 2, "data": {"sachverhalt": "A", "bereich": "Kirchenrecht", "musterlösung": "L"}},
        {"data": "text"},
    ]
    path = tmp_path / "zjs.json"
    path.write_text(json.dumps(bad, indent=1, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_zjs(path)
    err = info.value
    # before: the task number 2 was printed as if it were line 2
    text = path.read_text(encoding="utf-8").split("\n")
    assert text[err.line - 1] == '   "bereich": "Kirchenrecht",'  # the line of task 2's field
    assert (err.record, err.field) == (2, "bereich")
    assert str(err).startswith(f"{path}:{err.line}, record 2, field 'bereich': unknown area 'Kirchenrecht'")
    assert "task 2, field 'bereich'" in str(err) and "task 3, field 'data'" in str(err)


def test_invalid_json_and_wrong_top_level(tmp_path: Path) -> None:
    path = tmp_path / "zjs.json"
    path.write_text('[\n{"a": 1},\n{oops}\n]', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_zjs(path)
    assert info.value.line == 3
    path.write_text('"just a string"', encoding="utf-8")
    with pytest.raises(InputError, match="expected a JSON list of task objects"):
        load_zjs(path)

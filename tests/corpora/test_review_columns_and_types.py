"""Review import (attack items 16 and 18): a column name matches a rubric key or a review field by the corpus
reader's one rule (``benger.corpora._fields.column_key``: ``pruefung`` is ``prüfung`` as ``musterloesung`` is
``musterlösung``); a JSONL score must be a JSON number (``"4"`` is refused with file, line and field, as the corpus
and release readers refuse a wrong type), while a CSV cell is text and is read as a number."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benger.corpora._reviews import load_reviews_file
from benger.errors import InputError
from benger.judge import rubric_from_data
from benger.schema import Corpus, FalloesungTask, Generation
from benger.store import Store, open_store

UMLAUT = rubric_from_data(
    {
        "name": "umlaut",
        "version": "1",
        "title": "T",
        "kind": "falloesung",
        "graded": False,
        "total": 20,
        "step": 0.5,
        "dimensions": [
            {"key": "prüfung", "label": "Prüfung", "label_en": "A", "max": 10},
            {"key": "würdigung", "label": "Würdigung", "label_en": "B", "max": 10},
        ],
    }
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(tmp_path / "r.db")
    task = FalloesungTask(task_id="t1", corpus="faelle", area="Zivilrecht", facts="SV", reference="ML")
    s.add_corpus(Corpus(name="faelle", tasks=[task]))
    s.save_generation(Generation(generation_id="g1", task_id="t1", corpus="faelle", system="s", config_hash="c"))
    yield s
    s.close()


def _load(store: Store, tmp_path: Path, suffix: str, rows: list[dict[str, Any]]) -> Any:
    path = tmp_path / f"reviews{suffix}"
    if suffix == ".csv":
        header = list(rows[0])
        lines = [",".join(header), *(",".join(str(r[h]) for h in header) for r in rows)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return load_reviews_file(path, store, rubrics={"faelle": UMLAUT})


# (the two dimension column names, the review field names) as a user may write them
SPELLINGS = [
    (("prüfung", "würdigung"), ("solution_id", "reviewer", "role")),
    (("pruefung", "wuerdigung"), ("solution_id", "reviewer", "role")),
    (("Prüfung", "Würdigung"), ("Solution_ID", "Reviewer", "Role")),
    (("PRUEFUNG", " wuerdigung "), ("loesung_id", "korrektor", "rolle")),
    (("prüfung", "wuerdigung"), ("Lösung_ID", "Korrektor", "Rolle")),
]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
@pytest.mark.parametrize(("dims", "fields"), SPELLINGS)
def test_columns_match_by_the_corpus_readers_rule(
    store: Store, tmp_path: Path, suffix: str, dims: tuple[str, str], fields: tuple[str, str, str]
) -> None:
    row = dict(zip(fields, ("g1", "R1", "blind"), strict=True)) | {dims[0]: 3, dims[1]: 4}
    [review] = _load(store, tmp_path, suffix, [row])
    assert review.dimensions == {"prüfung": 3.0, "würdigung": 4.0} and review.raw_score == 7.0


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_one_dimension_in_two_spellings_is_given_twice(store: Store, tmp_path: Path, suffix: str) -> None:
    row = {"solution_id": "g1", "reviewer": "R1", "role": "blind", "prüfung": 3, "pruefung": 3, "würdigung": 4}
    with pytest.raises(InputError, match="given twice, as 'prüfung' and as 'pruefung'"):
        _load(store, tmp_path, suffix, [row])


def test_an_unknown_column_is_still_named(store: Store, tmp_path: Path) -> None:
    row = {"solution_id": "g1", "reviewer": "R1", "role": "blind", "prüfung": 3, "würdigung": 4, "pruefng": 1}
    with pytest.raises(InputError, match="unknown dimension 'pruefng'; the rubric umlaut@1"):
        _load(store, tmp_path, ".jsonl", [row])


# (suffix, how the score is written, accepted value or the expected message)
SCORES: list[tuple[str, Any, float | str]] = [
    (".jsonl", 4, 4.0),
    (".jsonl", 4.5, 4.5),
    (".jsonl", "4", "field 'würdigung': expected a number, got text '4'"),
    (".jsonl", "4,5", "field 'würdigung': expected a number, got text '4,5'"),
    (".jsonl", True, "field 'würdigung': True is not a number"),
    (".jsonl", [4], "field 'würdigung': [4] is not a number"),
    (".csv", 4, 4.0),  # a CSV cell is text: "4"
    (".csv", '"4,5"', 4.5),  # German decimal comma
    (".csv", "vier", "field 'würdigung': 'vier' is not a number"),
]


@pytest.mark.parametrize(("suffix", "score", "expected"), SCORES)
def test_a_score_must_be_a_number_of_its_format(
    store: Store, tmp_path: Path, suffix: str, score: Any, expected: float | str
) -> None:
    rows = [{"solution_id": "g1", "reviewer": "R1", "role": "blind", "prüfung": 3, "würdigung": score}]
    if isinstance(expected, float):
        [review] = _load(store, tmp_path, suffix, rows)
        assert review.dimensions["würdigung"] == expected
        return
    with pytest.raises(InputError) as info:
        _load(store, tmp_path, suffix, rows)
    assert f"reviews{suffix}:2" in str(info.value) if suffix == ".csv" else f"reviews{suffix}:1" in str(info.value)
    assert expected in str(info.value), str(info.value)

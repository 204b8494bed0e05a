"""User corpora as JSONL/CSV: aliases, kind inference, round trips, and errors naming file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.corpora import (
    CorpusFileError,
    FalloesungTask,
    PrincipleItem,
    load_corpus_file,
    load_demo_corpus,
    write_corpus_file,
)
from benger.errors import InputError

FALL = {"task_id": "f1", "area": "Zivilrecht", "facts": "A kauft von B.", "reference": "A. Anspruch ..."}
GP = {
    "task_id": "g1",
    "area": "Strafrecht",
    "case": "T nimmt Strom.",
    "question": "Analogie?",
    "gold_answer": "Ja",
    "gold_reasoning": "Strom ist keine Sache.",
}


def _jsonl(path: Path, rows: list[dict[str, object] | str]) -> Path:
    # a lone surrogate cannot be written as UTF-8: such rows are written with \\u escapes (as a hostile file has)
    lines = [row if isinstance(row, str) else json.dumps(row, ensure_ascii="\\ud" in repr(row)) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _error(path: Path, **kwargs: str) -> InputError:
    with pytest.raises(InputError) as info:
        load_corpus_file(path, **kwargs)
    assert info.value.file == str(path)
    return info.value


# ---------------------------------------------------------------- happy paths
def test_german_aliases_jsonl(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path / "meine_faelle.jsonl",
        [
            {
                "id": "z1",
                "Bereich": "zivilrecht",
                "Sachverhalt": "S",
                "Musterlösung": "M",
                "Schwierigkeit": "Anfänger",
                "Titel": "T",
                "quelle": "eigene",
            },
            {"ID": "z2", "bereich": "Öffentliches Recht", "sachverhalt": "S2", "musterloesung": "M2"},
            {
                "task_id": "p1",
                "bereich": "strafrecht",
                "fall": "F",
                "frage": "Q?",
                "antwort": "nein.",
                "begründung": "B",
                "grundprinzip": "Schuldprinzip",
                "autoren": "X",
            },
        ],
    )
    corpus = load_corpus_file(path)
    assert corpus.name == "meine_faelle"
    first, second, third = corpus.tasks
    assert isinstance(first, FalloesungTask) and isinstance(third, PrincipleItem)
    assert (first.task_id, first.area, first.facts, first.reference) == ("z1", "Zivilrecht", "S", "M")
    assert (first.difficulty, first.title, first.meta) == ("Anfänger", "T", {"quelle": "eigene"})
    assert second.area == "Öffentliches Recht"
    assert (third.gold_answer, third.gold_reasoning, third.principle, third.authors) == (
        "Nein",
        "B",
        "Schuldprinzip",
        "X",
    )


def test_missing_task_id_gets_a_positional_id_and_name_override(tmp_path: Path) -> None:
    row = {k: v for k, v in FALL.items() if k != "task_id"}
    path = _jsonl(tmp_path / "x.jsonl", [row, "", row])  # a blank line is skipped, not counted
    corpus = load_corpus_file(path, name="mine")
    assert [t.task_id for t in corpus.tasks] == ["mine-0001", "mine-0002"]
    assert all(t.corpus == "mine" for t in corpus.tasks)


def test_csv_with_multiline_cells_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "gp.csv"
    text = 'id,bereich,fall,frage,antwort,begruendung\nq1,zivilrecht,"Zeile 1\nZeile 2",Frage?,Ja,Weil.\n'
    path.write_bytes(("\ufeff" + text).encode("utf-8"))
    corpus = load_corpus_file(path)
    (item,) = corpus.tasks
    assert isinstance(item, PrincipleItem)
    assert item.case == "Zeile 1\nZeile 2" and item.gold_answer == "Ja"


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_round_trip_of_the_demo_corpora(tmp_path: Path, suffix: str) -> None:
    for name in ("demo-falloesung", "demo-grundprinzipien"):
        corpus = load_demo_corpus(name)
        path = write_corpus_file(corpus, tmp_path / f"{name}{suffix}")
        again = load_corpus_file(path, name=name)
        assert again.model_dump(exclude={"description"}) == corpus.model_dump(exclude={"description"})


def test_round_trip_of_a_mixed_corpus_with_meta(tmp_path: Path) -> None:
    mixed = load_corpus_file(_jsonl(tmp_path / "mixed.jsonl", [{**FALL, "meta": {"n": 1}}, GP]))
    for suffix in (".jsonl", ".csv"):
        again = load_corpus_file(write_corpus_file(mixed, tmp_path / f"out{suffix}"), name="mixed")
        assert again.model_dump() == mixed.model_dump()
        assert again.tasks[0].meta == {"n": 1}


def test_kind_can_be_forced(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "k.jsonl", [FALL])
    err = _error(path, kind="grundprinzip")
    assert (err.line, err.field) == (1, "case")


# ---------------------------------------------------------------- errors: file, line and field
@pytest.mark.parametrize(
    ("row", "field", "needle"),
    [
        ({k: v for k, v in FALL.items() if k != "reference"}, "reference", "required field missing"),
        ({**FALL, "facts": "   "}, "facts", "empty text"),
        ({**FALL, "area": "Völkerrecht"}, "area", "unknown area 'Völkerrecht'"),
        ({**GP, "gold_answer": "vielleicht"}, "gold_answer", "expected 'Ja' or 'Nein'"),
        ({**FALL, "facts": ["a"]}, "facts", "expected text"),
        ({**FALL, "facts": 123}, "facts", "expected text, got int 123"),
        ({**FALL, "reference": 1.5}, "reference", "expected text, got float"),
        ({**FALL, "area": 7}, "area", "expected text"),
        ({**FALL, "facts": True}, "facts", "expected text, got bool"),
        ({**FALL, "task_id": 1.5}, "task_id", "expected text, got float"),
        ({**FALL, "facts": "x\ud800"}, "facts", "lone surrogate (\\ud800 at character 2)"),
        ({**GP, "case": "\udfff"}, "case", "lone surrogate"),
    ],
)
def test_one_bad_record_names_line_and_field(tmp_path: Path, row: dict[str, object], field: str, needle: str) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [FALL | {"task_id": "ok"}, row])
    err = _error(path)
    assert (err.line, err.field) == (2, field)
    assert needle in str(err)
    assert str(err).startswith(f"{path}:2, field '{field}'")


def test_alias_spelling_is_named_in_the_error(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [{"id": "a", "bereich": "Mondrecht", "sachverhalt": "s", "musterlösung": "m"}])
    err = _error(path)
    assert (err.line, err.field) == (1, "bereich")


def test_invalid_json_line(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [FALL, "", '{"task_id": "x", oops}'])
    err = _error(path)
    assert err.line == 3 and "invalid JSON" in str(err)


def test_duplicate_task_id_names_both_lines(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [FALL, GP, FALL])
    err = _error(path)
    assert (err.line, err.field) == (3, "task_id")
    assert "duplicate task_id 'f1' (first used on line 1)" in str(err)


def test_csv_rows_are_counted_as_in_an_editor(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    # line 1 header; line 2-3 one row (quoted newline); line 4 empty facts; line 5 duplicate of line 2
    path.write_text(
        'task_id,sachverhalt,musterloesung,bereich\n1,"zwei\nZeilen",ref,zivilrecht\n2,,ref,zivilrecht\n'
        "1,f,ref,strafrecht\n",
        encoding="utf-8",
    )
    err = _error(path)
    assert isinstance(err, CorpusFileError)
    assert [(p.line, p.field) for p in err.problems] == [(4, "sachverhalt"), (5, "task_id")]
    assert "first used on line 2" in str(err)


def test_all_problems_are_listed_up_to_twenty(tmp_path: Path) -> None:
    rows: list[dict[str, object] | str] = [{**FALL, "task_id": f"t{i}", "area": "Mars"} for i in range(25)]
    err = _error(_jsonl(tmp_path / "many.jsonl", rows))
    assert isinstance(err, CorpusFileError)
    assert len(err.problems) == 20 and err.problems[-1].line == 20
    assert "25 problems" in str(err) and "... and 5 more" in str(err)
    assert "line 20, field 'area'" in str(err)


def test_non_utf8_bytes_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(json.dumps(FALL).encode() + b"\n" + '{"facts": "Müller"}'.encode("latin-1") + b"\n")
    err = _error(path)
    assert err.line == 2 and "UTF-8" in str(err)


@pytest.mark.parametrize(
    ("name", "content"), [("e.jsonl", ""), ("e.csv", ""), ("h.csv", "id,fall\n"), ("b.jsonl", "\n\n")]
)
def test_empty_files(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert "no tasks" in str(_error(path))


def test_wrong_extension_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "corpus.xlsx"
    path.write_text("x", encoding="utf-8")
    assert ".xlsx" in str(_error(path))
    assert "not found" in str(_error(tmp_path / "nope.jsonl"))


def test_record_that_is_not_an_object_or_of_no_kind(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", ["[1, 2]", {"task_id": "x", "area": "Zivilrecht"}])
    err = _error(path)
    assert isinstance(err, CorpusFileError)
    assert [p.line for p in err.problems] == [1, 2]
    assert "cannot tell the task kind" in err.problems[1].message


def test_fields_of_the_other_kind_and_bad_meta(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [{**GP, "titel": "Stromfall"}])
    (item,) = load_corpus_file(path).tasks
    assert item.meta == {"titel": "Stromfall"}  # kept in meta, not silently dropped
    path = _jsonl(tmp_path / "f.jsonl", [{**GP, "facts": "zz"}, {**FALL, "frage": "Q?"}])
    gp, fall = load_corpus_file(path).tasks
    assert gp.meta == {"facts": "zz"}  # docs/corpora.md: any other field is kept
    assert fall.meta == {"frage": "Q?"}
    # a whole task of each kind is refused, not guessed (tests/corpora/test_line_ends_and_mixed_kinds.py)
    path = tmp_path / "m.csv"
    path.write_text("id,sachverhalt,musterloesung,bereich,meta\n1,s,m,zivilrecht,{kaputt\n", encoding="utf-8")
    err = _error(path)
    assert (err.line, err.field) == (2, "meta")


def test_integer_ids_and_difficulty_are_read_as_text(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [{**FALL, "task_id": 7, "schwierigkeit": 5}])
    (task,) = load_corpus_file(path).tasks
    assert isinstance(task, FalloesungTask)
    assert (task.task_id, task.difficulty) == ("7", "5")


@pytest.mark.parametrize(("cells", "line"), [("1,s,m", 3), ("1,s,m,zivilrecht,x,y,z", 3)])
def test_csv_row_with_too_few_or_too_many_cells(tmp_path: Path, cells: str, line: int) -> None:
    path = tmp_path / "c.csv"
    path.write_text(f"id,sachverhalt,musterloesung,bereich,titel,x\n0,s,m,zivilrecht,t,y\n{cells}\n", encoding="utf-8")
    err = _error(path)
    assert (err.line, err.field) == (line, None)
    n = cells.count(",") + 1
    assert str(err) == f"{path}:{line}: row has {n} cells but the header has 6 columns"


def test_a_field_given_twice_under_two_spellings(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "c.jsonl", [{**FALL, "sachverhalt": "anderer Text"}])
    err = _error(path)
    assert (err.line, err.field) == (1, "sachverhalt")
    assert "given twice, as 'facts' and as 'sachverhalt'" in str(err)


def test_unicode_line_separators_inside_texts_survive(tmp_path: Path) -> None:
    # json.dumps(ensure_ascii=False) writes U+2028 raw; it must not split the JSONL line
    row = {**FALL, "facts": "Absatz eins\u2028Absatz zwei\x0cSeite"}
    path = tmp_path / "u.jsonl"
    path.write_text(json.dumps(row, ensure_ascii=False) + "\r\n", encoding="utf-8")
    (task,) = load_corpus_file(path).tasks
    assert isinstance(task, FalloesungTask) and task.facts == row["facts"]

"""The one reader of every importer: bounded JSON depth and integers, no NaN, no twice-given keys, lines."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.corpora import load_corpus_file, load_zjs
from benger.corpora._reading import MAX_DEPTH, JsonProblem, line_of, parse_json
from benger.errors import InputError

GOOD = {"kind": "falloesung", "bereich": "Zivilrecht", "sachverhalt": "A kauft.", "musterloesung": "Gutachten."}


def _jsonl(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_jsonl_nested_200000_deep_names_the_line(tmp_path: Path) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    path = _jsonl(tmp_path, json.dumps(GOOD), '{"meta": ' + deep + "}")
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.file == str(path) and err.value.line == 2
    assert f"nested deeper than {MAX_DEPTH} levels" in str(err.value)


def test_jsonl_integer_of_5000_digits_names_the_line(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, json.dumps(GOOD), json.dumps(GOOD), '{"task_id": ' + "7" * 5000 + "}")
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.line == 3 and "integer with 5000 digits does not fit 64 bits" in str(err.value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("NaN", "NaN is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("1e999", "number 1e999 is out of range"),
        ("9223372036854775808", "integer 9223372036854775808 does not fit 64 bits"),
    ],
)
def test_jsonl_non_numbers_are_rejected_not_stored_as_text(tmp_path: Path, value: str, message: str) -> None:
    # before: {"difficulty": NaN} was read and stored as the text "nan"
    line = json.dumps(GOOD)[:-1] + ', "difficulty": ' + value + "}"
    path = _jsonl(tmp_path, line)
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.line == 1 and message in str(err.value)


def test_a_key_given_twice_is_rejected(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, '{"sachverhalt": "A", "sachverhalt": "B", "bereich": "Zivilrecht", "musterloesung": "x"}')
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.line == 1 and "key 'sachverhalt' appears twice" in str(err.value)


def test_zjs_deep_nesting_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "zjs.json"
    path.write_text('[\n  {"data": {"meta": ' + "{" * 100_000 + "}" * 100_000 + "}}\n]", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_zjs(path)
    assert err.value.file == str(path) and err.value.line == 2
    assert "nested deeper than 64 levels" in str(err.value)


@pytest.mark.parametrize("bom", ["utf-8-sig", "utf-16"])
def test_byte_order_marks_are_read_the_same_for_jsonl_csv_and_json(tmp_path: Path, bom: str) -> None:
    jsonl = tmp_path / "a.jsonl"
    jsonl.write_text(json.dumps(GOOD, ensure_ascii=False) + "\n", encoding=bom)
    csv = tmp_path / "a.csv"
    csv.write_text("bereich,sachverhalt,musterloesung\nZivilrecht,A kauft.,Gutachten.\n", encoding=bom)
    zjs = tmp_path / "zjs.json"
    zjs.write_text(json.dumps([{"id": "z1", "data": GOOD}]), encoding=bom)
    assert load_corpus_file(jsonl).tasks[0].facts == "A kauft."
    assert load_corpus_file(csv).tasks[0].area == "Zivilrecht"
    assert load_zjs(zjs).tasks[0].task_id == "z1"


def test_line_of_finds_values_as_an_editor_counts() -> None:
    text = '[\n  {"a": 1},\n  {\n    "b": [\n      10,\n      20\n    ],\n    "c": "x"\n  }\n]\n'
    assert line_of(text, [0]) == 2
    assert line_of(text, [1]) == 3
    assert line_of(text, [1, "b"]) == 4
    assert line_of(text, [1, "b", 1]) == 6
    assert line_of(text, [1, "c"]) == 8
    assert line_of(text, [1, "missing"]) == 3  # the object that lacks the key
    assert line_of("not json", [3]) == 1


def _nfc_text(max_size: int | None = None) -> st.SearchStrategy[str]:
    """Text as benger reads it: every file is NFC (benger.text.nfc; U+F900 reads as U+8C48)."""
    return st.text(max_size=max_size).map(lambda t: unicodedata.normalize("NFC", t))


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _nfc_text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_nfc_text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_json_values, min_size=1, max_size=6))
def test_strict_json_reads_what_json_writes_and_finds_every_record(records: list[object]) -> None:
    text = json.dumps(records, indent=2, ensure_ascii=False)
    assert parse_json(text) == records
    assert parse_json(json.dumps(["\uf900", "O\u0308"])) == ["\u8c48", "\u00d6"]  # read in NFC
    starts = []
    for index in range(len(records)):
        starts.append(line_of(text, [index]))
    # each record starts on the line after the previous record's last line
    assert starts[0] == 2
    for index in range(1, len(records)):
        previous = json.dumps(records[index - 1], indent=2, ensure_ascii=False)
        assert starts[index] == starts[index - 1] + previous.count("\n") + 1


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=MAX_DEPTH + 1, max_value=5000), st.integers(min_value=0, max_value=3))
def test_any_depth_over_the_bound_is_one_problem(depth: int, blank_lines: int) -> None:
    text = "\n" * blank_lines + "[" * depth + "]" * depth
    with pytest.raises(JsonProblem) as err:
        parse_json(text)
    assert err.value.line == blank_lines + 1 and err.value.column == MAX_DEPTH + 1


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "corpus.csv"
    path.write_text(text, encoding="utf-8")
    return path


HEADER = "bereich,sachverhalt,musterloesung\n"


@pytest.mark.parametrize(
    "row2",
    [
        'Zivilrecht,B kauft.,"Gutachten',  # unclosed quote in the last column: used to swallow rows 3 and 4
        'Zivilrecht,"B kauft.,Gutachten',  # in a middle column: used to be reported as a missing field
    ],
)
def test_csv_unclosed_quote_is_reported_as_such(tmp_path: Path, row2: str) -> None:
    path = _csv(tmp_path, HEADER + "Zivilrecht,A kauft.,Gutachten.\n" + row2 + "\nStrafrecht,C,D\nStrafrecht,E,F\n")
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.file == str(path) and err.value.line == 3
    assert "unclosed quote: a quoted cell of the row starting on line 3 is never closed" in str(err.value)


def test_csv_quoted_cells_may_span_lines(tmp_path: Path) -> None:
    path = _csv(tmp_path, HEADER + 'Zivilrecht,"A kauft.\nB verkauft.",Gutachten.\nStrafrecht,C,"D ""zitiert"""\n')
    corpus = load_corpus_file(path)
    assert [t.facts for t in corpus.tasks] == ["A kauft.\nB verkauft.", "C"]
    assert corpus.tasks[1].reference == 'D "zitiert"'


@pytest.mark.parametrize(("sep", "name"), [(";", "semicolons"), ("\t", "tabs")])
def test_csv_with_another_delimiter_says_so(tmp_path: Path, sep: str, name: str) -> None:
    path = _csv(tmp_path, HEADER.replace(",", sep) + sep.join(["Zivilrecht", "A, B kauft.", "Gutachten."]) + "\n")
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.line == 1 and f"the header is separated by {name}, not commas" in str(err.value)


def test_csv_bad_byte_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "corpus.csv"
    path.write_bytes(HEADER.encode() + b"Zivilrecht,A,B\nZivilrecht,C\xff,D\n")
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert err.value.line == 3 and "not valid UTF-8 (byte 0xff" in str(err.value)

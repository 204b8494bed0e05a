"""JSONL input gaps (attack item 17): old-Mac CR line ends are read like LF and CR LF (a raw CR cannot be inside a
JSON string, so it only ends a line), with the line numbers an editor shows; a record carrying the fields of both
task kinds is refused naming both sets, never imported as one kind with the other's texts hidden in meta."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.corpora import load_corpus_file
from benger.errors import InputError

GOOD = '{"id": "%s", "bereich": "Zivilrecht", "sachverhalt": "x", "musterlösung": "y"}'
BAD = '{"id": "c", "bereich": "Völkerrecht", "sachverhalt": "x", "musterlösung": "y"}'
ENDS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


@pytest.mark.parametrize("end", ENDS)
def test_every_line_end_reads_the_same(tmp_path: Path, end: str) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(ENDS[end].join([GOOD % "a", GOOD % "b", ""]).encode())
    assert [t.task_id for t in load_corpus_file(path).tasks] == ["a", "b"]


@pytest.mark.parametrize("end", ENDS)
def test_a_problem_is_named_on_its_line_whatever_the_line_ends(tmp_path: Path, end: str) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(ENDS[end].join([GOOD % "a", "", BAD, ""]).encode())
    with pytest.raises(InputError, match=r"f\.jsonl:3, field 'bereich'"):
        load_corpus_file(path)


MIXED = (
    '{"id": "a", "bereich": "Zivilrecht", "sachverhalt": "x", "musterlösung": "y", "fall": "c", "frage": "q", '
    '"antwort": "Ja", "begründung": "r"%s}\n'
)


def test_a_record_with_both_kinds_of_fields_is_refused_naming_both(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(MIXED % "", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_corpus_file(path)
    message = str(info.value)
    assert "f.jsonl:1" in message and "fields of both task kinds" in message
    assert "sachverhalt, musterlösung (falloesung)" in message
    assert "fall, frage, antwort, begründung (grundprinzip)" in message


@pytest.mark.parametrize(("in_record", "option", "kind"), [(', "kind": "grundprinzip"', None, "grundprinzip"),
                                                          ("", "falloesung", "falloesung")])  # fmt: skip
def test_a_given_kind_decides_and_keeps_the_other_fields_in_meta(
    tmp_path: Path, in_record: str, option: str | None, kind: str
) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(MIXED % in_record, encoding="utf-8")
    [task] = load_corpus_file(path, kind=option).tasks
    assert task.kind == kind

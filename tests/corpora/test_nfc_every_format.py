"""Every reader sees NFC text and keys (attack item 5): a decomposed umlaut (NFD, as macOS writes it), written raw or
as a JSON/YAML escape (``"O\\u0308"``), in a key or in a value, reads as the composed one in every input format.
Before, CSV was normalised but a JSONL escape was not: "unknown area 'Öffentliches Recht'; expected one of ...,
Öffentliches Recht" and "field 'reference' missing" for a decomposed ``musterlösung`` key."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benger._yaml import load_yaml
from benger.corpora import load_corpus_file
from benger.corpora._reading import parse_json, read_json_file
from benger.errors import InputError

AREA = "Öffentliches Recht"
KEY = "musterlösung"


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _escaped(text: str) -> str:
    """``text`` decomposed and written with JSON ``\\u`` escapes for every non-ASCII character."""
    return json.dumps(_nfd(text), ensure_ascii=True)[1:-1]


# how a string is written into the file: raw NFC, raw NFD, NFD as a \u escape (JSON and YAML only)
FORMS: dict[str, Callable[[str], str]] = {"nfc": lambda s: s, "nfd": _nfd, "escaped": _escaped}
WHERE = ("key", "value")


def _record(form: Callable[[str], str], where: str) -> tuple[str, str]:
    """(key text, value text) of the reference key and the area value, ``form`` applied to one of them."""
    return (form(KEY) if where == "key" else KEY), (form(AREA) if where == "value" else AREA)


def _jsonl(form: Callable[[str], str], where: str) -> str:
    key, area = _record(form, where)
    return f'{{"id": "a", "bereich": "{area}", "sachverhalt": "x", "{key}": "y"}}\n'


def _csv(form: Callable[[str], str], where: str) -> str:
    key, area = _record(form, where)
    return f"id,bereich,sachverhalt,{key}\na,{area},x,y\n"


CORPUS_CASES = [
    (name, form, where, writer)
    for name, writer in ((".jsonl", _jsonl), (".csv", _csv))
    for form in FORMS
    for where in WHERE
    if not (name == ".csv" and form == "escaped")  # CSV has no escapes
]


@pytest.mark.parametrize(("suffix", "form", "where", "writer"), CORPUS_CASES)
def test_a_user_corpus_reads_decomposed_umlauts_as_composed(
    tmp_path: Path, suffix: str, form: str, where: str, writer: Callable[[Callable[[str], str], str], str]
) -> None:
    path = tmp_path / f"fälle{suffix}"
    path.write_text(writer(FORMS[form], where), encoding="utf-8")
    task = load_corpus_file(path).tasks[0]
    assert task.area == AREA
    assert task.reference == "y"  # the key was recognised, not kept in meta
    assert KEY not in task.meta and _nfd(KEY) not in task.meta


def _json_doc(form: Callable[[str], str], where: str) -> str:
    key, area = _record(form, where)
    return f'{{"{key}": ["{area}"], "bereich": "{area}"}}'


def _yaml_doc(form: Callable[[str], str], where: str) -> str:
    key, area = _record(form, where)
    return f'"{key}": ["{area}"]\nbereich: "{area}"\n'


def _read_json(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    return read_json_file(path)[0]


DOC_READERS: dict[str, tuple[Callable[..., str], Callable[[Path, str], Any]]] = {
    "json file (ZJS export, release files)": (_json_doc, _read_json),
    "json text (a CSV meta cell)": (_json_doc, lambda _tmp, text: parse_json(text)),
    "yaml (rubrics, run configs)": (_yaml_doc, lambda _tmp, text: load_yaml(text, "rubric.yaml")),
}


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("reader", DOC_READERS)
def test_every_document_reader_returns_nfc_keys_and_values(tmp_path: Path, reader: str, form: str, where: str) -> None:
    write, read = DOC_READERS[reader]
    assert read(tmp_path, write(FORMS[form], where)) == {KEY: [AREA], "bereich": AREA}


@pytest.mark.parametrize("form", ["nfd", "escaped"])
def test_a_key_written_in_both_forms_is_a_key_given_twice(form: str) -> None:
    """NFC keys make "musterlösung" and its decomposed spelling one key: given twice, never one value lost."""
    from benger.corpora._reading import JsonProblem

    with pytest.raises(JsonProblem, match="appears twice"):
        parse_json(f'{{"{KEY}": "a", "{FORMS[form](KEY)}": "b"}}')


def test_a_benger_export_cell_is_kept_as_written() -> None:
    """``as_written``: a benger export's JSON cells (meta) round-trip byte for byte, decomposed or not."""
    assert parse_json(f'{{"{_escaped(KEY)}": "{_escaped(AREA)}"}}', as_written=True) == {_nfd(KEY): _nfd(AREA)}


def test_an_unknown_area_still_fails_after_normalisation(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text('{"id": "a", "bereich": "Vo\\u0308lkerrecht", "sachverhalt": "x", "musterlösung": "y"}\n')
    with pytest.raises(InputError, match="unknown area 'Völkerrecht'"):
        load_corpus_file(path)

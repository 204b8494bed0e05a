"""Two mapping keys of one YAML file that differ only in Unicode normalisation form are one key given twice.

Observed (2026-12-04): a rubric or run config with ``Musterlösung:`` and ``"Musterlo\\u0308sung":`` (a decomposed
umlaut written as an escape, which normalising the file's text does not reach) loaded without complaint, and
one of the two values was dropped when benger read every key as NFC. Now refused like any duplicate key: one
message naming file, line and key.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger._yaml import load_yaml
from benger.errors import InputError
from benger.pipeline import load_run_config

NFC = unicodedata.normalize("NFC", "Musterlösung")
ESCAPED_NFD = '"Musterlo\\u0308sung"'  # the YAML escape of the decomposed form


def test_an_escaped_nfd_twin_of_a_key_is_refused_naming_file_line_and_key() -> None:
    text = f"dimensions:\n  {NFC}: 10\n  {ESCAPED_NFD}: 20\n"
    with pytest.raises(InputError) as err:
        load_yaml(text, "rubric.yaml")
    assert err.value.file == "rubric.yaml" and err.value.line == 3
    assert err.value.field == f"dimensions.{NFC}"
    assert str(err.value) == (
        f"rubric.yaml:3, field 'dimensions.{NFC}': duplicate key {NFC!r} (first on line 2, written there in "
        "another Unicode form); give each key once"
    )


def test_a_run_config_with_twin_keys_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(f"corpora: [demo]\nsystems: [gpt-5.4]\nprompts:\n  {NFC}: a.txt\n  {ESCAPED_NFD}: b.txt\n")
    with pytest.raises(InputError, match=r"run\.yaml:5, field 'prompts\.Musterlösung': duplicate key"):
        load_run_config(path)


#: How the second key is written: raw NFC, raw NFD (the text is normalised first), an escape of the NFD form.
FORMS = {
    "raw nfc": lambda s: s,
    "raw nfd": lambda s: unicodedata.normalize("NFD", s),
    "escaped nfd": lambda s: '"' + "".join(c if ord(c) < 128 else f"\\u{ord(c):04x}" for c in _nfd(s)) + '"',
}


def _nfd(s: str) -> str:
    return unicodedata.normalize("NFD", s)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("key", ["Musterlösung", "Öffentliches Recht", "Begründung", "é"])
def test_every_form_of_a_repeated_key_is_a_duplicate(form: str, key: str) -> None:
    text = f"{key}: 1\n{FORMS[form](key)}: 2\n"
    with pytest.raises(InputError, match=r"^x\.yaml:2, field .*: duplicate key"):
        load_yaml(text, "x.yaml")


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("aouAOUeEnc\u0308\u0301\u0303 "), min_size=1, max_size=8).filter(str.strip))
def test_keys_equal_in_nfc_are_refused_and_distinct_ones_kept(word: str) -> None:
    first, second = unicodedata.normalize("NFC", word), FORMS["escaped nfd"](word)
    text = f'"{first}": 1\n{second}: 2\n'
    with pytest.raises(InputError, match="duplicate key"):
        load_yaml(text, "x.yaml")
    other = word + "x"
    assert load_yaml(f'"{first}": 1\n{FORMS["escaped nfd"](other)}: 2\n', "x.yaml") == {
        first: 1,
        unicodedata.normalize("NFC", other): 2,
    }

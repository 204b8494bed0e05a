"""One rubric, one id, whatever Unicode form its texts were typed in: the rubric's texts are read in NFC, as a YAML
file is (a title U+FB1D or U+212B from a mapping hashed differently from the same rubric read back from a run
config's inline copy: tests/store/test_migration_0015.py's hypothesis draw of 2026-12-04)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benger.judge import load_rubric, rubric_data, rubric_from_data
from benger.pipeline import RunConfig
from benger.pipeline._config import dump_run_config, parse_run_config

#: (NFC form, other forms of the same text)
FORMS = [
    ("\u00c5", ("\u212b", "A\u030a")),  # Å: the Angstrom sign and a combining ring
    ("\u05d9\u05b4", ("\ufb1d",)),  # Hebrew yod with hiriq: a composition exclusion
    ("\u00fc", ("u\u0308",)),  # ü typed with a combining diaeresis
    ("\u1e9b\u0323", ("\u017f\u0323\u0307",)),  # long s with dots, reordered marks
]
FIELDS = ["title", "label", "label_en", "question", "description", "instructions", "name", "version"]


def _rubric(field: str, text: str) -> dict[str, Any]:
    band = {"low": 0, "high": 3, "description": "alles"}
    dim: dict[str, Any] = {"key": "d0", "label": "Ergebnis", "label_en": "Result", "max": 3,
                           "question": "Stimmt es?", "bands": [band]}  # fmt: skip
    data: dict[str, Any] = {"name": "eigen", "version": "1", "title": "Eigener Bogen", "graded": False, "total": 3,
                            "step": 1, "dimensions": [dim], "instructions": "Prüfe."}  # fmt: skip
    if field in ("label", "label_en", "question"):
        dim[field] = f"x{text}"
    elif field == "description":
        dim["bands"][0]["description"] = f"x{text}"
    else:
        data[field] = f"x{text}"
    return data


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize(("nfc", "others"), FORMS)
def test_every_form_of_a_text_is_one_rubric(field: str, nfc: str, others: tuple[str, ...], tmp_path: Path) -> None:
    assert all(unicodedata.normalize("NFC", o) == nfc != o for o in others)  # the table's forms are what they say
    expected = rubric_from_data(_rubric(field, nfc))
    for other in others:
        data = _rubric(field, other)
        from_mapping = rubric_from_data(data)
        path = tmp_path / "bogen.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        from_file = load_rubric(path)
        text = dump_run_config(RunConfig(corpora=["c"], rubrics={"c": rubric_data(from_mapping)}))
        inline = parse_run_config(text, "run.yaml").resolved_rubrics()["c"]
        assert {r.id for r in (from_mapping, from_file, inline)} == {expected.id}
        assert from_mapping == expected


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12))
def test_a_title_keeps_its_id_through_a_run_config(title: str) -> None:
    rubric = rubric_from_data(_rubric("title", title))
    text = dump_run_config(RunConfig(corpora=["c"], rubrics={"c": rubric_data(rubric)}))
    assert parse_run_config(text, "run.yaml").resolved_rubrics()["c"].id == rubric.id

"""An HF export's scores are checked against the maxima of any registered rubric (issue 31), not only the paper's
two: a rubric registered by name is found by its id, a rubric in another version or unknown is not checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benger.interop._hf_import import _maxima
from benger.judge import RUBRICS, falloesung_rubric, load_rubric

DREI = """\
name: drei-hf
version: "2"
title: Drei
graded: false
total: 3
step: 1
dimensions:
  - {key: ergebnis, label: Ergebnis, label_en: Result, max: 2}
  - {key: sprache, label: Sprache, label_en: Language, max: 1}
"""


@pytest.fixture
def drei(tmp_path: Path) -> Iterator[str]:
    path = tmp_path / "drei.yaml"
    path.write_text(DREI, encoding="utf-8")
    RUBRICS.add("drei-hf", path)
    try:
        yield load_rubric(path).id
    finally:
        RUBRICS.remove("drei-hf")


def test_the_maxima_of_a_registered_rubric(drei: str) -> None:
    assert _maxima(drei) == {"ergebnis": 2.0, "sprache": 1.0}
    assert _maxima("drei-hf@2") == {"ergebnis": 2.0, "sprache": 1.0}
    assert _maxima("drei-hf@1") is None  # another version than the one registered
    assert _maxima("nicht-da@1") is None
    assert _maxima(falloesung_rubric().id) == falloesung_rubric().maxima()

"""Issue 33, item 1: umlauts written decomposed (NFD, as macOS writes them) mean what the composed ones mean.

Observed: a CSV header ``Musterlösung`` in NFD gave "field 'reference': required field missing", the area
``Öffentliches Recht`` in NFD "unknown area 'Öffentliches Recht'; expected one of ..., Öffentliches Recht",
a ``Begründung`` column "required field missing". Every file benger reads goes through
``benger.corpora._reading.read_text`` (and every YAML text through ``benger._yaml.load_yaml``), which return NFC.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from benger._yaml import load_yaml
from benger.corpora import load_corpus_file
from benger.corpora._reading import read_text
from benger.schema import Corpus

FALLOESUNG = ("task_id", "area", "title", "facts")
PRINCIPLE = ("task_id", "area", "principle", "case", "question", "gold_answer")
#: accepted header names and area spellings that hold an umlaut (what NFD changes)
HEADERS = {"reference": ("Musterlösung", "Lösung", "musterlösung"), "gold_reasoning": ("Begründung", "begründung")}
AREAS = ("Öffentliches Recht", "öffentliches recht", "Zivilrecht")


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _write(path: Path, header: list[str], row: list[str]) -> Path:
    path.write_text(",".join(header) + "\n" + ",".join(row) + "\n", encoding="utf-8")
    return path


def _falloesung(tmp_path: Path, reference: str, area: str, name: str = "c.csv") -> Corpus:
    header = [*FALLOESUNG, reference]
    return load_corpus_file(_write(tmp_path / name, header, ["t1", area, "T", "F", "R"]), name="c")


def test_an_nfd_musterloesung_header_is_the_reference(tmp_path: Path) -> None:
    corpus = _falloesung(tmp_path, _nfd("Musterlösung"), "Zivilrecht")
    assert corpus.tasks[0].reference == "R"  # type: ignore[union-attr]


def test_an_nfd_area_is_the_area(tmp_path: Path) -> None:
    corpus = _falloesung(tmp_path, "reference", _nfd("Öffentliches Recht"))
    assert corpus.tasks[0].area == "Öffentliches Recht"


def test_an_nfd_begruendung_header_is_the_gold_reasoning(tmp_path: Path) -> None:
    path = _write(tmp_path / "g.csv", [*PRINCIPLE, _nfd("Begründung")], ["g1", "Zivilrecht", "P", "C", "Q?", "Ja", "W"])
    assert load_corpus_file(path, name="g").tasks[0].gold_reasoning == "W"  # type: ignore[union-attr]


def _variant(text: str, pick: list[bool]) -> str:
    """``text`` with each composed character decomposed where ``pick`` says so (a mixed NFC/NFD spelling)."""
    out = []
    for index, char in enumerate(unicodedata.normalize("NFC", text)):
        out.append(_nfd(char) if pick[index % len(pick)] else char)
    return "".join(out)


@settings(max_examples=40, deadline=None)
@given(
    reference=st.sampled_from(HEADERS["reference"]),
    area=st.sampled_from(AREAS),
    pick=st.lists(st.booleans(), min_size=1, max_size=8),
    bom=st.booleans(),
)
def test_any_nfc_nfd_spelling_is_read_as_the_composed_one(
    tmp_path_factory: object, reference: str, area: str, pick: list[bool], bom: bool
) -> None:
    folder: Path = tmp_path_factory.mktemp("nfd")  # type: ignore[attr-defined]
    expected = _falloesung(folder, reference, area, "nfc.csv")
    variant = folder / "variant.csv"
    header = [*FALLOESUNG, _variant(reference, pick)]
    text = ",".join(header) + "\n" + ",".join(["t1", _variant(area, pick[::-1]), "T", "F", "R"]) + "\n"
    variant.write_bytes(("\ufeff" if bom else "").encode() + text.encode("utf-8"))
    assert load_corpus_file(variant, name="c").model_dump() == expected.model_dump()
    assert read_text(variant) == unicodedata.normalize("NFC", text)


def test_yaml_keys_and_values_are_read_composed() -> None:
    data = load_yaml(_nfd("begründung: Öffentliches Recht\n"), "r.yaml")
    assert data == {"begründung": "Öffentliches Recht"}

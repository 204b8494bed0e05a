"""Task ids of one user corpus that differ only in case (``Fall1`` / ``fall1``) are refused on import.

Observed (2026-12-04): a JSONL file with the ids ``Fall1`` and ``fall1`` imported as two tasks; in a CSV export
opened in a spreadsheet (whose lookups ignore case), in file names on a case-insensitive file system (macOS,
Windows) and to a reader they are one task. Now refused like a duplicate id, naming both lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.corpora import load_corpus_file
from benger.errors import InputError


def _record(task_id: str) -> dict[str, str]:
    return {"task_id": task_id, "area": "Zivilrecht", "facts": "K kauft bei V.", "reference": "A. Anspruch ..."}


def _write(path: Path, ids: list[str]) -> Path:
    if path.suffix == ".csv":
        rows = [f"{i},Zivilrecht,K kauft bei V.,A. Anspruch ..." for i in ids]
        path.write_text("task_id,area,facts,reference\n" + "\n".join(rows) + "\n", encoding="utf-8")
    else:
        path.write_text("".join(json.dumps(_record(i), ensure_ascii=False) + "\n" for i in ids), encoding="utf-8")
    return path


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_ids_differing_only_in_case_are_refused_naming_both_lines(tmp_path: Path, suffix: str) -> None:
    path = _write(tmp_path / f"faelle{suffix}", ["Fall1", "Fall2", "fall1"])
    line = 3 if suffix == ".jsonl" else 4  # the CSV header is line 1
    first = 1 if suffix == ".jsonl" else 2
    with pytest.raises(InputError) as err:
        load_corpus_file(path)
    assert str(err.value) == (
        f"{path}:{line}, field 'task_id': task_id 'fall1' differs from 'Fall1' (line {first}) only in case; ids "
        "that differ only in case are one id in spreadsheets and on case-insensitive file systems: give each "
        "task a distinct id"
    )


#: (ids, refused?): case-only twins are refused, ids that differ in more than case are kept
CASES = [
    (["Fall1", "fall1"], True),
    (["ZR-01", "zr-01"], True),
    (["Öffentlich-1", "öffentlich-1"], True),
    (["Fall1", "Fall1"], True),  # the same id twice (the message of a duplicate)
    (["Straße", "Strasse"], False),  # two spellings, not two cases
    (["Fall1", "Fall10"], False),
    (["a", "b", "A-1"], False),
]


@pytest.mark.parametrize(("ids", "refused"), CASES)
def test_case_twins_table(tmp_path: Path, ids: list[str], refused: bool) -> None:
    path = _write(tmp_path / "c.jsonl", ids)
    if not refused:
        assert [t.task_id for t in load_corpus_file(path).tasks] == ids
        return
    with pytest.raises(InputError, match=r"c\.jsonl:2, field 'task_id': (duplicate task_id|task_id .* only in case)"):
        load_corpus_file(path)


@settings(max_examples=40, deadline=None)
@given(st.text(st.sampled_from("abcXYZäÖ-1"), min_size=1, max_size=6).filter(lambda s: s.lower() != s.upper()))
def test_every_case_variant_of_an_id_is_refused(tmp_path_factory: pytest.TempPathFactory, task_id: str) -> None:
    path = _write(tmp_path_factory.mktemp("ids") / "c.jsonl", [task_id, task_id.swapcase()])
    with pytest.raises(InputError, match=r":2, field 'task_id'"):
        load_corpus_file(path)

"""Every importer meets bad files: user JSONL/CSV, the ZJS export, the release. Files are made at test time.

A table of hand-made bad files (each one a kind a careless or hostile user produces) and hypothesis
mutations of good files; the release cases mutate a symlinked copy of the real release in tmp_path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ._fuzz import TALLY, check_rejected, dump, invoke, release_copy, store_copy

FALL = {"kind": "falloesung", "bereich": "Zivilrecht", "sachverhalt": "A kauft.", "musterloesung": "Gutachten."}
GP = {"kind": "grundprinzip", "bereich": "Strafrecht", "fall": "F", "frage": "Q?", "antwort": "Ja", "begruendung": "B"}
GOOD_JSONL = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in (FALL, GP, {**FALL, "task_id": "f2"}))
GOOD_CSV = "bereich,sachverhalt,musterloesung\nZivilrecht,A kauft.,Gutachten.\nStrafrecht,B stiehlt.,Gutachten.\n"

_deep = "[" * 200_000 + "]" * 200_000
# (file name, content): every one is bad
BAD_USER_FILES: list[tuple[str, bytes]] = [
    ("deep.jsonl", ('{"meta": ' + _deep + "}\n").encode()),
    ("bigint.jsonl", ('{"task_id": ' + "7" * 5000 + "}\n").encode()),
    ("nan.jsonl", (json.dumps(FALL)[:-1] + ', "difficulty": NaN}\n').encode()),
    ("inf.jsonl", (json.dumps(FALL)[:-1] + ', "title": 1e999}\n').encode()),
    ("twice.jsonl", b'{"bereich": "Zivilrecht", "sachverhalt": "A", "sachverhalt": "B", "musterloesung": "C"}\n'),
    ("latin1.jsonl", json.dumps({**FALL, "sachverhalt": "Prüfung"}, ensure_ascii=False).encode("latin-1")),
    ("ff.csv", GOOD_CSV.encode() + b"Zivilrecht,A\xff,B\n"),
    ("truncated.jsonl", GOOD_JSONL.encode()[:-20]),
    ("list.jsonl", b"[1, 2, 3]\n"),
    ("empty.jsonl", b""),
    ("blank.csv", b"\n\n"),
    ("nul.jsonl", b"\x00\x00\x00"),
    ("noarea.jsonl", (json.dumps({"sachverhalt": "A", "musterloesung": "B"}) + "\n").encode()),
    ("badarea.jsonl", (json.dumps({**FALL, "bereich": "Seerecht"}) + "\n").encode()),
    ("badanswer.jsonl", (json.dumps({**GP, "antwort": "Vielleicht"}) + "\n").encode()),
    ("dupid.jsonl", (json.dumps({**FALL, "id": "x"}) + "\n" + json.dumps({**FALL, "id": "x"}) + "\n").encode()),
    ("numbertext.jsonl", (json.dumps({**FALL, "sachverhalt": ["A", "B"]}) + "\n").encode()),
    ("quote-last.csv", (GOOD_CSV + 'Zivilrecht,C,"D\nZivilrecht,E,F\n').encode()),
    ("quote-mid.csv", (GOOD_CSV + 'Zivilrecht,"C,D\nZivilrecht,E,F\n').encode()),
    ("semicolon.csv", GOOD_CSV.replace(",", ";").encode()),
    ("tabs.csv", GOOD_CSV.replace(",", "\t").encode()),
    ("extra-cells.csv", (GOOD_CSV + "Zivilrecht,A,B,C,D\n").encode()),
    ("few-cells.csv", (GOOD_CSV + "Zivilrecht,A\n").encode()),
    ("inttext.jsonl", (json.dumps({**FALL, "sachverhalt": 123}) + "\n").encode()),
    ("surrogate.jsonl", (json.dumps({**FALL, "sachverhalt": "x\ud800"}) + "\n").encode()),
    ("surrogate-meta.jsonl", (json.dumps({**FALL, "meta": {"quelle": ["a", "x\ud800"]}}) + "\n").encode()),
    ("surrogate-metakey.jsonl", (json.dumps({**FALL, "meta": {"\udfff": 1}}) + "\n").encode()),
    ("surrogate-unknown.jsonl", (json.dumps({**FALL, "notiz": "\udc00"}) + "\n").encode()),
    ("surrogate-meta.csv", b'bereich,sachverhalt,musterloesung,meta\nZivilrecht,A,B,"{""x"": ""\\ud800""}"\n'),
    ("dupcol.csv", b"bereich,bereich,sachverhalt,musterloesung\nZivilrecht,Zivilrecht,A,B\n"),
    ("meta.csv", b"bereich,sachverhalt,musterloesung,meta\nZivilrecht,A,B,{not json\n"),
    ("deepmeta.csv", b"bereich,sachverhalt,musterloesung,meta\nZivilrecht,A,B," + b"[" * 5000 + b"]" * 5000 + b"\n"),
    ("utf16-broken.jsonl", b"\xff\xfe" + "{}".encode("utf-16-le") + b"\x00"),
    ("suffix.txt", GOOD_JSONL.encode()),
]
BAD_ZJS: list[tuple[str, bytes]] = [
    ("zjs-deep.json", ("[" + _deep + "]").encode()),
    ("zjs-object.json", b'{"cases": []}'),
    ("zjs-nan.json", b'[{"id": "z1", "data": {"bereich": "Zivilrecht", "sachverhalt": NaN, "musterloesung": "x"}}]'),
    ("zjs-data.json", b'[{"id": "z1", "data": "text"}]'),
    ("zjs-trunc.json", b'[{"id": "z1", "data": {"bereich": "Zivil'),
]


def _write(folder: Path, name: str, content: bytes) -> Path:
    path = folder / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(("name", "content"), BAD_USER_FILES, ids=[n for n, _ in BAD_USER_FILES])
def test_bad_user_files(demo_store: Path, tmp_path: Path, name: str, content: bytes) -> None:
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    path = _write(tmp_path, name, content)
    check_rejected(invoke(["import", str(path), "--db", str(store)]), [str(path), name], store, before)


@pytest.mark.parametrize(("name", "content"), BAD_ZJS, ids=[n for n, _ in BAD_ZJS])
def test_bad_zjs_exports(demo_store: Path, tmp_path: Path, name: str, content: bytes) -> None:
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    path = _write(tmp_path, name, content)
    check_rejected(invoke(["import", f"zjs:{path}", "--db", str(store)]), [str(path)], store, before)


_NASTY = st.sampled_from(
    ['"', "{", "}", "[", "]", ",", ":", "\n", "NaN", "Infinity", "1e999", "7" * 5000, "[" * 300, "\ufeff", ";", "\\"]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(["fuzz.jsonl", "fuzz.csv"]),
    st.lists(st.tuples(st.integers(min_value=0), _NASTY | st.binary(min_size=1, max_size=3)), min_size=1, max_size=4),
    st.booleans(),
)
def test_mutated_user_files_are_imported_or_rejected_clearly(
    demo_store: Path, tmp_path_factory: pytest.TempPathFactory, name: str, edits: list[tuple[int, object]], cut: bool
) -> None:
    folder = tmp_path_factory.mktemp("mut")
    data = bytearray((GOOD_JSONL if name.endswith("jsonl") else GOOD_CSV).encode())
    for position, piece in edits:
        insert = piece.encode() if isinstance(piece, str) else piece
        assert isinstance(insert, bytes)
        data[position % (len(data) + 1) : position % (len(data) + 1)] = insert
    if cut:
        data = data[: len(data) * 2 // 3]
    store = store_copy(demo_store, folder / "s")
    before = dump(store)
    path = _write(folder, name, bytes(data))
    result = invoke(["import", str(path), "--db", str(store)])
    if result.exit_code == 0 and "Traceback" not in result.output:
        TALLY["still valid"] += 1  # the mutation left a valid corpus (the import is then correct)
        return
    check_rejected(result, [str(path)], store, before)


# -- the release -------------------------------------------------------------------------------------------
GRADES = "data/processed/benchathon_human_grades.json"
SYSTEMS = "data/processed/systems.json"
EVALS = "data/processed/benchathon_model_evaluations.json"
ANCHORS = "data/processed/csv/creator_calibration_anchors.csv"
SAMPLE = "data/interim/benchathon_human_grading_sample.json"
GP_FILE = "data/interim/grundprinzipien.json"


def _json_edit(rel: str, index: int, key: str, value: object) -> tuple[str, object]:
    return rel, lambda text: _replace(text, index, key, value)


def _replace(text: str, index: int, key: str, value: object) -> str:
    rows = json.loads(text)
    rows[index][key] = value
    return json.dumps(rows, indent=2, ensure_ascii=False)


BAD_RELEASE: list[tuple[str, object]] = [
    _json_edit(EVALS, 0, "output_tokens", "viele"),
    _json_edit(SYSTEMS, 0, "temperature", "warm"),
    _json_edit(SYSTEMS, 1, "max_output_tokens", "viel"),
    _json_edit(SYSTEMS, 2, "raw_model_ids", "abc"),
    _json_edit(GRADES, 3, "raw_score", float("nan")),
    _json_edit(GRADES, 4, "raw_score", float("-inf")),
    _json_edit(GRADES, 5, "grade_points", 10**30),
    _json_edit(GRADES, 6, "passed", "ja"),
    _json_edit(GP_FILE, 0, "Grundprinzip", 42),
    _json_edit(GP_FILE, 1, "Bereich", "Seerecht"),
    _json_edit(EVALS, 2, "dimensions", {"sprache": 99}),
    (GRADES, lambda text: text[: len(text) // 2]),
    (EVALS, lambda text: json.dumps([*json.loads(text), json.loads(text)[0]], indent=2)),  # a duplicate id
    (GRADES, lambda text: ""),
    (GRADES, lambda text: "{}"),
    (SYSTEMS, lambda text: "[" * 100_000 + "]" * 100_000),
    (SYSTEMS, lambda text: text.replace('"size": null', '"size": ' + "9" * 5000, 1)),
    (SYSTEMS, lambda text: text.replace('"tier": "flagship",', '"tier": "flagship", "tier": "small",', 1)),
    (SAMPLE, lambda text: text.replace('"picks": [', '"picks": "none", "x": [', 1)),
    (ANCHORS, lambda text: text.replace(",human,", ',"human,', 1)),
    (ANCHORS, lambda text: text.replace(",", ";")),
    (ANCHORS, lambda text: text.replace("92.5000", "nan", 1)),
    (ANCHORS, lambda text: text.splitlines()[0] + "\n"),
]


def _mutated_release(release_dir: Path, root: Path, rel: str, edit: object) -> Path:
    release_copy(release_dir, root)
    target = root / rel
    text = (release_dir / rel).read_text(encoding="utf-8")
    target.unlink()
    assert callable(edit)
    target.write_text(edit(text), encoding="utf-8")
    return target


@pytest.mark.parametrize(
    ("rel", "edit"), BAD_RELEASE, ids=[f"{i}-{Path(r).name}" for i, (r, _) in enumerate(BAD_RELEASE)]
)
def test_bad_release_files(release_dir: Path, demo_store: Path, tmp_path: Path, rel: str, edit: object) -> None:
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    target = _mutated_release(release_dir, tmp_path / "rel", rel, edit)
    result = invoke(["import", f"release:{tmp_path / 'rel'}", "--db", str(store)])
    check_rejected(result, [str(target)], store, before)


SUPERSEDED = "data/processed/benchathon_superseded_evaluations.json"


def test_a_generation_both_final_and_superseded_is_named(release_dir: Path, demo_store: Path, tmp_path: Path) -> None:
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    final = json.loads((release_dir / EVALS).read_text(encoding="utf-8"))[5]["generation_id"]
    target = _mutated_release(
        release_dir, tmp_path / "rel", SUPERSEDED, lambda text: _replace(text, 1, "generation_id", final)
    )
    result = invoke(["import", f"release:{tmp_path / 'rel'}", "--db", str(store)])
    check_rejected(result, [str(target)], store, before)
    # record 2 of the superseded file: with indent=2 a record spans 21 lines (8 keys, 10 dimensions, braces),
    # so its generation_id is on line 5 + 21 = 26
    assert f"{target}:26, record 2, field 'generation_id': generation_id '{final}' is also in " in result.output


def test_bad_byte_and_missing_file_in_the_release(release_dir: Path, demo_store: Path, tmp_path: Path) -> None:
    store = store_copy(demo_store, tmp_path / "s")
    before = dump(store)
    target = _mutated_release(release_dir, tmp_path / "rel", ANCHORS, lambda text: text)
    target.write_bytes(target.read_bytes().replace(b"human", b"hu\xffman", 1))
    check_rejected(invoke(["import", f"release:{tmp_path / 'rel'}", "--db", str(store)]), [str(target)], store, before)
    target.unlink()
    check_rejected(invoke(["import", f"release:{tmp_path / 'rel'}", "--db", str(store)]), [str(target)], store, before)
    check_rejected(
        invoke(["reproduce", "--release", str(tmp_path / "rel"), "--out", str(tmp_path / "o")]), [str(target)]
    )


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
_FILES = [GRADES, SYSTEMS, EVALS, GP_FILE, "data/processed/benchathon_human_judge_repeats.json"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_FILES), st.integers(min_value=0, max_value=10), st.data())
def test_random_values_in_release_records(
    release_dir: Path,
    demo_store: Path,
    tmp_path_factory: pytest.TempPathFactory,
    rel: str,
    index: int,
    data: st.DataObject,
) -> None:
    rows = json.loads((release_dir / rel).read_text(encoding="utf-8"))
    key = data.draw(st.sampled_from(sorted(rows[index])))
    value = data.draw(_VALUES)
    folder = tmp_path_factory.mktemp("relmut")
    store = store_copy(demo_store, folder / "s")
    before = dump(store)
    target = _mutated_release(release_dir, folder / "rel", rel, lambda text: _replace(text, index, key, value))
    result = invoke(["import", f"release:{folder / 'rel'}", "--db", str(store)])
    if result.exit_code == 0 and "Traceback" not in result.output:
        TALLY["still valid"] += 1  # e.g. a new text in a free-text field
        return
    check_rejected(result, [str(target)], store, before)

"""``benger export hf`` / ``benger import hf`` (issue 29): every table out and back in unchanged, the leaderboard
identical, the card and manifest honest, and bad folders refused with file/record/field (exit 2, nothing written).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.analysis import leaderboard_from_store
from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora import load_demo_corpora
from benger.errors import InputError
from benger.interop.hf import export_hf, read_hf
from benger.schema import Generation, HumanReview, HumanSolution, Judgement, SystemConfig
from benger.store import Store, open_store

pytestmark = pytest.mark.slow  # each test writes and reads a store and computes its leaderboard (2-7 s)
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

_register_commands()
runner = CliRunner()
SYSTEM = SystemConfig(name="sys-a", provider="openai-compatible", model="m", base_url="http://127.0.0.1:9/v1")
FALL_DIMS = {
    "ergebnisrichtigkeit": 16.5,
    "vollstaendigkeit": 8.0,
    "rechtsgrundlagen": 7.5,
    "rechtskenntnis": 11.0,
    "subsumtion": 10.0,
    "schwerpunktsetzung": 7.0,
    "methodischer_stil": 6.5,
    "gliederung": 4.0,
    "sprache": 2.5,
    "formalia": 1.0,
}


def _fill(store: Store) -> None:
    """A store with every kind of record: demo corpora, a system, generations of both kinds, a scored and an
    unscored judgement, a human solution and its review, metric values."""
    store.add_corpora(load_demo_corpora())
    store.upsert_system(SYSTEM)
    h = SYSTEM.config_hash()
    gens = [
        Generation(
            generation_id="g1",
            task_id="demo-zr-1",
            corpus="demo-falloesung",
            system="sys-a",
            config_hash=h,
            text="A. Anspruch ...\nB. Ergebnis",
            input_tokens=10,
            output_tokens=300,
            latency_s=1.25,
            meta={"prompt_hash": "p1", "nested": {"ä": [1, 2]}},
        ),
        Generation(
            generation_id="g2",
            task_id="demo-gp-01",
            corpus="demo-grundprinzipien",
            system="sys-a",
            config_hash=h,
            text="Weil ...",
            answer="Ja",
        ),
        Generation(
            generation_id="g3",
            task_id="demo-gp-02",
            corpus="demo-grundprinzipien",
            system="sys-a",
            config_hash=h,
            status="failed",
            reason="RateLimit: 429",
        ),
    ]
    for gen in gens:
        store.save_generation(gen)
    store.save_judgement(
        Judgement(
            judgement_id="j1",
            target_kind="generation",
            target_id="g1",
            judge="jdg",
            judge_config_hash="jh",
            rubric_id="falloesung@1",
            status="scored",
            dimensions=FALL_DIMS,
            justifications={k: f"Begründung {k}" for k in FALL_DIMS},
            total=sum(FALL_DIMS.values()),
            grade_points=11,
            passed=True,
            model_total=75.0,
            meta={"template_hash": "t"},
        )
    )
    store.save_judgement(
        Judgement(
            judgement_id="j2",
            target_kind="generation",
            target_id="g2",
            judge="jdg",
            judge_config_hash="jh",
            rubric_id="grundprinzipien@1",
            status="unscored",
            reason="unparseable after 3 attempts: x",
        )
    )
    store.add_human_solution(
        HumanSolution(
            solution_id="s1",
            task_id="demo-sr-1",
            corpus="demo-falloesung",
            participant_id="p7",
            condition="co_creation",
            text="Lösung\x00mit NUL",
        )
    )
    store.add_human_review(
        HumanReview(
            review_id="r1",
            target_kind="human_solution",
            target_id="s1",
            task_id="demo-sr-1",
            grader_id="rev1",
            role="blind",
            dimensions=FALL_DIMS,
            raw_score=sum(FALL_DIMS.values()),
            grade_points=11,
            passed=True,
            position=0,
        )
    )
    store.save_metric_value("generation", "g1", "bleu", "nrefs:1|tok:13a", 0.125, {"n": 1})
    store.save_metric_value("generation", "g1", "chrf", "release", 40.5)


def _dump(store: Store) -> dict[str, Any]:
    return {
        "corpora": [store.load_corpus(n).model_dump() for n in store.corpus_names()],
        "systems": [s.model_dump() for s in store.systems()],
        "generations": [g.model_dump() for g in store.generations()],
        "solutions": [s.model_dump() for s in store.human_solutions()],
        "judgements": [j.model_dump() for j in store.judgements()],
        "reviews": [r.model_dump() for r in store.human_reviews()],
        "metrics": [m.model_dump() for m in store.metric_values()],
    }


@pytest.fixture
def filled(tmp_path: Path) -> Store:
    store = open_store(tmp_path / "a.db")
    _fill(store)
    yield store
    store.close()


def test_round_trip_keeps_every_record_and_the_leaderboard(filled: Store, tmp_path: Path) -> None:
    result = export_hf(filled, tmp_path / "out")
    assert result.splits == {"demo-falloesung": "demo_falloesung", "demo-grundprinzipien": "demo_grundprinzipien"}
    assert result.counts["judgements"] == {"demo_falloesung": 1, "demo_grundprinzipien": 1}
    assert result.counts["tasks"] == {"demo_falloesung": 3, "demo_grundprinzipien": 13}
    copy = open_store(tmp_path / "b.db")
    try:
        counts = copy.import_records(read_hf(tmp_path / "out"))
        assert counts["generations"] == 3 and counts["judgements"] == 2 and counts["human_reviews"] == 1
        assert _dump(copy) == _dump(filled)
        assert leaderboard_from_store(copy).to_csv() == leaderboard_from_store(filled).to_csv()
    finally:
        copy.close()


def test_parquet_columns_are_typed_and_judgements_carry_dimensions(filled: Store, tmp_path: Path) -> None:
    export_hf(filled, tmp_path / "out")
    table = pq.read_table(tmp_path / "out" / "judgements" / "demo_falloesung.parquet")
    assert table.schema.field("total").type == pa.float64()
    assert table.schema.field("grade_points").type == pa.int64()
    assert table.schema.field("dimensions").type == pa.list_(
        pa.struct([("dimension", pa.string()), ("score", pa.float64())])
    )
    row = table.to_pylist()[0]
    assert [d["dimension"] for d in row["dimensions"]] == list(FALL_DIMS)
    assert sum(d["score"] for d in row["dimensions"]) == row["total"] == 74.0
    assert row["justifications"][0] == {
        "dimension": "ergebnisrichtigkeit",
        "justification": "Begründung ergebnisrichtigkeit",
    }
    unscored = pq.read_table(tmp_path / "out" / "judgements" / "demo_grundprinzipien.parquet").to_pylist()[0]
    assert unscored["dimensions"] is None and unscored["total"] is None  # unscored is never 0


def test_card_and_manifest(filled: Store, tmp_path: Path) -> None:
    export_hf(filled, tmp_path / "out")
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    front = card.split("---\n")[1]
    import yaml

    meta = yaml.safe_load(front)
    assert meta["license"] == "other"  # no release data in this store
    judgements = next(c for c in meta["configs"] if c["config_name"] == "judgements")
    assert judgements["data_files"] == [
        {"split": "demo_falloesung", "path": "judgements/demo_falloesung.parquet"},
        {"split": "demo_grundprinzipien", "path": "judgements/demo_grundprinzipien.parquet"},
    ]
    assert "| `ergebnisrichtigkeit` |" in card and "arXiv" in card and "@misc{nagl2026benger" in card
    assert "| judgements | demo_falloesung | demo-falloesung | 1 |" in card
    manifest = json.loads((tmp_path / "out" / "benger_export.json").read_text(encoding="utf-8"))
    assert manifest["format"] == "benger-hf/1" and "tasks/demo_falloesung.parquet" in manifest["files"]
    assert (tmp_path / "out" / "results" / "leaderboard.csv").read_text(encoding="utf-8") == leaderboard_from_store(
        filled
    ).to_csv()


def test_export_never_overwrites_a_file_it_did_not_write_and_leaves_nothing_on_failure(
    filled: Store, tmp_path: Path
) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "README.md").write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match="a file benger did not write"):
        export_hf(filled, tmp_path / "full")
    assert [p.name for p in (tmp_path / "full").iterdir()] == ["README.md"]
    (tmp_path / "full" / "README.md").rename(tmp_path / "full" / "notes.md")
    export_hf(filled, tmp_path / "full")  # a folder with other files: they are kept
    export_hf(filled, tmp_path / "full")  # a rerun replaces the export
    assert (tmp_path / "full" / "notes.md").read_text(encoding="utf-8") == "x"
    (tmp_path / "empty").mkdir()
    export_hf(filled, tmp_path / "empty")  # an empty folder is fine
    assert (tmp_path / "empty" / "README.md").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_a_failed_export_leaves_nothing(filled: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from benger.interop import _hf_export

    def broken(*_args: Any) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_hf_export, "dataset_card", broken)
    with pytest.raises(OSError, match="No space"):
        export_hf(filled, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _exported(filled: Store, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    export_hf(filled, out)
    return out


def _rehash(path: Path) -> None:
    """Record ``path``'s new sha256 in its export's manifest (an edit that also edits the manifest)."""
    import hashlib

    folder = path.parent.parent
    manifest = json.loads((folder / "benger_export.json").read_text(encoding="utf-8"))
    manifest["files"][path.relative_to(folder).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    (folder / "benger_export.json").write_text(json.dumps(manifest), encoding="utf-8")


def _rewrite(path: Path, change: Any, *, rehash: bool = True) -> None:
    rows = pq.read_table(path).to_pylist()
    schema = pq.read_schema(path)
    change(rows)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    if rehash:
        _rehash(path)


def _set_score(dimension: str, value: float) -> Any:
    def change(rows: list[dict[str, Any]]) -> None:
        rows[0]["dimensions"] = [
            {"dimension": d["dimension"], "score": value if d["dimension"] == dimension else d["score"]}
            for d in rows[0]["dimensions"]
        ]

    return change


BAD_EXPORTS = [
    ("tasks/demo_falloesung.parquet", lambda rows: rows[1].update(area="Völkerrecht"), "record 2, field 'area'"),
    (
        "generations/demo_grundprinzipien.parquet",
        lambda rows: rows[0].update(meta="{oops"),
        "record 1, field 'meta': not valid JSON",
    ),
    (
        "generations/demo_falloesung.parquet",
        lambda rows: rows[0].update(task_id="nope"),
        "field 'task_id': task 'nope'",
    ),
    (
        "generations/demo_grundprinzipien.parquet",
        lambda rows: rows[1].update(generation_id="g2"),
        "duplicate generation_id 'g2'",
    ),
    (
        "systems/all.parquet",
        lambda rows: rows[0].update(config=rows[0]["config"].replace('"m"', '"n"')),
        "field 'config_hash'",
    ),
    ("judgements/demo_falloesung.parquet", lambda rows: rows[0].update(status="great"), "record 1, field 'status'"),
    # scores that the rubric cannot give (hand-computed: FALL_DIMS sums to 74.0; sprache's maximum is 3)
    (
        "judgements/demo_falloesung.parquet",
        lambda rows: rows[0].update(total=99.0),
        "record 1, field 'total': total 99.0 != sum of dimensions 74.0",
    ),
    (
        "judgements/demo_falloesung.parquet",
        _set_score("sprache", 500.0),
        "record 1, field 'dimensions.sprache': sprache must lie in [0, 3.0], got 500.0",
    ),
    (
        "judgements/demo_falloesung.parquet",
        _set_score("formalia", -1.0),
        "record 1, field 'dimensions.formalia': formalia must lie in [0, 2.0], got -1.0",
    ),
    (
        "human_reviews/demo_falloesung.parquet",
        lambda rows: rows[0].update(raw_score=80.0),
        "record 1, field 'raw_score': raw_score 80.0 != sum of dimensions 74.0",
    ),
]


@pytest.mark.parametrize(("file", "change", "message"), BAD_EXPORTS, ids=[b[2][:30] for b in BAD_EXPORTS])
def test_a_damaged_export_is_refused_naming_file_record_field(
    filled: Store, tmp_path: Path, file: str, change: Any, message: str
) -> None:
    out = _exported(filled, tmp_path)
    _rewrite(out / file, change)
    db = tmp_path / "new.db"
    result = runner.invoke(app, ["import", "hf", str(out), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert file in result.output and message in result.output, result.output
    assert "Traceback" not in result.output and not db.exists()  # read before the store is opened


def _import_fails(out: Path, tmp_path: Path) -> str:
    db = tmp_path / "new.db"
    result = runner.invoke(app, ["import", "hf", str(out), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and not db.exists(), result.output
    return result.output


def test_a_file_changed_after_the_export_is_refused_by_its_sha256(filled: Store, tmp_path: Path) -> None:
    """An edited table (manifest untouched) is refused naming the file, even where the edit is a valid row."""
    out = _exported(filled, tmp_path)
    _rewrite(out / "judgements" / "demo_falloesung.parquet", _set_score("sprache", 1.0), rehash=False)
    output = _import_fails(out, tmp_path)
    assert "judgements/demo_falloesung.parquet" in output and "sha256 differs from the manifest" in output


def test_a_missing_table_file_is_refused_not_read_as_empty(filled: Store, tmp_path: Path) -> None:
    out = _exported(filled, tmp_path)
    (out / "human_reviews" / "demo_falloesung.parquet").unlink()
    output = _import_fails(out, tmp_path)
    assert "human_reviews/demo_falloesung.parquet" in output and "file missing" in output
    # also when the manifest's list of files was edited to drop it: its counts still list the rows
    manifest = json.loads((out / "benger_export.json").read_text(encoding="utf-8"))
    del manifest["files"]["human_reviews/demo_falloesung.parquet"]
    (out / "benger_export.json").write_text(json.dumps(manifest), encoding="utf-8")
    output = _import_fails(out, tmp_path)
    assert "human_reviews/demo_falloesung.parquet" in output and "the manifest counts 1 rows" in output


def test_a_table_file_added_after_the_export_is_refused(filled: Store, tmp_path: Path) -> None:
    out = _exported(filled, tmp_path)
    extra = out / "judgements" / "extra.parquet"
    extra.write_bytes((out / "judgements" / "demo_falloesung.parquet").read_bytes())
    output = _import_fails(out, tmp_path)
    assert "judgements/extra.parquet" in output and "not listed in the export's manifest" in output


def test_unreadable_parquet_and_missing_column(filled: Store, tmp_path: Path) -> None:
    out = _exported(filled, tmp_path)
    (out / "tasks" / "demo_falloesung.parquet").write_bytes(b"not parquet at all")
    _rehash(out / "tasks" / "demo_falloesung.parquet")
    with pytest.raises(InputError, match="not a readable parquet file") as info:
        read_hf(out)
    assert info.value.file is not None and info.value.file.endswith("demo_falloesung.parquet")
    out2 = tmp_path / "out2"
    export_hf(filled, out2)
    table = pq.read_table(out2 / "metric_values" / "demo_falloesung.parquet").drop(["signature"])
    pq.write_table(table, out2 / "metric_values" / "demo_falloesung.parquet")
    _rehash(out2 / "metric_values" / "demo_falloesung.parquet")
    with pytest.raises(InputError, match="column missing") as info:
        read_hf(out2)
    assert info.value.field == "signature"


def test_cli_export_then_import(filled: Store, tmp_path: Path) -> None:
    filled.close()
    out = tmp_path / "cli-out"
    result = runner.invoke(app, ["export", "hf", str(tmp_path / "a.db"), str(out)])
    assert result.exit_code == 0, result.output
    assert "judgements: demo_falloesung 1, demo_grundprinzipien 1" in result.output
    result = runner.invoke(app, ["import", "hf", str(out), "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 0, result.output
    assert "generations: 3" in result.output and "human_reviews: 1" in result.output
    again = runner.invoke(app, ["import", f"hf:{out}", "--db", str(tmp_path / "c.db")])
    assert again.exit_code == 0, again.output  # importing twice changes nothing
    missing = runner.invoke(app, ["export", "hf", str(tmp_path / "nostore.db"), str(tmp_path / "x")])
    assert missing.exit_code == 2 and "no benger store here" in missing.output
    bare = runner.invoke(app, ["import", "hf"])
    assert bare.exit_code == 2 and "hf needs a path" in bare.output


def _write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path)


GP_ROWS = [
    {
        "id": "q1",
        "Bereich": "Zivilrecht",
        "Sachlage": "A verkauft B ein Rad.",
        "Frage": "Ist ein Vertrag geschlossen?",
        "Lösung": "Ja",
        "begruendung": "Angebot und Annahme liegen vor.",
        "quelle": "eigene",
    },
    {
        "id": "q2",
        "Bereich": "Strafrecht",
        "Sachlage": "T nimmt Strom.",
        "Frage": "Ist das Diebstahl?",
        "Lösung": "Nein",
        "begruendung": "Strom ist keine Sache.",
        "quelle": "eigene",
    },
]


def test_any_datasets_folder_maps_to_a_corpus(tmp_path: Path) -> None:
    folder = tmp_path / "my-items"
    _write_rows(folder / "data" / "train-00000-of-00001.parquet", GP_ROWS)
    _write_rows(folder / "data" / "test-00000-of-00001.parquet", [GP_ROWS[0] | {"id": "q3"}])
    args = [
        "import",
        "hf",
        str(folder),
        "--map",
        "Sachlage=case",
        "--map",
        "Lösung=gold_answer",
        "--db",
        str(tmp_path / "s.db"),
    ]
    result = runner.invoke(app, [*args, "--split", "train"])
    assert result.exit_code == 0, result.output
    store = open_store(tmp_path / "s.db")
    try:
        corpus = store.load_corpus("my-items")
        assert [t.task_id for t in corpus.tasks] == ["q1", "q2"]
        first = corpus.tasks[0]
        assert first.kind == "grundprinzip" and first.gold_answer == "Ja" and first.meta == {"quelle": "eigene"}
        assert first.question == "Ist ein Vertrag geschlossen?"  # 'Frage' is a known alias: no --map needed
    finally:
        store.close()


def test_a_bad_row_of_a_datasets_folder_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "items"
    _write_rows(folder / "train.parquet", [GP_ROWS[0], GP_ROWS[1] | {"Bereich": "Völkerrecht"}])
    db = tmp_path / "s.db"
    result = runner.invoke(
        app, ["import", "hf", str(folder), "--map", "Sachlage=case", "--map", "Lösung=gold_answer", "--db", str(db)]
    )
    assert result.exit_code == 2
    assert "train.parquet, record 2, field 'Bereich': unknown area 'Völkerrecht'" in result.output, result.output
    assert not db.exists()
    bad_map = runner.invoke(app, ["import", "hf", str(folder), "--map", "Sachlage=sachverhalt_x", "--db", str(db)])
    assert bad_map.exit_code == 2 and "not a benger corpus field" in bad_map.output
    absent = runner.invoke(app, ["import", "hf", str(folder), "--map", "Nope=case", "--db", str(db)])
    assert absent.exit_code == 2 and "field 'Nope'" in absent.output and "does not have" in absent.output
    no_split = runner.invoke(app, ["import", "hf", str(folder), "--split", "dev", "--db", str(db)])
    assert no_split.exit_code == 2 and "no split 'dev'" in no_split.output
    assert not db.exists()

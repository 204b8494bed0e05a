"""``benger export hf`` -> ``benger import hf`` keeps the stored rubrics (attack item 3): a store judged under the
paper's rubric and an own rubric round-trips to the same ``rubrics`` table (ids, content hashes, content) and the
same leaderboard (the own rubric's 13/20 stays ``65%``, never paper grade points), every table a store holds is
exported or named as left out on purpose, and a rubric changed after the export is refused."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from benger.analysis import leaderboard_from_store
from benger.corpora import load_demo_corpora
from benger.errors import InputError
from benger.interop import _hf_tables as t
from benger.interop.hf import export_hf, read_hf
from benger.judge import falloesung_rubric, rubric_from_data, save_rubrics
from benger.schema import Generation, HumanReview, HumanSolution, Judgement, SystemConfig
from benger.store import Store, open_store

pytestmark = pytest.mark.slow  # each test writes and reads two stores and their leaderboards (1-3 s)
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

OWN = rubric_from_data(
    {
        "name": "umlaut",
        "version": "1",
        "title": "Eigener Bogen",
        "kind": "falloesung",
        "graded": False,
        "total": 20,
        "step": 1,
        "dimensions": [
            {"key": "prüfung", "label": "Prüfung", "label_en": "Examination", "max": 10},
            {"key": "würdigung", "label": "Würdigung", "label_en": "Appraisal", "max": 10},
        ],
    }
)
PAPER = falloesung_rubric()
SYSTEM = SystemConfig(name="sys-ä", provider="openai-compatible", model="m", base_url="http://127.0.0.1:9/v1")


def _judgement(n: int, target: str, rubric: Any, dims: dict[str, float]) -> Judgement:
    return Judgement(
        judgement_id=f"j{n}",
        target_kind="generation",
        target_id=target,
        judge="jüdge",
        judge_config_hash="jh",
        rubric_id=rubric.id,
        status="scored",
        dimensions=dims,
        total=sum(dims.values()),
        grade_points=rubric.grade_points(sum(dims.values())),
        passed=rubric.passed(sum(dims.values())),
    )


def _fill(store: Store) -> None:
    store.add_corpora(load_demo_corpora())
    store.upsert_system(SYSTEM)
    h = SYSTEM.config_hash()
    for n, task in enumerate(("demo-zr-1", "demo-sr-1"), start=1):
        store.save_generation(
            Generation(
                generation_id=f"g{n}", task_id=task, corpus="demo-falloesung", system="sys-ä", config_hash=h, text="A."
            )
        )
    save_rubrics(store, [PAPER, OWN])
    paper_dims = {d.key: d.max / 2 for d in PAPER.dimensions}
    store.save_judgement(_judgement(1, "g1", PAPER, paper_dims))
    store.save_judgement(_judgement(2, "g2", OWN, {"prüfung": 6.0, "würdigung": 7.0}))
    store.add_human_solution(
        HumanSolution(
            solution_id="s1",
            task_id="demo-sr-1",
            corpus="demo-falloesung",
            participant_id="p1",
            condition="traditional",
            text="B.",
        )
    )
    store.add_human_review(
        HumanReview(
            review_id="r1",
            target_kind="generation",
            target_id="g2",
            task_id="demo-sr-1",
            grader_id="rev",
            role="blind",
            dimensions={"prüfung": 5.0, "würdigung": 7.0},
            raw_score=12.0,
            grade_points=None,
            passed=None,
            position=0,
            meta={"rubric_id": OWN.id},
        )
    )
    store.save_metric_value("generation", "g1", "chrf", "release", 40.5)


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[tuple[Store, Store, Path]]:
    original = open_store(tmp_path / "a.db")
    _fill(original)
    out = tmp_path / "out"
    export_hf(original, out)
    copy = open_store(tmp_path / "b.db")
    try:
        yield original, copy, out
    finally:
        original.close()
        copy.close()


def test_the_rubrics_and_the_leaderboard_survive_the_round_trip(stores: tuple[Store, Store, Path]) -> None:
    original, copy, out = stores
    counts = copy.import_records(read_hf(out))
    assert counts["rubrics"] == 2 and counts["written_rubrics"] == 2
    assert len(original.stored_rubrics()) == 2
    assert copy.stored_rubrics() == original.stored_rubrics()  # same ids, content hashes and content
    board = leaderboard_from_store(copy)
    assert board.to_csv() == leaderboard_from_store(original).to_csv()
    assert board.to_json() == leaderboard_from_store(original).to_json()
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "Eigener Bogen: 20 points, no grade points (its content: `rubrics/all.parquet`)" in card
    again = copy.import_records(read_hf(out))
    assert again["written_rubrics"] == 0  # a re-import writes nothing


def _table_rows(store: Store, table: str) -> list[tuple[Any, ...]]:
    columns = [c["name"] for c in sa.inspect(store.engine).get_columns(table) if c["name"] not in _STAMPS]
    with store.engine.connect() as connection:
        rows = connection.execute(sa.text(f"SELECT {', '.join(columns)} FROM {table}"))
        return sorted((tuple(str(v) for v in row) for row in rows), key=repr)


_STAMPS = {"created_at", "updated_at"}


def test_every_table_of_a_store_survives_the_round_trip_or_is_named_as_left_out(
    stores: tuple[Store, Store, Path],
) -> None:
    original, copy, out = stores
    copy.import_records(read_hf(out))
    tables = sorted(sa.inspect(original.engine).get_table_names())
    unnamed = [name for name in tables if name not in t.TABLE and t.not_exported(name) is None]
    assert not unnamed, f"store tables neither exported nor named in benger.interop._hf_tables.NOT_EXPORTED: {unnamed}"
    for table in t.TABLES:
        assert table.name in tables
        rows = _table_rows(original, table.name)
        assert rows, f"the test store holds no {table.name}: fill it so the round trip is tested"
        assert _table_rows(copy, table.name) == rows, table.name


def _rewrite_rubrics(out: Path, change: Any) -> None:
    path = out / "rubrics" / "all.parquet"
    rows = pq.read_table(path).to_pylist()
    change(rows)
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(path)), path)
    manifest = json.loads((out / t.MANIFEST).read_text(encoding="utf-8"))
    manifest["files"]["rubrics/all.parquet"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (out / t.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def _payload_total(total: int) -> Any:
    def change(rows: list[dict[str, Any]]) -> None:
        own = next(r for r in rows if r["rubric_id"] == OWN.id)
        payload = json.loads(own["payload"])
        payload["total"] = total
        payload["dimensions"][0]["max"] = total - 10
        own["payload"] = json.dumps(payload)

    return change


BAD_RUBRICS = [
    (_payload_total(30), "field 'rubric_id'"),  # content changed, hash kept: refused, never scored under it
    (lambda rows: rows[0].update(payload="{oops"), "field 'payload': not valid JSON"),
    (lambda rows: rows[0].update(payload='{"name": "x"}'), "field 'payload"),
    (lambda rows: rows.append(dict(rows[0])), "duplicate content_hash"),
]


@pytest.mark.parametrize(("change", "expected"), BAD_RUBRICS)
def test_a_rubric_changed_after_the_export_is_refused(
    stores: tuple[Store, Store, Path], change: Any, expected: str
) -> None:
    _original, _copy, out = stores
    _rewrite_rubrics(out, change)
    with pytest.raises(InputError) as info:
        read_hf(out)
    assert "rubrics/all.parquet" in str(info.value) and expected in str(info.value), str(info.value)


def test_an_own_rubric_limits_the_imported_scores(stores: tuple[Store, Store, Path]) -> None:
    _original, _copy, out = stores
    path = next((out / "judgements").glob("*.parquet"))
    rows = pq.read_table(path).to_pylist()
    own = next(r for r in rows if r["rubric_id"] == OWN.id)
    own["dimensions"] = [{"dimension": "prüfung", "score": 16.0}, {"dimension": "würdigung", "score": 7.0}]
    own["total"] = 23.0
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(path)), path)
    manifest = json.loads((out / t.MANIFEST).read_text(encoding="utf-8"))
    manifest["files"][path.relative_to(out).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    (out / t.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(InputError, match="prüfung"):
        read_hf(out)

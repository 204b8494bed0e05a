"""Migration 0015_rubric_store and the kept rubrics (SQLite and PostgreSQL): a store just below it, judged, is
upgraded and keeps every row, the rubrics it keeps read back exactly (a NUL and umlauts included), a changed row is
refused, and a downgrade drops the table; a kept rubric round-trips for any valid rubric (hypothesis)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, inspect, update

from benger.errors import InputError
from benger.judge import falloesung_rubric, rubric_data, rubric_from_data, save_rubrics, stored_rubric
from benger.pipeline import RunConfig
from benger.pipeline._config import dump_run_config, parse_run_config
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import Store, open_store
from benger.store._engine import MIGRATIONS_DIR
from benger.store._models import RubricRow


def _below() -> str:
    """The revision 0015_rubric_store revises (main's head when it landed)."""
    source = (MIGRATIONS_DIR / "versions" / "0015_rubric_store.py").read_text(encoding="utf-8")
    match = re.search(r'^down_revision: str \| None = "([^"]+)"', source, re.M)
    assert match is not None
    return match.group(1)


def _engine_url(url: str) -> str:
    return url if "://" in url else f"sqlite:///{url}"


def _migrate(url: str, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(_engine_url(url))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, target)
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = create_engine(_engine_url(url))
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _own(description: str = "Ergebnis getroffen") -> Any:
    return rubric_from_data({
        "name": "kurz2", "version": "1", "title": "Kurz – zwei Kriterien", "graded": False, "total": 20,
        "step": 1, "pass_total": 10, "instructions": "Prüfe § 536 BGB.",
        "dimensions": [
            {"key": "ergebnis", "label": "Ergebnis", "label_en": "Result", "max": 10,
             "bands": [{"low": 0, "high": 10, "description": description}]},
            {"key": "aufbau", "label": "Aufbau", "label_en": "Structure", "max": 10, "step": 2},
        ],
    })  # fmt: skip


def _judged(store: Store, rubric_id: str) -> None:
    task = FalloesungTask(task_id="t1", corpus="c", area="Zivilrecht", facts="SV", reference="ML")
    store.add_corpus(Corpus(name="c", tasks=[task]))
    store.save_generation(Generation(generation_id="g1", task_id="t1", corpus="c", system="s", config_hash="h",
                                     text="Lösung"))  # fmt: skip
    store.save_judgement(Judgement(judgement_id="j1", target_kind="generation", target_id="g1", judge="j",
                                   judge_config_hash="jh", rubric_id=rubric_id, status="scored",
                                   dimensions={"ergebnis": 5.0, "aufbau": 4.0}, total=9.0))  # fmt: skip


def test_migration_0015_keeps_rows_and_the_rubrics_read_back(db_url: str) -> None:
    rubric = _own("Ergebnis\x00getroffen – Grundsätze")  # a NUL: PostgreSQL stores it escaped
    _migrate(db_url, _below(), up=True)
    assert "rubrics" not in _tables(db_url)
    with open_store(db_url) as store:  # a store just below 0015_rubric_store, opened by this benger: upgraded
        assert "rubrics" in _tables(db_url)
        _judged(store, rubric.id)  # a judgement saved without its rubric, as before 0015_rubric_store
        assert [j.judgement_id for j in store.judgements()] == ["j1"]
        assert stored_rubric(store, rubric.id) is None  # judged before: nothing kept, nothing invented
        save_rubrics(store, [rubric, rubric, falloesung_rubric()])
        save_rubrics(store, [rubric])  # again: kept once
        assert [(r.rubric_id, r.content_hash) for r in store.stored_rubrics()] == sorted(
            [(rubric.id, rubric.content_hash), (falloesung_rubric().id, falloesung_rubric().content_hash)]
        )
        back = stored_rubric(store, rubric.id)
        assert back == rubric and back is not None and back.dimensions[0].bands[0].description.count("\x00") == 1
        assert store.judged_rubric_ids("c") == {rubric.id: 1}
        changed = rubric_data(_own()) | {"total": 30}  # another rubric's content under this row's key
        changed["dimensions"] = [*changed["dimensions"], {"key": "x", "label": "X", "label_en": "X", "max": 10}]
        with store.session() as session:
            session.execute(update(RubricRow).where(RubricRow.rubric_id == rubric.id).values(payload=changed))
        with pytest.raises(InputError, match="was changed in the store"):
            stored_rubric(store, rubric.id)
    _migrate(db_url, _below(), up=False)
    assert "rubrics" not in _tables(db_url)
    with open_store(db_url) as store:  # up again
        assert store.stored_rubrics() == [] and [j.judgement_id for j in store.judgements()] == ["j1"]


_label = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@st.composite
def _rubrics(draw: st.DrawFn) -> dict[str, Any]:
    """Valid rubric mappings: 1-4 dimensions with integer maxima, optional steps, questions, bands and grades."""
    n = draw(st.integers(min_value=1, max_value=4))
    maxima = [draw(st.integers(min_value=1, max_value=30)) for _ in range(n)]
    dims = []
    for i, top in enumerate(maxima):
        # labels end in their dimension's number: two dimensions never share one (check_rubric refuses that)
        dim: dict[str, Any] = {
            "key": f"d{i}",
            "label": f"{draw(_label)}{i}",
            "label_en": f"{draw(_label)}{i}",
            "max": top,
        }
        if draw(st.booleans()):
            dim["question"] = draw(_label)
        if draw(st.booleans()):
            dim["bands"] = [{"low": 0, "high": top, "description": draw(_label)}]
        dims.append(dim)
    total = sum(maxima)
    data: dict[str, Any] = {"name": draw(st.sampled_from(["eigen", "kurz3", "falloesung"])), "version": "2",
                            "title": draw(_label), "graded": draw(st.booleans()), "total": total, "step": 1,
                            "dimensions": dims}  # fmt: skip
    if data["graded"]:
        data["grades"] = sorted({*draw(st.lists(st.integers(0, total - 1), max_size=3)), total})
        if len(data["grades"]) < 2:
            data["grades"] = [0, total]
        data["pass_grade"] = draw(st.integers(0, len(data["grades"]) - 1))
    elif draw(st.booleans()):
        data["pass_total"] = draw(st.integers(0, total))
    if draw(st.booleans()):
        data["instructions"] = draw(_label)
    if draw(st.booleans()):
        data["kind"] = draw(st.sampled_from(["falloesung", "grundprinzip"]))
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=_rubrics())
def test_a_rubrics_canonical_data_keeps_its_id_inline_and_kept(data: dict[str, Any], tmp_path_factory: Any) -> None:
    rubric = rubric_from_data(data)
    canonical = rubric_data(rubric)
    # inline in a run config, as the workbench writes it and `benger run` reads it (U+0085 in a label was read
    # back as a space by PyYAML: another content hash, so the downloaded YAML judged under another rubric id)
    text = dump_run_config(RunConfig(corpora=["c"], rubrics={"c": canonical}))
    again = parse_run_config(text, "run.yaml").resolved_rubrics()["c"]
    assert (again.id, again.content_hash, again) == (rubric.id, rubric.content_hash, rubric)
    with open_store(_template(tmp_path_factory)) as store:
        save_rubrics(store, [rubric])
        kept = stored_rubric(store, rubric.id)  # the first of equal content (kind: falloesung written out or not)
        assert kept is not None and (kept.id, kept.content_hash) == (rubric.id, rubric.content_hash)


_TEMPLATE: list[str] = []


def _template(factory: Any) -> str:
    """One migrated SQLite store for every example (rubrics with the same id are the same rubric)."""
    if not _TEMPLATE:
        _TEMPLATE.append(str(factory.mktemp("kept") / "kept.db"))
    return _TEMPLATE[0]

"""A user's own rubric and a per-task Bewertungsbogen through Celery workers on PostgreSQL (issue 31): the judge
units carry the rubric in their payload (no worker rebuilds it from a name), and the store ends as the local run's."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

import benger.workers  # noqa: F401  (registers the celery executor)
from benger.pipeline import JudgeUnit, load_run_config, run_config
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

from .conftest import Workers, free_port

# the user study of tests/pipeline/test_own_study.py (its example copy and checks), loaded by path
_spec = importlib.util.spec_from_file_location("own_study", Path(__file__).parents[1] / "pipeline/test_own_study.py")
assert _spec is not None and _spec.loader is not None
_own = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_own)
check_judgements, own_study = _own.check_judgements, _own.own_study

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def _contents(store: Any) -> list[tuple[Any, ...]]:
    return sorted((j.judgement_id, j.rubric_id, j.total, tuple(sorted((j.dimensions or {}).items()))) for j in
                  store.judgements())  # fmt: skip


async def test_own_rubric_on_celery_matches_local(
    pg_url: str, shared_redis: str, workers: Workers, tmp_path: Path
) -> None:
    workers.start(1, concurrency=2)
    port = free_port()
    stores = {}
    for executor in ("local", "celery"):
        with run_stub_server(port=port, latency_ms=5) as stub:
            path = own_study(tmp_path / executor, stub.base_url)
            config = load_run_config(path).model_copy(update={"executor": executor})
            store = open_store(pg_url if executor == "celery" else tmp_path / "local.db")
            result = await run_config(config, store)
            assert result.complete, result.remaining
            check_judgements(store, path.parent)
            stores[executor] = store
    assert _contents(stores["celery"]) == _contents(stores["local"])
    for store in stores.values():
        store.close()


def test_the_payload_carries_the_rubric(tmp_path: Path) -> None:
    """The unit as a worker receives it (its JSON) holds the whole rubric; a custom id alone is refused."""
    from benger.errors import ConfigError
    from benger.judge import load_rubric
    from benger.schema import SystemConfig

    rubric = load_rubric(Path(__file__).resolve().parents[2] / "examples/own-study/rubrics/kurz3.yaml")
    judge = SystemConfig(name="j", provider="openai-compatible", model="m", base_url="http://127.0.0.1:9/v1")
    base = {"target_kind": "generation", "target_id": "g", "judge": judge}
    unit = JudgeUnit.model_validate({**base, "rubric": rubric})  # its rubric_id is the rubric's
    payload = unit.model_dump(mode="json")
    assert payload["rubric"]["dimensions"][1]["step"] == 2 and payload["rubric_id"] == rubric.id
    again = JudgeUnit.model_validate(payload)
    assert again.rubric == rubric and again.rubric.id == rubric.id
    with pytest.raises(ConfigError, match="not a registered rubric"):
        JudgeUnit.model_validate({**base, "rubric_id": rubric.id})
    with pytest.raises(ValueError, match="is not the id of the unit's rubric"):
        JudgeUnit(target_kind="generation", target_id="g", judge=judge, rubric_id="falloesung@1", rubric=rubric)


async def test_an_inline_rubric_of_a_browser_config_on_celery(
    pg_url: str, shared_redis: str, workers: Workers, tmp_path: Path
) -> None:
    """An organisation's uploaded rubric travels inline in the run config (the workbench's YAML): the workers
    judge with exactly its content, and the store keeps it for the analysis."""
    import yaml

    from benger.judge import load_rubric, rubric_data

    workers.start(1, concurrency=2)
    with run_stub_server(port=free_port(), latency_ms=5) as stub:
        path = own_study(tmp_path, stub.base_url)
        kurz3 = load_rubric(path.parent / "rubrics" / "kurz3.yaml")
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["rubrics"] = {"faelle": rubric_data(kurz3)}
        (path.parent / "rubrics" / "kurz3.yaml").unlink()  # no file to read: the content is in the config
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        config = load_run_config(path).model_copy(update={"executor": "celery"})
        store = open_store(pg_url)
        try:
            result = await run_config(config, store)
            assert result.complete, result.remaining
            check_judgements_with(store, path.parent, kurz3)
            assert [r.content_hash for r in store.stored_rubrics([kurz3.id])] == [kurz3.content_hash]
        finally:
            store.close()


def check_judgements_with(store: Any, folder: Path, kurz3: Any) -> None:
    """``check_judgements`` with the corpus rubric given (its file is gone)."""
    from benger.judge import load_rubric

    bogen = load_rubric(folder / "rubrics" / "bogen-mietminderung.yaml")
    gens = {g.generation_id: g for g in store.generations()}
    for j in store.judgements():
        rubric = bogen if gens[j.target_id].task_id == "mm-03" else kurz3
        assert j.status == "scored" and j.rubric_id == rubric.id, j.reason
        assert sorted(j.dimensions or {}) == sorted(rubric.keys)
        assert all(0 <= v <= rubric.maxima()[k] and v % rubric.step_of(k) == 0 for k, v in j.dimensions.items())

"""The ``benger.metrics`` task in a real worker scores one target like ``score_target`` and is idempotent."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.metrics import compute
from benger.schema import Corpus, FalloesungTask, Generation, SystemConfig
from benger.store import open_store
from benger.workers import METRICS_QUEUE
from benger.workers._app import create_app

from .conftest import Workers

pytestmark = [pytest.mark.redis]

REFERENCE = "Der Mieter darf nach § 536 Abs. 1 BGB die Miete mindern, solange die Heizung ausfällt."
TEXT = "Die Miete ist nach § 536 Abs. 1 BGB gemindert, weil die Heizung ausgefallen ist."


def test_metrics_task_scores_once(shared_redis: str, workers: Workers, tmp_path: Path) -> None:
    db = str(tmp_path / "w.db")
    store = open_store(db)
    task = FalloesungTask(task_id="t1", corpus="mini", area="Zivilrecht", facts="M mietet von V.", reference=REFERENCE)
    store.add_corpus(Corpus(name="mini", tasks=[task]))
    system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
    store.upsert_system(system)
    store.save_generation(
        Generation(
            generation_id="g1", task_id="t1", system="sys-a", config_hash=system.config_hash(), run_index=0, text=TEXT
        )
    )
    workers.start(1, queues=METRICS_QUEUE)
    app = create_app()
    payload = {"target_kind": "generation", "target_id": "g1", "metrics": "bleu,chrf", "db": db}
    first = app.send_task("benger.metrics", args=[payload], queue=METRICS_QUEUE).get(timeout=30)
    expected = {row.metric: row.value for row in compute([TEXT], [REFERENCE], ["bleu", "chrf"])}
    assert first == pytest.approx(expected)
    # a second delivery of the same message finds both values stored and writes nothing
    assert app.send_task("benger.metrics", args=[payload], queue=METRICS_QUEUE).get(timeout=30) == {}
    assert sorted(v.metric for v in store.metric_values()) == ["bleu", "chrf"]

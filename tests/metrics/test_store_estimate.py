"""The words still to score, counted before ``benger metrics`` runs (the estimate: tests/metrics/test_workers.py)."""

from __future__ import annotations

from pathlib import Path

from benger.metrics._store import score_store
from benger.schema import Corpus, FalloesungTask, Generation, SystemConfig
from benger.store import open_store

REFERENCE = "Der Käufer schuldet dem Verkäufer nach § 433 Abs. 2 BGB die Zahlung des Kaufpreises."  # 15 words
TEXT = "Nach § 433 Abs. 2 BGB schuldet der Käufer die Zahlung."  # 11 words


def test_the_plan_counts_candidate_and_reference_words_still_to_score(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "t.db"))
    task = FalloesungTask(task_id="t1", corpus="mini", area="Zivilrecht", facts="A kauft von B.", reference=REFERENCE)
    store.add_corpus(Corpus(name="mini", tasks=[task]))
    system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
    store.upsert_system(system)
    for i in range(2):
        gen = Generation(
            generation_id=f"g{i}",
            task_id="t1",
            system="sys-a",
            config_hash=system.config_hash(),
            run_index=i,
            text=TEXT,
        )
        store.save_generation(gen)
    plans: list[dict[str, int]] = []
    score_store(store, "bleu,chrf", on_plan=plans.append)
    assert plans == [{"bleu": 2 * (11 + 15), "chrf": 2 * (11 + 15)}]
    score_store(store, "bleu,chrf", on_plan=plans.append)
    assert plans[-1] == {"bleu": 0, "chrf": 0}  # a rerun has nothing left to score

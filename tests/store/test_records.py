"""Every record type goes in and comes back as the same pydantic model; filters and order hold."""

from __future__ import annotations

import pytest

from benger.errors import InputError
from benger.schema import Corpus, Generation, HumanReview, HumanSolution, Judgement, SystemConfig
from benger.store import MetricValue, Store

from ._data import make_corpus, make_principles

DIMS = {
    "ergebnisrichtigkeit": 12.5,
    "vollstaendigkeit": 7.0,
    "rechtsgrundlagen": 8.0,
    "rechtskenntnis": 10.5,
    "subsumtion": 9.0,
    "schwerpunktsetzung": 6.0,
    "methodischer_stil": 7.5,
    "gliederung": 4.0,
    "sprache": 2.5,
    "formalia": 1.5,
}
# 12.5 + 7 + 8 + 10.5 + 9 + 6 + 7.5 + 4 + 2.5 + 1.5 = 68.5
TOTAL = 68.5


def _gen(
    task_id: str = "demo-t1", run: int = 0, status: str = "ok", gid: str | None = None, **kw: object
) -> Generation:
    return Generation.model_validate(
        {
            "generation_id": gid or f"g-{task_id}-{run}-{status}",
            "task_id": task_id,
            "corpus": task_id.rsplit("-", 1)[0] if "-" in task_id else None,  # "demo-t1": corpus "demo"
            "system": "sys-a",
            "config_hash": "h1",
            "run_index": run,
            "status": status,
            **kw,
        }
    )


def _judgement(target: str = "g1", status: str = "scored", jid: str = "j1", repeat: int = 0) -> Judgement:
    scored = status == "scored"
    return Judgement(
        judgement_id=jid,
        target_kind="generation",
        target_id=target,
        judge="judge-x",
        judge_config_hash="jh",
        rubric_id="falloesung@1",
        repeat_index=repeat,
        status=status,
        reason=None if scored else "unparsable reply",
        dimensions=DIMS if scored else None,
        justifications={"subsumtion": "Saubere Subsumtion unter § 433 BGB."} if scored else {},
        total=TOTAL if scored else None,
        grade_points=8 if scored else None,
        passed=True if scored else None,
        model_total=70.0 if scored else None,
        meta={"try": 1},
    )


def test_corpus_round_trip_keeps_order(store: Store) -> None:
    corpus = make_corpus("demo", 3)
    gp = make_principles("gp")
    store.add_corpus(corpus)
    store.add_corpus(gp)
    store.add_corpus(corpus)  # idempotent
    assert store.corpus_names() == ["demo", "gp"]
    loaded = store.load_corpus("demo")
    assert loaded == corpus
    assert [t.task_id for t in loaded.tasks] == ["demo-t3", "demo-t2", "demo-t1"]
    assert store.load_corpus("gp") == gp
    assert store.get_task("gp-0001") == gp.tasks[0]
    assert store.get_task("nope") is None
    assert store.stats()["tasks"] == {"total": 5}  # 3 + 2, the repeated add_corpus added nothing


def test_re_adding_a_changed_corpus_is_refused_unless_replaced(store: Store) -> None:
    corpus = make_corpus("demo", 3)
    store.add_corpus(corpus)
    changed = Corpus(name="demo", description="neu", tasks=list(reversed(corpus.tasks)))
    changed.tasks[0] = changed.tasks[0].model_copy(update={"title": "Der Fahrradfall"})
    with pytest.raises(InputError, match=r"corpus 'demo' is already in the store \(3 tasks\).*--replace"):
        store.add_corpus(changed)
    assert store.load_corpus("demo") == corpus
    change = store.add_corpus(changed, replace=True)
    assert (change.action, change.tasks_removed) == ("replaced", 1)  # only demo-t1 changed (its title)
    assert store.load_corpus("demo") == changed


def test_replacing_with_a_smaller_corpus_removes_the_gone_tasks_and_their_results(store: Store) -> None:
    corpus = make_corpus("demo", 4)  # demo-t4, demo-t3, demo-t2, demo-t1
    store.add_corpus(corpus)
    store.save_generation(_gen("demo-t4", gid="g4"))
    store.save_generation(_gen("demo-t3", gid="g3"))
    store.save_judgement(_judgement("g4"))
    smaller = Corpus(name="demo", description="kleiner", tasks=[corpus.tasks[2], corpus.tasks[1]])  # t2, t3
    with pytest.raises(InputError, match="removes 2 tasks, 1 generations, 1 judgements"):
        store.add_corpus(smaller)
    assert store.stats()["tasks"] == {"total": 4}
    change = store.add_corpus(smaller, replace=True)
    assert (change.tasks_removed, change.generations_removed, change.judgements_removed) == (2, 1, 1)
    assert [t.task_id for t in store.load_corpus("demo").tasks] == ["demo-t2", "demo-t3"]
    assert store.get_task("demo-t1") is None and store.get_task("demo-t4") is None
    assert [g.generation_id for g in store.generations()] == ["g3"]
    assert store.judgements() == []


def test_unknown_corpus_and_duplicate_ids_are_input_errors(store: Store) -> None:
    with pytest.raises(InputError, match="no corpus named 'zjs'"):
        store.load_corpus("zjs")
    corpus = make_corpus("demo", 2)
    corpus.tasks.append(corpus.tasks[0])
    with pytest.raises(InputError, match="appears twice"):
        store.add_corpus(corpus)


def test_system_round_trip(store: Store) -> None:
    a = SystemConfig(
        name="sys-a",
        provider="openai-compatible",
        model="qwen",
        base_url="http://127.0.0.1:9/v1",
        temperature=0.2,
        params={"top_p": 0.9},
        tier="open_reference",
        weights="open",
    )
    b = SystemConfig(name="judge-x", provider="local", model="qwen2.5-0.5b-instruct")
    store.upsert_system(a)
    store.upsert_system(b)
    store.upsert_system(a)  # the same configuration again: still one row
    warmer = a.model_copy(update={"temperature": 0.7})
    store.upsert_system(warmer)
    # issue 10, observation 3: two configurations under one name are both kept (ordered by name, then hash)
    by_hash = sorted([a, warmer], key=lambda s: s.config_hash())
    assert store.systems() == [b, *by_hash]
    renamed_label = a.model_copy(update={"display_name": "Sys A"})  # same hash: the row is updated
    store.upsert_system(renamed_label)
    assert len(store.systems()) == 3 and renamed_label in store.systems()


def test_generation_round_trip_and_filters(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 2))
    store.add_corpus(make_principles("gp"))
    full = _gen(
        "demo-t1",
        text="Gutachten: A könnte ...",
        answer="Ja",
        reason=None,
        finish_reason="stop",
        truncated=True,
        refused=False,
        input_tokens=1200,
        output_tokens=3400,
        latency_s=12.25,
        cost_usd=0.0123,
        meta={"attempts": 2, "provider": {"id": "x"}},
    )
    assert store.save_generation(full) == full
    assert store.get_generation("demo-t1", "h1", 0) == full
    assert store.get_generation("demo-t1", "h1", 1) is None
    other = _gen("gp-0001", run=1, status="failed", reason="timeout")
    other.system = "sys-b"
    other.config_hash = "h2"
    store.save_generation(other)
    assert store.generations() == [full, other]
    assert store.generations(corpus="gp") == [other]
    assert store.generations(system="sys-a") == [full]
    assert store.generations(config_hash="h2", status="failed") == [other]
    assert store.generations(task_ids=["demo-t1", "x"]) == [full]
    assert store.generations(task_ids=[]) == []
    assert store.stats()["generations"] == {"ok": 1, "excluded": 0, "failed": 1}


def test_generation_for_unknown_task_is_an_input_error(store: Store) -> None:
    with pytest.raises(InputError, match="task 'ghost' is not in the store"):
        store.save_generation(_gen("ghost"))


def test_human_solution_round_trip(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 2))
    a = HumanSolution(
        solution_id="s1",
        task_id="demo-t1",
        corpus="demo",
        participant_id="p1",
        condition="traditional",
        text="Lösung",
        meta={"words": 1},
    )
    b = HumanSolution(solution_id="s2", task_id="demo-t2", corpus="demo", participant_id="p2", condition="co_creation")
    store.add_human_solution(a)
    store.add_human_solution(b)
    store.add_human_solution(a)
    assert store.human_solutions() == [a, b]
    assert store.human_solutions(task_id="demo-t2") == [b]
    assert store.human_solutions(condition="traditional") == [a]


def test_judgement_round_trip_and_filters(store: Store) -> None:
    scored = _judgement("g1")
    unscored = _judgement("g2", status="unscored", jid="j2")
    assert store.save_judgement(scored) == scored
    store.save_judgement(unscored)
    assert store.get_judgement("generation", "g1", "jh", "falloesung@1", 0) == scored
    assert store.get_judgement("generation", "g1", "jh", "falloesung@1", 1) is None
    assert store.judgements() == [scored, unscored]
    assert store.judgements(status="unscored") == [unscored]
    assert store.judgements(judge="judge-x", target_ids=["g1"]) == [scored]
    assert store.judgements(target_kind="human_solution") == []
    assert store.judgements(rubric_id="grundprinzipien@1") == []
    assert store.stats()["judgements"] == {"scored": 1, "unscored": 1}


def test_human_reviews_keep_position_order(store: Store) -> None:
    def review(rid: str, position: int | None) -> HumanReview:
        return HumanReview(
            review_id=rid,
            target_kind="human_solution",
            target_id="s1",
            task_id="demo-t1",
            grader_id="grader_01",
            role="blind" if rid != "r-c" else "creator",
            dimensions=DIMS,
            raw_score=TOTAL,
            grade_points=8,
            passed=True,
            position=position,
            meta={"pass": "A"},
        )

    # inserted out of order; two without a position come last, in insertion order
    reviews = [review("r-c", 2), review("r-none-1", None), review("r-a", 0), review("r-b", 1), review("r-none-2", None)]
    for r in reviews:
        store.add_human_review(r)
    got = store.human_reviews()
    assert [r.review_id for r in got] == ["r-a", "r-b", "r-c", "r-none-1", "r-none-2"]
    assert got[0] == reviews[2]
    assert [r.review_id for r in store.human_reviews(role="creator")] == ["r-c"]
    assert store.human_reviews(target_id="other") == []


def test_metric_values_upsert(store: Store) -> None:
    store.save_metric_value("generation", "g1", "bleu", "sacrebleu|v2", 0.25)
    store.save_metric_value("generation", "g1", "bleu", "sacrebleu|v2", 0.5, details={"n": 4})
    store.save_metric_value("generation", "g1", "rouge", "rouge-l", 0.4)
    store.save_metric_value("human_solution", "s1", "bleu", "sacrebleu|v2", 0.1)
    bleu = MetricValue(
        target_kind="generation", target_id="g1", metric="bleu", signature="sacrebleu|v2", value=0.5, details={"n": 4}
    )
    assert store.metric_values(metric="bleu", target_kind="generation") == [bleu]
    assert len(store.metric_values()) == 3
    assert store.stats()["metric_values"] == {"total": 3}


def test_session_commits_and_rolls_back(store: Store) -> None:
    from benger.store._models import SystemRow

    with store.session() as session:
        session.add(SystemRow(name="x", config_hash="h", config={"name": "x", "provider": "local", "model": "m"}))
    with pytest.raises(RuntimeError), store.session() as session:
        session.add(SystemRow(name="y", config_hash="h", config={"name": "y", "provider": "local", "model": "m"}))
        session.flush()
        raise RuntimeError("boom")
    assert [s.name for s in store.systems()] == ["x"]


def test_long_id_filters_are_exact(store: Store) -> None:
    """More ids than a database binds at once: the filter still returns exactly the matching rows."""
    store.add_corpus(make_corpus("demo", 3))
    for tid in ("demo-t1", "demo-t2", "demo-t3"):
        store.save_generation(_gen(tid))
        store.save_judgement(_judgement(f"g-{tid}", jid=f"j-{tid}"))
    many = ["demo-t2", *(f"other-{i}" for i in range(5000)), "demo-t3"]
    assert [g.task_id for g in store.generations(task_ids=many)] == ["demo-t2", "demo-t3"]
    targets = ["g-demo-t1", *(f"other-{i}" for i in range(5000))]
    assert [j.target_id for j in store.judgements(target_ids=targets)] == ["g-demo-t1"]


def test_a_pickled_store_reopens_the_same_database(store: Store) -> None:
    """A worker process receives the store by URL and sees the same rows."""
    import pickle

    store.add_corpus(make_corpus("demo", 1))
    copy = pickle.loads(pickle.dumps(store))
    try:
        assert copy is not store and copy.url == store.url
        assert copy.corpus_names() == ["demo"]
    finally:
        copy.close()

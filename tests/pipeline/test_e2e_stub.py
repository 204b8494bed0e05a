"""End to end against the stub server over real HTTP on 127.0.0.1, with injected faults.

Every item must end ok, excluded or unscored — none lost, none duplicated, none zero-filled.
"""

from __future__ import annotations

import functools
from pathlib import Path

from benger.analysis import Leaderboard, leaderboard_from_store
from benger.llm import RetryPolicy, create_model
from benger.pipeline import ModelPool, RunConfig, RunResult, run_config
from benger.store import Store, open_store
from benger.testing.stub_server import run_stub_server

from .conftest import make_corpora

FAULTS = {
    "FALL-01": ["429:1"],  # rate limited once, Retry-After 1 s -> ok
    "FALL-02": ["500", "500"],  # two server errors -> ok on the third attempt
    "FALL-03": ["timeout"],  # client timeout (the 5 s deadline; the stub holds 10 s) -> retried -> ok
    # malformed on every re-ask (1 + 3) -> excluded with reason; 8, not 4: a transient retry under load (a call past its
    # 5 s deadline, full suite 2026-12-02) took one of 4 faults and the fifth call came out ok
    "FALL-04": ["malformed"] * 8,
    "FALL-05": ["badjson"],  # a body that is not JSON -> transient -> ok
    # the judge's reply malformed 4 times -> unscored; the Musterlösung is only in the judge's prompt, so no retry of
    # the generation can take these (a "delay:0" for the generation first: a transient retry of it shifted them)
    "Musterlösung zu FALL-06": ["malformed"] * 4,
    "FALL-07": ["500"] * 4,  # provider error after the budget -> failed, retried by the next run -> ok
    "PRINZIP-01": ["malformed"],  # re-asked once -> ok
}


def _system(stub_url: str, name: str, max_tokens: int = 4000) -> dict:
    return {"name": name, "provider": "openai-compatible", "model": "stub", "base_url": stub_url,
            "temperature": 0.0, "max_output_tokens": max_tokens, "params": {"timeout_s": 5.0}}  # fmt: skip


# timeout_s is the whole call's deadline: 0.5 s and then 2 s timed out ordinary calls on a loaded machine (CI,
# 2026-12-01), and a retried call then took the next fault meant for its judge (FALL-06's generation came out
# malformed: 'excluded': 2)


def _config(stub_url: str, max_tokens: int = 4000) -> RunConfig:
    return RunConfig(
        corpora=["e2e-fall", "e2e-gp"],
        systems=[_system(stub_url, "stub", max_tokens)],
        judges=[_system(stub_url, "stub-judge")],
        concurrency=6,
        leaderboard={"ci": "normal"},
    )


def _board(store: Store, result: RunResult) -> Leaderboard:
    """The run's leaderboard as ``benger run`` builds it after the run (``leaderboard: {ci: normal}``)."""
    return leaderboard_from_store(store, corpora=result.corpora, systems=result.systems, judges=result.judges,
                                  ci="normal")  # fmt: skip


def _factory() -> functools.partial:
    return functools.partial(create_model, policy=RetryPolicy(max_retries=3, initial_wait=0.01, max_wait=0.05))


async def test_every_item_accounted_for(db_path: Path) -> None:
    store = open_store(db_path)
    for corpus in make_corpora():
        store.add_corpus(corpus)
    with run_stub_server(latency_ms=20, faults=FAULTS, timeout_hold_s=10.0) as stub:
        config = _config(stub.base_url)
        first = await run_config(config, store, model_factory=_factory())
        assert first.generation is not None and first.judgement is not None
        assert not first.generation.errors and not first.judgement.errors
        # 12 items: FALL-04 excluded, FALL-07 failed, 10 ok; judged: 10, FALL-06 unscored
        assert first.generation.counts == {"ok": 10, "excluded": 1, "failed": 1}
        assert first.judgement.counts == {"scored": 9, "unscored": 1}
        unscored = [j for j in store.judgements() if j.status == "unscored"]
        assert len(unscored) == 1 and unscored[0].reason is not None
        assert unscored[0].reason.startswith("unparseable after 4 attempts")
        assert unscored[0].total is None and unscored[0].dimensions is None
        assert (first.corpora, first.systems, first.judges) == (["e2e-fall", "e2e-gp"], ["stub"], ["stub-judge"])
        assert sum(r.unscored for r in _board(store, first).rows) == 1
        second = await run_config(config, store, model_factory=_factory())
        # the failed generation is redone; the unscored judgement and the new generation are judged
        assert second.generation is not None and second.generation.counts == {"ok": 1}
        assert second.judgement is not None and second.judgement.counts == {"scored": 2}
        third = await run_config(config, store, model_factory=_factory())
        assert third.generation is not None and third.generation.total == 0
        assert third.judgement is not None and third.judgement.total == 0
    gens = store.generations()
    keys = [(g.task_id, g.config_hash, g.run_index) for g in gens]
    assert len(gens) == 12 and len(set(keys)) == 12  # none lost, none duplicated
    assert {g.status for g in gens} == {"ok", "excluded"}
    by = {g.task_id: g for g in gens}
    excluded = by["t-fall-04"]
    assert excluded.status == "excluded" and excluded.reason is not None
    assert excluded.reason.startswith("malformed after 4 attempts")
    for task in ("t-fall-01", "t-fall-02", "t-fall-03", "t-fall-05", "t-fall-06", "t-fall-07"):
        gen = by[task]
        assert gen.status == "ok", gen.reason
        assert gen.output_tokens is not None and gen.output_tokens >= 200 and not gen.truncated
    assert by["t-gp-01"].answer == "Ja" and by["t-gp-01"].meta["attempts"] == 2
    # judgements: exactly one per ok generation, all scored now; totals are our sums, never zero-filled
    ok_ids = {g.generation_id for g in gens if g.status == "ok"}
    judgements = store.judgements()
    assert sorted(j.target_id for j in judgements) == sorted(ok_ids)
    for j in judgements:
        assert j.status == "scored" and j.dimensions is not None and j.total == sum(j.dimensions.values())
    board = _board(store, third)
    assert sum(r.n for r in board.rows) == 11 and sum(r.excluded for r in board.rows) == 1
    with store.engine.connect() as connection:  # the run's texts indexed in one batch after its generation stage
        assert connection.exec_driver_sql("SELECT count(*) FROM generations_fts_pending").scalar_one() == 0
        assert connection.exec_driver_sql("SELECT count(*) FROM generations_fts").scalar_one() == 12
    store.close()


async def test_short_and_truncated_falloesung_is_excluded(db_path: Path) -> None:
    store = open_store(db_path)
    for corpus in make_corpora(n_fall=2, n_gp=1):
        store.add_corpus(corpus)
    with run_stub_server(latency_ms=5) as stub:
        # 150 output tokens: the stub cuts the reply at the limit (finish_reason "length")
        result = await run_config(_config(stub.base_url, max_tokens=150), store, stages=("generate",),
                                  model_factory=_factory())  # fmt: skip
    assert result.generation is not None and result.generation.counts == {"excluded": 2, "ok": 1}
    for gen in store.generations():
        if gen.task_id.startswith("t-fall"):
            assert gen.status == "excluded" and gen.truncated and gen.finish_reason == "length"
            assert gen.reason == f"short: {gen.output_tokens} output tokens" and gen.text  # partial text is kept
        else:
            assert gen.status == "ok" and gen.answer in ("Ja", "Nein")  # the 200-token rule is Falllösung-only
    store.close()


async def test_model_pool_shares_one_model_per_config(db_path: Path) -> None:
    made: list[str] = []

    def factory(system):  # type: ignore[no-untyped-def]
        made.append(system.name)
        return create_model(system)

    pool = ModelPool(factory)
    (a,) = _config("http://127.0.0.1:9/v1").resolved_systems()
    (b,) = _config("http://127.0.0.1:9/v1", max_tokens=100).resolved_systems()
    assert pool.get(a) is pool.get(a) and pool.get(a) is not pool.get(b)
    assert made == ["stub", "stub"]
    await pool.aclose()


async def test_judge_everything_in_store_including_human_solutions(db_path: Path) -> None:
    from benger.schema import HumanSolution

    store = open_store(db_path)
    for corpus in make_corpora(n_fall=2, n_gp=1):
        store.add_corpus(corpus)
    solution = HumanSolution(solution_id="h-1", task_id="t-fall-01", participant_id="p-7", condition="traditional",
                             text="A. Anspruch aus § 433 Abs. 1 BGB ...")  # fmt: skip
    store.add_human_solution(solution)
    with run_stub_server(latency_ms=5) as stub:
        await run_config(_config(stub.base_url), store, stages=("generate",), model_factory=_factory())
        judge_only = RunConfig(corpora=["e2e-fall", "e2e-gp"], judges=[_system(stub.base_url, "stub-judge")],
                               judge_human_solutions=True, repeats=2)  # fmt: skip
        result = await run_config(judge_only, store, model_factory=_factory())
    # 3 generations + 1 human solution, 2 repeats each
    assert result.judgement is not None and result.judgement.counts == {"scored": 8}
    human = [j for j in store.judgements() if j.target_kind == "human_solution"]
    assert sorted(j.repeat_index for j in human) == [0, 1] and all(j.target_id == "h-1" for j in human)
    store.close()


# --- issue 11: replies read as meant, end to end against the stub (items 1, 2, 3, 9; issue 10 obs. 12) -----
def _store(db_path: Path, n_fall: int, n_gp: int):  # type: ignore[no-untyped-def]
    store = open_store(db_path)
    for corpus in make_corpora(n_fall=n_fall, n_gp=n_gp):
        store.add_corpus(corpus)
    return store


def _model(stub_url: str, name: str, model: str) -> dict:
    # a 5 s deadline: timeout_s bounds the whole call, and these tests are not about timeouts (0.5 s failed a
    # call now and then on a machine at load 12)
    return {**_system(stub_url, name), "model": model, "params": {"timeout_s": 5}}


async def test_reasoning_models_and_format_echoing_judges_store_the_final_answers(db_path: Path) -> None:
    store = _store(db_path, n_fall=3, n_gp=4)
    with run_stub_server(latency_ms=2) as stub:
        url = stub.base_url
        config = RunConfig(
            corpora=["e2e-fall", "e2e-gp"],
            systems=[_model(url, "plain", "stub"), _model(url, "thinker", "stub+think"),
                     _model(url, "fielder", "stub+reasoning")],
            judges=[_model(url, "judge", "stub-judge"), _model(url, "echo-judge", "stub-judge+echo"),
                    _model(url, "fixing-judge", "stub-judge+correction+think")],
            concurrency=8,
        )  # fmt: skip
        result = await run_config(config, store, model_factory=_factory())
    assert result.generation is not None and result.generation.counts == {"ok": 21}
    assert result.judgement is not None and result.judgement.counts == {"scored": 63}
    gens = {(g.system, g.task_id): g for g in store.generations()}
    for task in [f"t-fall-0{i}" for i in (1, 2, 3)] + [f"t-gp-0{i}" for i in (1, 2, 3, 4)]:
        plain = gens[("plain", task)]
        for name in ("thinker", "fielder"):
            gen = gens[(name, task)]
            # the stub's draft flips Ja/Nein and cuts texts to "Entwurf: ..."; the final equals the plain model's
            assert (gen.text, gen.answer) == (plain.text, plain.answer), (name, task)
            assert not gen.text.startswith("Entwurf") and gen.meta["attempts"] == 1
            assert "Entwurf" in gen.meta["reasoning"] and "reasoning" not in plain.meta
        if task.startswith("t-gp"):
            assert gens[("thinker", task)].answer == "Ja"  # the draft said "Nein"
    by_judge: dict[str, dict[str, float]] = {}
    for j in store.judgements():
        assert j.status == "scored" and j.total is not None and j.meta["attempts"] == 1
        by_judge.setdefault(j.judge, {})[j.target_id] = j.total
    # the echo (all 0, placeholders) and the corrected draft (all 0) never become the score
    assert by_judge["echo-judge"] == by_judge["judge"] == by_judge["fixing-judge"]
    assert all(total > 0 for total in by_judge["judge"].values())
    store.close()


async def test_refusals_are_excluded_after_one_call(db_path: Path) -> None:
    store = _store(db_path, n_fall=3, n_gp=1)
    faults = {"FALL-01": ["refusal"], "FALL-02": ["content_filter"], "PRINZIP-01": ["refusal_phrase"]}
    with run_stub_server(latency_ms=2, faults=faults) as stub:
        config = RunConfig(corpora=["e2e-fall", "e2e-gp"], systems=[_system(stub.base_url, "stub")],
                           judges=[_model(stub.base_url, "refusing-judge", "stub-judge+refusal")])  # fmt: skip
        result = await run_config(config, store, model_factory=_factory())
        requests = list(stub.log)
    assert result.generation is not None and result.generation.counts == {"excluded": 3, "ok": 1}
    by = {g.task_id: g for g in store.generations()}
    expected = {
        "t-fall-01": "refused (provider): Dazu kann ich keine Auskunft geben.",
        "t-fall-02": "refused (content_filter): finish_reason content_filter",
        "t-gp-01": "refused (phrase): Es tut mir leid, aber ich kann dabei nicht helfen.",
    }
    for task, reason in expected.items():
        gen = by[task]
        assert (gen.status, gen.refused, gen.reason) == ("excluded", True, reason)
        assert (gen.meta["attempts"], gen.meta["http_attempts"]) == (1, 1)
    # one paid call per generation (4) and per judgement of the one ok generation (1): no re-asks
    assert len(requests) == 5
    (judgement,) = store.judgements()
    assert judgement.status == "unscored" and judgement.meta["refused"] is True
    assert judgement.reason == "refused (provider): Dazu kann ich keine Auskunft geben."
    store.close()


async def test_ambiguous_replies_are_final_and_named(db_path: Path) -> None:
    store = _store(db_path, n_fall=1, n_gp=1)
    with run_stub_server(latency_ms=2) as stub:
        config = RunConfig(corpora=["e2e-fall", "e2e-gp"], systems=[_model(stub.base_url, "s", "stub+ambiguous")],
                           judges=[_system(stub.base_url, "judge")])  # fmt: skip
        result = await run_config(config, store, model_factory=_factory())
    assert result.generation is not None and result.generation.counts == {"excluded": 2}
    for gen in store.generations():
        assert gen.reason == "ambiguous: 2 different valid JSON objects in the reply" and gen.meta["attempts"] == 1
    store.close()


async def test_short_falloesung_is_reasked_then_excluded_and_attempts_are_true(db_path: Path) -> None:
    store = _store(db_path, n_fall=3, n_gp=0)
    faults = {"FALL-01": ["short"], "FALL-02": ["short"] * 4, "FALL-03": ["500"] * 4}
    with run_stub_server(latency_ms=2, faults=faults) as stub:
        config = RunConfig(corpora=["e2e-fall"], systems=[_system(stub.base_url, "stub")])
        result = await run_config(config, store, stages=("generate",), model_factory=_factory())
        faulted = [entry["fault"] for entry in stub.log]
    assert result.generation is not None and result.generation.counts == {"ok": 1, "excluded": 1, "failed": 1}
    by = {g.task_id: g for g in store.generations()}
    ok, short, failed = by["t-fall-01"], by["t-fall-02"], by["t-fall-03"]
    # short once -> re-asked -> a full solution on the second attempt; a short reply is {"loesung": 30 words}:
    # 31 whitespace-separated words, the stub counts ceil(31 x 1.3) = 41 tokens
    assert ok.status == "ok" and ok.meta["attempts"] == 2 and ok.output_tokens is not None
    assert ok.output_tokens > 200
    # short on every attempt -> excluded after the budget (1 + 3), the last short text kept
    assert short.status == "excluded" and short.meta["attempts"] == 4 and len(short.text.split()) <= 30
    assert short.reason == "short: 41 output tokens (minimum 200) after 4 attempts"
    # issue 10 obs. 12: 4 HTTP attempts (all 500) -> one ask, 3 provider retries, 4 HTTP requests
    assert failed.status == "failed"
    assert (failed.meta["attempts"], failed.meta["provider_retries"], failed.meta["http_attempts"]) == (1, 3, 4)
    assert faulted.count("500") == 4 and faulted.count("short") == 5
    store.close()


def test_benger_run_with_a_reasoning_model_and_an_echoing_judge(tmp_path: Path) -> None:
    """The issue's observation through the command line: `benger run` on the demo corpora (13 + 3 tasks)."""
    from typer.testing import CliRunner

    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    db = tmp_path / "cli.db"
    with run_stub_server(latency_ms=1) as stub:
        config = tmp_path / "run.yaml"
        common = f"provider: openai-compatible, base_url: '{stub.base_url}'"
        config.write_text(
            "corpora: [demo]\n"
            f"systems:\n  - {{name: thinker, model: stub+think, {common}}}\n"
            f"judges:\n  - {{name: echo-judge, model: stub-judge+echo, {common}}}\n"
            "retry: {max_retries: 3, initial_wait: 0.01, max_wait: 0.05}\n",
            encoding="utf-8",
        )
        result = CliRunner().invoke(app, ["run", str(config), "--db", str(db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    store = open_store(db)
    gens = store.generations()
    answers = [g.answer for g in gens if g.answer is not None]  # Grundprinzipien items only
    assert len(gens) == 16 and len(answers) == 13 and set(answers) == {"Ja"}  # the stub's drafts say "Nein"
    assert all(g.status == "ok" and "Entwurf" in g.meta["reasoning"] and not g.text.startswith("Entwurf")
               for g in gens)  # fmt: skip
    judgements = store.judgements()
    assert len(judgements) == 16 and all(j.status == "scored" and j.total for j in judgements)  # never the echo's 0
    store.close()

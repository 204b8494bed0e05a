"""Know the cost first (issue 13 §3): the dry-run estimate on the release against a stub run's actual tokens,
the measured characters-per-token of German legal text, and budget caps that stop cleanly and resume."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from benger.config import cache_dir
from benger.corpora import load_release
from benger.llm import RetryPolicy, create_model
from benger.pipeline import RunConfig, run_config
from benger.pipeline._budget import BudgetGuard
from benger.pipeline._estimate import Observed, estimate_run
from benger.pipeline._fit import CHARS_PER_TOKEN, chars_counter
from benger.store import open_store
from benger.testing._server import tokens as stub_tokens
from benger.testing.stub_server import run_stub_server


def _config(url: str, *, max_tokens: int = 600) -> RunConfig:
    stub = {"provider": "openai-compatible", "base_url": url, "temperature": 0.0, "max_output_tokens": max_tokens}
    return RunConfig(
        corpora=["benchathon"],
        systems=[{"name": "stub", "model": "stub", **stub}],
        judges=[{"name": "stub-judge", "model": "stub-judge", **stub}],
        concurrency=8,
        retry={"max_retries": 0, "initial_wait": 0.0},
        leaderboard={"ci": "normal"},
    )


def _factory() -> functools.partial:
    return functools.partial(create_model, policy=RetryPolicy(max_retries=0, initial_wait=0.0))


@pytest.fixture(scope="module")
def release_store(tmp_path_factory: pytest.TempPathFactory, release_dir: Path) -> Path:
    path = tmp_path_factory.mktemp("est") / "release.db"
    store = open_store(str(path))
    try:
        store.import_release(release_dir)
    finally:
        store.close()
    return path


def _within(estimate: int, actual: int, tolerance: float = 0.2) -> bool:
    return actual > 0 and abs(estimate / actual - 1) <= tolerance


async def test_estimate_on_the_release_matches_a_stub_run(release_store: Path, tmp_path: Path) -> None:
    """Counted with the stub's tokenizer (as a model's own tokenizer), the planned input tokens of the
    Benchathon run (15 generations, then 15 judgements) are within +-20 % of what the stub reports; the output
    estimate (max tokens, no release observation for 'stub') is an upper bound; after the run nothing is left."""
    db = tmp_path / "run.db"
    db.write_bytes(release_store.read_bytes())
    store = open_store(str(db))
    try:
        with run_stub_server(latency_ms=1) as stub:
            config = _config(stub.base_url)
            gen_est = estimate_run(config, store, stages=("generate",), counter=stub_tokens)
            assert [r.calls for r in gen_est.rows] == [15]
            await run_config(config, store, stages=("generate",), model_factory=_factory())
            gens = [g for g in store.generations(status="ok") if g.system == "stub"]
            assert len(gens) == 15
            assert _within(gen_est.input_tokens, sum(g.input_tokens or 0 for g in gens))
            assert gen_est.output_tokens >= sum(g.output_tokens or 0 for g in gens)
            judge_est = estimate_run(config, store, stages=("judge",), counter=stub_tokens)
            assert [r.calls for r in judge_est.rows] == [15]
            await run_config(config, store, stages=("judge",), model_factory=_factory())
            judged = store.judgements(judge="stub-judge")
            assert len(judged) == 15
            assert _within(judge_est.input_tokens, sum(j.meta.get("input_tokens") or 0 for j in judged))
            after = estimate_run(config, store, counter=stub_tokens)
            assert [r.calls for r in after.rows] == [0, 0] and after.input_tokens == 0
    finally:
        store.close()


def test_unknown_prices_stay_unknown_and_paper_systems_use_observed_lengths(
    release_store: Path, release_dir: Path
) -> None:
    store = open_store(str(release_store))
    try:
        config = RunConfig(corpora=["benchathon"], systems=["gpt-5.4"], judges=["gpt-5.4-mini"], concurrency=8)
        est = estimate_run(config, store, observed=Observed.from_release(release_dir))
    finally:
        store.close()
    gen, judge = est.rows
    release = load_release(release_dir)
    words = [float(r["words"]) for r in release.generation_stats if r["model"] == "gpt-5.4"]
    assert gen.output_source.startswith("release") and gen.calls == 15
    assert gen.output_tokens == 15 * round(sum(words) / len(words) * 2.27)
    assert gen.cost_usd is None and est.cost() is None  # null prices in the catalog: unknown, never 0
    assert judge.calls == 15 and judge.output_tokens == 15 * 8000


def test_chars_per_token_of_german_legal_text_against_the_qwen_tokenizer(release_dir: Path) -> None:
    """The documented ratio: every release task text and pick is within -15 % / +13 % of the Qwen2.5 count."""
    gguf = cache_dir() / "models" / "qwen2.5-0.5b-instruct.gguf"
    if not gguf.is_file():
        pytest.skip("the embedded Qwen2.5 GGUF is not assembled (benger local-model qwen2.5-0.5b-instruct)")
    from llama_cpp import Llama

    vocab = Llama(model_path=str(gguf), vocab_only=True, verbose=False)
    release = load_release(release_dir)
    texts = [x for t in release.benchathon.tasks for x in (t.facts, getattr(t, "reference", None)) if x]
    texts += [p.text for p in release.picks if p.text]
    assert len(texts) == 75
    chars = tokens = 0
    for text in texts:
        real = len(vocab.tokenize(text.encode(), add_bos=False, special=False))
        assert -0.16 <= chars_counter(text) / real - 1 <= 0.13
        chars, tokens = chars + len(text), tokens + real
    assert chars / tokens == pytest.approx(CHARS_PER_TOKEN, abs=0.05)


async def test_default_estimate_of_whole_prompts_against_the_qwen_tokenizer(
    release_store: Path, tmp_path: Path
) -> None:
    """What `--dry-run` prints for an API model (characters / 3.16) on the whole rendered prompts of real release
    items (15 Benchathon cases + 20 Grundprinzipien items, generation then judging of the stub's answers) is
    within +-20 % of the Qwen2.5 tokenizer's count of the same prompts (measured on 15 + 40 items: 1.049 x for
    generation, 0.992 x for judging)."""
    gguf = cache_dir() / "models" / "qwen2.5-0.5b-instruct.gguf"
    if not gguf.is_file():
        pytest.skip("the embedded Qwen2.5 GGUF is not assembled (benger local-model qwen2.5-0.5b-instruct)")
    from llama_cpp import Llama

    vocab = Llama(model_path=str(gguf), vocab_only=True, verbose=False)

    def qwen(text: str) -> int:
        return len(vocab.tokenize(text.encode(), add_bos=False, special=False))

    db = tmp_path / "run.db"
    db.write_bytes(release_store.read_bytes())
    store = open_store(str(db))
    try:
        with run_stub_server(latency_ms=1) as stub:
            config = _config(stub.base_url).model_copy(update={"corpora": ["benchathon", "grundprinzipien"]})
            config.filters.limit = 20
            for stage in ("generate", "judge"):
                default = estimate_run(config, store, stages=(stage,))
                counted = estimate_run(config, store, stages=(stage,), counter=qwen)
                assert default.rows[0].token_source == "characters / 3.16"
                assert default.rows[0].calls == counted.rows[0].calls == 35
                assert _within(default.input_tokens, counted.input_tokens), (stage, default.input_tokens)
                await run_config(config, store, stages=(stage,), model_factory=_factory())
    finally:
        store.close()


async def test_max_tokens_cap_stops_cleanly_and_a_rerun_resumes(release_store: Path, tmp_path: Path) -> None:
    db = tmp_path / "cap.db"
    db.write_bytes(release_store.read_bytes())
    store = open_store(str(db))
    try:
        with run_stub_server(latency_ms=1) as stub:
            config = _config(stub.base_url).model_copy(update={"concurrency": 1, "judges": []})
            guard = BudgetGuard(max_tokens=12_000)
            with guard.bound(store):
                first = await run_config(config, store, stages=("generate",), model_factory=guard.wrap(_factory()))
            assert not first.complete and guard.refused > 0
            assert guard.spent_tokens <= 12_000
            done = [g for g in store.generations(status="ok") if g.system == "stub"]
            failed = [g for g in store.generations(status="failed") if g.system == "stub"]
            assert 0 < len(done) < 15 and len(done) + len(failed) == 15
            assert all("BudgetExceeded" in (g.reason or "") for g in failed)
            second = await run_config(config, store, stages=("generate",), model_factory=_factory())
            assert second.complete and second.generation is not None
            assert second.generation.total == len(failed)  # only what the cap stopped is redone
    finally:
        store.close()


def test_max_cost_without_prices_refuses_rather_than_counting_free(tmp_path: Path) -> None:
    from benger.llm import ChatMessage, ChatRequest
    from benger.pipeline._budget import BudgetExceeded
    from benger.schema import SystemConfig

    system = SystemConfig(name="x", provider="openai-compatible", model="m", base_url="http://h/v1")
    request = ChatRequest(messages=[ChatMessage(role="user", content="Sachverhalt " * 10)])
    with open_store(tmp_path / "ledger.db") as store:
        with BudgetGuard(max_cost=1.0).bound(store) as guard, pytest.raises(BudgetExceeded, match="no catalog price"):
            guard.check(system, request)
        assert guard.refused == 1
        priced = system.model_copy(
            update={"price_in_per_mtok": 1.0, "price_out_per_mtok": 2.0, "max_output_tokens": 1000}
        )
        with BudgetGuard(max_cost=1.0).bound(store) as guard:
            assert guard.check(priced, request) == (1038, pytest.approx(0.002038))  # 38 input + 1000 output
        with BudgetGuard(max_cost=0.001).bound(store) as guard, pytest.raises(BudgetExceeded, match="max-cost"):
            guard.check(priced, request)


def test_cli_dry_run_calls_nothing_and_caps_exit_3_then_resume(release_store: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from benger.cli import app
    from benger.cli._app import _register_commands
    from benger.errors import EXIT_INCOMPLETE

    _register_commands()
    runner = CliRunner()
    db = tmp_path / "cli.db"
    db.write_bytes(release_store.read_bytes())
    with run_stub_server(latency_ms=1) as stub:
        config = tmp_path / "run.yaml"
        config.write_text(
            "name: est\ncorpora: [benchathon]\nsystems:\n  - {name: stub, provider: openai-compatible, model: stub, "
            f'base_url: "{stub.base_url}", max_output_tokens: 600}}\nconcurrency: 1\nretry: {{max_retries: 0}}\n',
            encoding="utf-8",
        )
        base = ["--db", str(db), "-q"]
        dry = runner.invoke(app, ["run", str(config), *base, "--dry-run"], env={"COLUMNS": "250"})
        assert dry.exit_code == 0, dry.output
        assert "Dry run" in dry.output and "unknown" in dry.output
        store = open_store(str(db))
        try:
            assert not [g for g in store.generations() if g.system == "stub"]  # the dry run called nothing
        finally:
            store.close()
        capped = runner.invoke(app, ["generate", str(config), *base, "--max-tokens", "12000"])
        assert capped.exit_code == EXIT_INCOMPLETE, capped.output
        assert "budget cap reached" in capped.output
        resumed = runner.invoke(app, ["generate", str(config), *base, "--max-tokens", "10000000"])
        assert resumed.exit_code == 0, resumed.output
    store = open_store(str(db))
    try:
        assert len([g for g in store.generations(status="ok") if g.system == "stub"]) == 15
    finally:
        store.close()


def test_release_cost_cross_check_counts_only_falloesung_calls(release_store: Path, release_dir: Path) -> None:
    """operational_metadata.json: claude-opus-4-7 cost 0.15026 USD per Benchathon generation (mean of 15)."""
    store = open_store(str(release_store))
    try:
        config = RunConfig(corpora=["benchathon", "grundprinzipien"], systems=["claude-opus-4-7"], filters={"limit": 3})
        est = estimate_run(config, store, stages=("generate",), observed=Observed.from_release(release_dir))
    finally:
        store.close()
    (row,) = est.rows
    assert row.calls == 6  # 3 Falllösungen + 3 Grundprinzipien items
    assert row.observed_cost_usd == pytest.approx(3 * 0.15026)
    assert row.seconds == pytest.approx(73.31673333333333)  # mean latency; 6 calls at concurrency 8: one wave

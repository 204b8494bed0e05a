"""Bring your own model (issue 30), through the CLI against the stub's server dialects: ``--model`` without a
YAML file, structured-output negotiation, missing usage, rate limits, refusals, context windows, exit codes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.llm._context import forget_probes
from benger.llm._structured import forget
from benger.testing import Dialect, run_stub_server

_register_commands()
runner = CliRunner()


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    forget()
    forget_probes()
    yield
    forget()
    forget_probes()


def _invoke(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"COLUMNS": "300"})


def _rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


def _generations(db: Path) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(s, r, json.loads(m)) for s, r, m in _rows(db, "SELECT status, reason, meta FROM generations")]


def test_model_on_the_command_line_negotiates_the_form_and_estimates_missing_usage(tmp_path: Path) -> None:
    """llama-cpp-python's dialect: json_schema refused with HTTP 500, no usage; no YAML, no structured_output."""
    db = tmp_path / "s.db"
    dialect = Dialect(refuse_formats={"json_schema": 500}, usage=False)
    with run_stub_server(dialect=dialect) as stub:
        result = _invoke(
            "generate", "--model", "openai-compatible/stub", "--model-base-url", stub.base_url,
            "-M", "temperature=0.3", "-M", "max_output_tokens=3000", "--corpus", "demo", "--limit", "2",
            "--db", str(db), "-q",
        )  # fmt: skip
        statuses = [e["status"] for e in stub.log]
    assert result.exit_code == 0, result.output
    gens = _generations(db)
    assert gens and all(status == "ok" for status, _, _ in gens)
    assert {m["structured_output"] for _, _, m in gens} == {"json_object_schema"}
    assert all(m["tokens_estimated"] is True for _, _, m in gens)
    assert statuses.count(500) == 1 and statuses.count(200) == len(gens)  # one refused request in all
    # provenance: the system is stored as a config file would have given it
    (config,) = _rows(db, "SELECT config FROM systems")
    stored = json.loads(config[0]) if isinstance(config[0], str) else config[0]
    assert stored["provider"] == "openai-compatible" and stored["model"] == "stub"
    assert stored["temperature"] == 0.3 and stored["max_output_tokens"] == 3000


def test_an_unknown_provider_and_a_missing_key_are_config_errors_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    db = tmp_path / "s.db"
    unknown = _invoke("generate", "--model", "nosuch/model", "--corpus", "demo", "--db", str(db))
    assert unknown.exit_code == 2 and "unknown provider 'nosuch'" in unknown.output
    missing = _invoke("generate", "--model", "openai/gpt-5.4-mini", "--corpus", "demo", "--db", str(db))
    assert missing.exit_code == 2, missing.output
    assert "OPENAI_API_KEY" in missing.output and "run the same command again" not in missing.output
    assert not db.exists()  # nothing written


def test_a_429_with_retry_after_pauses_the_endpoint_and_no_item_fails(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with run_stub_server(dialect=Dialect(rate_limit=5, retry_after=1)) as stub:
        result = _invoke(
            "generate", "--model", "openai-compatible/stub", "--model-base-url", stub.base_url,
            "--corpus", "demo-grundprinzipien", "--limit", "20", "--concurrency", "16", "--db", str(db), "-q",
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [s for s, _, _ in _generations(db)].count("ok") == len(_generations(db)) > 0


def test_a_refusal_is_stored_refused_after_one_call_and_the_exit_code_says_so(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with run_stub_server() as stub:
        result = _invoke(
            "generate", "--model", "openai-compatible/stub+refusal_phrase", "--model-base-url", stub.base_url,
            "--corpus", "demo", "--limit", "1", "--db", str(db), "-q",
        )  # fmt: skip
        calls = len(stub.log)
    assert result.exit_code == 3, result.output
    assert "excluded without a usable result" in result.output and "refused" in result.output
    gens = _generations(db)
    assert all(s == "excluded" and r.startswith("refused (phrase)") for s, r, _ in gens)
    assert calls == len(gens)  # one call each, never re-asked


def test_prompts_that_cannot_fit_are_predicted_by_the_dry_run_and_skipped_unsent(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with run_stub_server(dialect=Dialect(context_window=1500)) as stub:
        model = ["--model", "openai-compatible/stub", "--model-base-url", stub.base_url, "-M", "max_output_tokens=1000"]
        dry = _invoke("generate", *model, "--corpus", "demo", "--limit", "2", "--db", str(db), "--dry-run")
        assert dry.exit_code == 0, dry.output
        assert "too long" in dry.output.lower()
        result = _invoke("generate", *model, "--corpus", "demo", "--limit", "2", "--db", str(db), "-q")
        calls = len(stub.log)
    assert result.exit_code == 3, result.output
    gens = _generations(db)
    skipped = [r for s, r, _ in gens if s == "excluded" and r.startswith("too long: prompt")]
    assert skipped and all("context window 1,500 (server (models))" in r for r in skipped)
    assert calls == len(gens) - len(skipped)  # the ones that do not fit are never sent


def test_judge_exit_codes_follow_the_one_rule(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with run_stub_server() as stub:
        base = ["--model-base-url", stub.base_url]
        gen = _invoke("generate", "--model", "openai-compatible/stub", *base, "--corpus", "demo", "--limit", "2",
                      "--db", str(db), "-q")  # fmt: skip
        assert gen.exit_code == 0, gen.output
        good = _invoke("judge", "--judge-model", "openai-compatible/stub-judge", "--judge-model-base-url",
                       stub.base_url, "--corpus", "demo", "--limit", "2", "--db", str(db), "-q")  # fmt: skip
        assert good.exit_code == 0, good.output
        bad = _invoke("judge", "--judge-model", "openai-compatible/stub-judge+refusal", "--judge-model-base-url",
                      stub.base_url, "--corpus", "demo", "--limit", "2", "--db", str(db), "-q")  # fmt: skip
    assert bad.exit_code == 3, bad.output
    assert "incomplete" in bad.output

"""One meaning of "done" (issue 30 §4; README "Exit codes"): per command, 0 only when every unit has a usable
result, 3 with the counts when some do not, 2 for bad input or configuration before any call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.llm._structured import forget
from benger.testing import run_stub_server

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def stub_url() -> Iterator[str]:
    forget()
    with run_stub_server() as stub:
        yield stub.base_url


def _cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "300"})
    return result.exit_code, result.output


def _model(url: str, name: str = "stub") -> list[str]:
    return ["--model", f"openai-compatible/{name}", "--model-base-url", url]


def _judge(url: str, name: str = "stub-judge") -> list[str]:
    return ["--judge-model", f"openai-compatible/{name}", "--judge-model-base-url", url]


def test_run(stub_url: str, tmp_path: Path) -> None:
    base = ["--corpus", "demo-grundprinzipien", "--limit", "2", "-q"]
    assert _cli("run", *_model(stub_url), *_judge(stub_url), *base, "--db", str(tmp_path / "a.db"))[0] == 0
    code, out = _cli("run", *_model(stub_url, "stub+refusal"), *_judge(stub_url), *base, "--db", str(tmp_path / "b.db"))
    assert code == 3 and "2 generation(s) excluded without a usable result (2 refused)" in out, out
    code, out = _cli("run", "--model", "nosuch/x", *base, "--db", str(tmp_path / "c.db"))
    assert code == 2 and "unknown provider" in out


def test_generate(stub_url: str, tmp_path: Path) -> None:
    base = ["--corpus", "demo-grundprinzipien", "--limit", "2", "-q", "--db", str(tmp_path / "g.db")]
    assert _cli("generate", *_model(stub_url), *base)[0] == 0
    code, out = _cli("generate", *_model(stub_url, "stub+content_filter"), *base)
    assert code == 3 and "refused" in out, out
    assert _cli("generate", "-M", "temperature=0.1", *base)[0] == 2  # -M without --model


def test_judge(stub_url: str, tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "j.db")]
    base = ["--corpus", "demo-grundprinzipien", "--limit", "2", "-q", *db]
    assert _cli("generate", *_model(stub_url), *base)[0] == 0
    assert _cli("judge", *_judge(stub_url), *base)[0] == 0
    code, out = _cli("judge", *_judge(stub_url, "stub-judge+refusal"), *base)
    assert code == 3 and "incomplete" in out, out
    assert _cli("judge", "--judge-model", "openai-compatible/x", *base)[0] == 2  # no base_url


@pytest.mark.slow
def test_validate_judge(stub_url: str, tmp_path: Path, release_dir: Path) -> None:
    db = str(tmp_path / "v.db")
    base = ["--release", str(release_dir), "--limit", "3", "-q", "--db", db]
    code, out = _cli("validate-judge", *_judge(stub_url), *base)
    assert code == 0, out
    code, out = _cli("validate-judge", *_judge(stub_url, "stub-judge+refusal"), *base)
    assert code == 3 and "0 of 3 picks scored" in out, out
    assert _cli("validate-judge", "--judge-model", "nosuch/x", *base)[0] == 2

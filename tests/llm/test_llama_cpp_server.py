"""benger against a real third-party server (issue 30): llama-cpp-python's own OpenAI-compatible server
(``python -m llama_cpp.server``) serving the packaged SmolLM2-135M GGUF, driven through the CLI from a plain
config and from ``--model`` alone, with no ``structured_output`` anywhere.

That server answers ``response_format: json_schema`` with HTTP 500 ("Input should be 'text' or
'json_object'") and takes ``json_object`` with a schema: benger must find that out from the first request,
never resend the refused form, record the mode, and predict and skip the judge prompts that do not fit the
server's 2,048-token window.
"""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.llm._context import forget_probes
from benger.llm._structured import forget

# llama-cpp-python serves one request at a time and SmolLM2 under a JSON grammar writes ~5-20 tokens/s on 2 busy
# cores: the budget is for the whole module, not a speed check
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
pytest.importorskip("llama_cpp.server", reason="llama-cpp-python[server] (scripts/setup.sh installs it)")

_register_commands()
runner = CliRunner()
N_CTX = 2048


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from benger.llm import model_path

    try:
        gguf = model_path("smollm2-135m")
    except Exception as exc:  # the package is installed by scripts/setup.sh
        pytest.skip(f"SmolLM2 GGUF not installed: {exc}")
    port = _free_port()
    log = (tmp_path_factory.mktemp("llama") / "server.log").open("w")
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", "smollm2",
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(N_CTX), "--n_threads", "2"]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
    )
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
        if process.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with {process.returncode}")
    else:
        process.kill()
        pytest.fail("llama_cpp.server did not answer within 120 s")
    forget()
    forget_probes()
    try:
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "300"})
    return result.exit_code, result.output


def _meta(db: Path, table: str) -> list[tuple[str, str | None, dict[str, Any]]]:
    with sqlite3.connect(db) as con:
        rows = con.execute(f"SELECT status, reason, meta FROM {table}").fetchall()
    return [(s, r, json.loads(m)) for s, r, m in rows]


def test_a_plain_config_runs_end_to_end(server: str, tmp_path: Path) -> None:
    system = f"{{name: smol, provider: openai-compatible, model: smollm2, base_url: '{server}', max_output_tokens: 80, context_window: {N_CTX}}}"  # noqa: E501
    judge = f"{{name: smol-judge, provider: openai-compatible, model: smollm2, base_url: '{server}', max_output_tokens: 600, context_window: {N_CTX}}}"  # noqa: E501
    config = tmp_path / "run.yaml"
    config.write_text(
        f"corpora: [demo-falloesung]\nsystems:\n  - {system}\njudges:\n  - {judge}\nmin_output_tokens: 0\n"
        "filters: {limit: 1}\nconcurrency: 2\n",
        encoding="utf-8",
    )
    db = tmp_path / "run.db"
    code, out = _cli("run", str(config), "--db", str(db), "--dry-run")
    assert code == 0, out
    dry_too_long = out
    code, out = _cli("run", str(config), "--db", str(db), "-q")
    gens = _meta(db, "generations")
    assert gens, out
    # no failure caused by the request's form; the accepted mode is recorded with each generation
    assert not [g for g in gens if g[0] == "failed"], gens
    assert {m.get("structured_output") for _, _, m in gens} == {"json_object_schema"}
    judgements = _meta(db, "judgements")
    skipped = [r for s, r, _ in judgements if s == "unscored" and (r or "").startswith("too long: prompt")]
    # the Falllösung judge prompt (rubric + facts + reference + candidate) cannot fit 2,048 tokens: predicted
    # by the dry run and skipped with that reason, never sent; then the run is incomplete (exit 3)
    assert skipped and "too long" in dry_too_long.lower()
    assert code == 3 and "incomplete" in out
    lb_code, lb_out = _cli("leaderboard", "--db", str(db))
    assert lb_code in (0, 2), lb_out


def test_model_on_the_command_line_alone(server: str, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    model = ["--model", "openai-compatible/smollm2", "--model-base-url", server, "-M", "max_output_tokens=80"]
    code, out = _cli("generate", *model, "--corpus", "demo-grundprinzipien", "--limit", "2", "--db", str(db), "-q")
    gens = _meta(db, "generations")
    assert len(gens) == 2 and not [g for g in gens if g[0] == "failed"], (out, gens)
    assert {m.get("structured_output") for _, _, m in gens} == {"json_object_schema"}
    assert code in (0, 3) and (code == 0) == all(s == "ok" for s, _, _ in gens), out
    judge = ["--judge-model", "openai-compatible/smollm2", "--judge-model-base-url", server,
             "--judge-model-arg", "max_output_tokens=300", "--judge-model-arg", f"context_window={N_CTX}"]  # fmt: skip
    code, out = _cli("judge", *judge, "--corpus", "demo-grundprinzipien", "--limit", "1", "--db", str(db), "-q")
    judgements = _meta(db, "judgements")
    assert judgements and not [r for s, r, _ in judgements if (r or "").startswith("provider error")], judgements
    assert code == (0 if all(s == "scored" for s, _, _ in judgements) else 3), out


def test_validate_judge_with_a_limit(server: str, tmp_path: Path, release_dir: Path) -> None:
    judge = ["--judge-model", "openai-compatible/smollm2", "--judge-model-base-url", server,
             "--judge-model-arg", "max_output_tokens=600", "--judge-model-arg", f"context_window={N_CTX}"]  # fmt: skip
    db = str(tmp_path / "v.db")
    code, out = _cli("validate-judge", *judge, "--release", str(release_dir), "--limit", "2", "--db", db, "-q")
    # the picks' judge prompts do not fit 2,048 tokens: skipped with the reason, so no pick is scored: exit 3
    assert code == 3, out
    assert "0 of 2 picks scored" in out
    # the store also holds the release's own (scored) judgements: the local judge's are the unscored ones
    unscored = [r for s, r, _ in _meta(Path(db), "judgements") if s == "unscored"]
    assert len(unscored) == 2 and all((r or "").startswith("too long") for r in unscored), unscored

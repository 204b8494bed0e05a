"""``benger local-model`` and ``benger stub-server`` commands."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx

BENGER = [sys.executable, "-c", "from benger.cli import main; main()"]


def test_local_model_prints_the_gguf_path_or_a_clear_error() -> None:
    found = subprocess.run([*BENGER, "local-model", "smollm2-135m"], capture_output=True, text=True, timeout=60)
    assert found.returncode == 0
    assert Path(found.stdout.strip()).name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    unknown = subprocess.run([*BENGER, "local-model", "gpt-2"], capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2
    assert "unknown local model 'gpt-2'; known: smollm2-135m" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_stub_server_command_serves_and_logs(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log_file = tmp_path / "log.jsonl"
    args = ["stub-server", "--port", str(port), "--request-log", str(log_file), "--faults", '{"*": ["503"]}']
    # SIGINT restored in the child: a runner that ignores it (a background job) would pass SIG_IGN on, and the
    # stub would then never stop on the SIGINT below
    server = subprocess.Popen(
        [*BENGER, *args],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert server.stdout is not None and str(port) in server.stdout.readline()
        url = f"http://127.0.0.1:{port}/v1/chat/completions"
        body = {"model": "m", "messages": [{"role": "user", "content": "Hallo"}]}
        statuses = [httpx.post(url, json=body, timeout=10).status_code for _ in range(2)]
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)
    assert statuses == [503, 200]
    assert [json.loads(line)["status"] for line in log_file.read_text().splitlines()] == [503, 200]

"""A worker process closes the models its threads built when it ends (``workers._tasks.close_models``).

Before: a worker keeps one model per thread and settings on that thread's event loop, for every delivery, and
nothing closed them: their aiohttp sessions were finalised at interpreter exit, "Unclosed client session" /
"Unclosed connector" on stderr (seen in the test session's stderr after ``tests/workers``, whose tests run a
task body in-process; litellm's logging filter then failed on those records at shutdown).

A real subprocess: a task body's model (``_tasks._model``) answers one call from the stub on the thread's loop
(``_tasks._loop``), in the main thread and in a second thread, and the process exits without closing anything
itself; its stderr holds no "Unclosed" and no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benger.testing import run_stub_server

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys, threading
from benger.llm import ChatMessage, ChatRequest
from benger.schema import SystemConfig
from benger.workers import _tasks

system = SystemConfig(name="s", provider="openai-compatible", model="stub", base_url=sys.argv[1])
request = ChatRequest(messages=[ChatMessage(role="user", content="Ja oder Nein?")])


def call():
    model = _tasks._model(system, {})
    print(_tasks._loop().run_until_complete(model.complete(request)).usage.output_tokens > 0)


call()
thread = threading.Thread(target=call)
thread.start()
thread.join()
"""


def test_a_worker_process_ends_with_its_models_closed() -> None:
    with run_stub_server() as stub:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONWARNINGS": "default"}
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, stub.base_url], capture_output=True, text=True, timeout=120, env=env
        )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "True"] and len(stub.log) == 2, proc.stdout
    noise = [line for line in proc.stderr.splitlines() if "nclosed" in line or "Traceback" in line]
    assert noise == [], proc.stderr

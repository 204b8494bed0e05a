"""A ``benger run`` through litellm and the openai SDK ends with nothing on stderr: every HTTP client is closed.

Before: litellm keeps the async clients it builds (an aiohttp session each) in a process-wide cache and nothing
closed them when the run's event loop ended; they were finalised at interpreter exit ("unclosed transport"
ResourceWarnings; in the test session "Unclosed client session" / "Unclosed connector", which failed inside
litellm's logging filter at shutdown). ``LiteLLMChatModel.aclose`` (called when the run's model pool closes)
now closes litellm's clients of the run's loop (``llm._litellm.close_litellm_clients``).

A real subprocess against the stub server, with every warning shown (``PYTHONWARNINGS=default``): its stderr
holds no "unclosed", no ResourceWarning, no "Exception ignored" and no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benger.llm._litellm import litellm_installed
from benger.testing import run_stub_server

BENGER = Path(sys.executable).with_name("benger")
ROOT = Path(__file__).resolve().parents[2]
NOISE = ("unclosed", "resourcewarning", "exception ignored", "traceback", "error")

pytestmark = pytest.mark.skipif(not litellm_installed(), reason="the litellm extra (pip install 'benger[litellm]')")


def _entry(name: str, provider: str, model: str, url: str) -> str:
    return f"  - {{name: {name}, provider: {provider}, model: {model}, base_url: '{url}', temperature: 0}}\n"


@pytest.mark.parametrize("command", ["run", "generate"])
def test_a_run_leaves_no_client_to_the_interpreter_s_exit(command: str, tmp_path: Path) -> None:
    with run_stub_server() as stub:
        config = tmp_path / "run.yaml"
        config.write_text(
            "corpora: [demo-grundprinzipien]\nfilters: {limit: 2}\nsystems:\n"
            + _entry("lt-openai", "litellm", "openai/stub", stub.base_url)
            + _entry("lt-vllm", "litellm", "hosted_vllm/stub", stub.base_url)
            + _entry("sdk", "openai-compatible", "stub", stub.base_url)
            + "judges:\n"
            + _entry("lt-judge", "litellm", "openai/stub-judge", stub.base_url),
            encoding="utf-8",
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONWARNINGS": "default", "COLUMNS": "200"}
        env.pop("LITELLM_LOCAL_MODEL_COST_MAP", None)  # benger sets it itself
        proc = subprocess.run(
            [str(BENGER), command, str(config), "--db", str(tmp_path / "s.db"), "-q"],
            capture_output=True,
            text=True,
            timeout=240,
            env=env,
            cwd=tmp_path,
        )
    assert proc.returncode == 0, proc.stderr
    assert len(stub.log) >= 6  # every system answered (2 tasks each), so every client was used
    noise = [line for line in proc.stderr.splitlines() if any(word in line.lower() for word in NOISE)]
    assert noise == [], proc.stderr

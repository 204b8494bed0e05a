"""The stub server: default replies, faults, request log, the CLI process, throughput."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from benger.judge import falloesung_rubric, grade_points, grundprinzipien_rubric
from benger.testing import Fault, FaultPlan, default_responder, run_stub_server
from benger.testing.stub_server import messages_key, tokens


def _chat(text: str, **extra: object) -> dict:
    return {"model": "stub", "messages": [{"role": "user", "content": text}], **extra}


def test_default_responder_ja_nein_and_determinism() -> None:
    request = _chat("Hat A einen Anspruch? Antworte mit Ja oder Nein und begründe kurz.")
    reply = json.loads(default_responder(request))
    assert reply["answer"] == "Ja" and len(reply["reasoning"].split()) > 20
    assert default_responder(request) == default_responder(request)
    other = default_responder(_chat("Hat B einen Anspruch? Ja/Nein?"))
    assert json.loads(other)["reasoning"] != reply["reasoning"]  # derived from the prompt's hash


def test_default_responder_judge_reply_is_valid_for_the_rubric() -> None:
    rubric = falloesung_rubric()
    prompt = "Bewerte die Lösung. Dimensionen: " + ", ".join(rubric.keys) + ". Gib ausschließlich JSON aus."
    reply = json.loads(default_responder(_chat(prompt)))
    assert set(reply["scores"]) == set(rubric.keys)
    for key, maximum in rubric.maxima().items():
        score = reply["scores"][key]["score"]
        assert 0 <= score <= maximum and score * 2 == int(score * 2)  # half-point steps
        assert reply["scores"][key]["max"] == maximum
    total = sum(s["score"] for s in reply["scores"].values())
    assert reply["total_score"] == total and reply["grade_points"] == grade_points(total)

    gp = grundprinzipien_rubric()
    schema = {"type": "object", "properties": {"scores": {"type": "object", "properties": {k: {} for k in gp.keys}}}}
    request = _chat("Bewerte.", response_format={"type": "json_schema", "json_schema": {"schema": schema}})
    assert set(json.loads(default_responder(request))["scores"]) == set(gp.keys)


def test_default_responder_keeps_schema_scores_within_dimension_maxima() -> None:
    rubric = falloesung_rubric()
    dimension = {"type": "object", "properties": {"score": {"type": "number"}, "max": {"type": "number"}}}
    schema = {"type": "object", "properties": {key: dimension for key in rubric.keys}}
    fmt = {"type": "json_schema", "json_schema": {"name": "urteil", "schema": schema}}
    reply = json.loads(default_responder(_chat("Bewerte die Lösung.", response_format=fmt)))
    assert set(reply) == set(rubric.keys)
    # e.g. formalia has max 2 and sprache max 3: a schema without "maximum" must not produce 6.5 there
    assert all(0 <= reply[k]["score"] <= m and reply[k]["max"] == m for k, m in rubric.maxima().items())


def test_default_responder_fills_a_schema_and_writes_long_solutions() -> None:
    schema = {
        "type": "object",
        "properties": {
            "answer": {"type": "string", "enum": ["Nein", "Ja"]},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "norms": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "ok": {"type": "boolean"},
        },
    }
    fmt = {"type": "json_schema", "json_schema": {"name": "r", "schema": schema}}
    reply = json.loads(default_responder(_chat("Frage", response_format=fmt)))
    assert reply["answer"] == "Ja" and 0 <= reply["confidence"] <= 1 and len(reply["norms"]) == 2 and reply["ok"]
    solution = default_responder(_chat("Löse den folgenden Fall im Gutachtenstil: A kauft von B ein Fahrrad."))
    assert tokens(solution) >= 200  # long enough for the paper's 200-token minimum
    assert "§" in solution


def test_fault_specs() -> None:
    assert Fault.parse("429:2") == Fault(kind="429", status=429, seconds=2.0)
    assert Fault.parse("timeout").status is None
    with pytest.raises(ValueError, match="unknown fault 'explode'"):
        Fault.parse("explode")
    with pytest.raises(ValueError, match="4xx or 5xx"):
        Fault.parse("200")
    plan = FaultPlan({"Kauf": ["500", "429:1"]}, fault_rate=0.5, seed=1, random_faults=("503",))
    assert str(plan.next_fault("k", "Kaufvertrag")) == "500"
    assert str(plan.next_fault("k", "Kaufvertrag")) == "429:1"
    # after the script, the seeded random rate applies: about half of 200 requests get a 503
    random_faults = [plan.next_fault("k", "Kaufvertrag") for _ in range(200)]
    assert 70 <= sum(f is not None for f in random_faults) <= 130


async def test_request_log_and_scripted_faults_over_http(tmp_path: Path) -> None:
    log_file = tmp_path / "log" / "requests.jsonl"
    with run_stub_server(request_log=log_file, faults={"Miet": ["429:3", "500", "malformed"]}) as stub:
        async with httpx.AsyncClient(base_url=stub.base_url) as client:
            first = await client.post("/chat/completions", json=_chat("Mietvertrag? Ja oder Nein?"))
            second = await client.post("/chat/completions", json=_chat("Mietvertrag? Ja oder Nein?"))
            third = await client.post("/chat/completions", json=_chat("Mietvertrag? Ja oder Nein?"))
            fourth = await client.post("/chat/completions", json=_chat("Mietvertrag? Ja oder Nein?"))
            bad = await client.post("/chat/completions", content=b"{nope")
    assert (first.status_code, first.headers["retry-after"]) == (429, "3")
    assert second.status_code == 500
    malformed = third.json()["choices"][0]["message"]["content"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(malformed)
    assert json.loads(fourth.json()["choices"][0]["message"]["content"])["answer"] == "Ja"
    assert bad.status_code == 400
    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert [(e["status"], e["fault"]) for e in lines] == [(429, "429:3"), (500, "500"), (200, "malformed"), (200, None)]
    assert {e["key"] for e in lines} == {messages_key(_chat("Mietvertrag? Ja oder Nein?")["messages"])}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


CLIENT = """
import os, signal, sys, httpx
with httpx.Client(base_url=sys.argv[1]) as client:
    for i in range(5):
        client.post("/chat/completions", json={"model": "m", "messages": [{"role": "user", "content": f"Frage {i}"}]})
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_cli_process_keeps_a_complete_log_when_the_client_is_killed(tmp_path: Path) -> None:
    port, log_file = _free_port(), tmp_path / "requests.jsonl"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "benger.testing.stub_server",
            "--port",
            str(port),
            "--request-log",
            str(log_file),
            "--latency-ms",
            "20",
            "--responder",
            "benger.testing:default_responder",
        ],
        stdout=subprocess.PIPE,
        text=True,
        # SIGINT restored in the child: an inherited SIG_IGN (a background test run) would keep it running
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert server.stdout is not None
        assert f"127.0.0.1:{port}" in server.stdout.readline()
        client = subprocess.run([sys.executable, "-c", CLIENT, f"http://127.0.0.1:{port}/v1"], timeout=60)
        assert client.returncode == -signal.SIGKILL
        entries = [json.loads(line) for line in log_file.read_text().splitlines()]
        assert len(entries) == 5 and all(e["status"] == 200 for e in entries)
        assert all(e["duration_ms"] >= 20 for e in entries)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)


async def test_concurrent_requests_overlap_at_the_stub() -> None:
    """128 requests over 64 connections at 200 ms latency overlap at the stub."""
    with run_stub_server(latency_ms=200) as stub:
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=stub.base_url, limits=limits, timeout=30) as client:
            started = time.perf_counter()
            replies = await asyncio.gather(
                *(client.post("/chat/completions", json=_chat(f"Frage {i}")) for i in range(128))
            )
            elapsed = time.perf_counter() - started
        assert stub.max_in_flight == 64
    assert all(r.status_code == 200 for r in replies)
    # served one after another this would take 128 x 0.2 s = 25.6 s; two overlapping waves take ~0.4 s plus
    # the (slow, pure-Python) client's overhead on a shared 2-core machine, so half the serial time is generous
    assert elapsed < 12.8


def test_latency_counts_from_receipt_and_includes_rendering() -> None:
    def slow_responder(request: dict) -> str:
        time.sleep(0.15)  # rendering that takes 150 of the 200 ms
        return '{"answer": "Ja", "reasoning": "weil"}'

    with run_stub_server(latency_ms=200, responder=slow_responder) as stub:
        started = time.perf_counter()
        httpx.post(f"{stub.base_url}/chat/completions", json=_chat("Frage"), timeout=10).raise_for_status()
        elapsed = time.perf_counter() - started
        (entry,) = stub.log
    assert elapsed >= 0.2
    # the server's own receipt-to-reply time (client start-up under CPU load does not enter it):
    # 200 ms, not 200 + 150
    assert 200 <= entry["duration_ms"] < 330


# --- reply behaviours (issue 11): each row is a model-name behaviour and what the reply must look like ------
BEHAVIOUR_ROWS = [
    # (model, content starts with, refusal field, finish reason, reasoning_content starts with)
    ("stub", '{"answer": "Ja"', None, "stop", None),
    ("stub+think", '<think>\nErst ein Entwurf:\n{"answer": "Nein"', None, "stop", None),
    ("stub+reasoning", '{"answer": "Ja"', None, "stop", 'Erst ein Entwurf:\n{"answer": "Nein"'),
    ("stub+echo", 'Das verlangte Format:\n{"answer": "Ja/Nein", "reasoning": "<Text>"}', None, "stop", None),
    ("stub+correction", '{"answer": "Nein", "reasoning": "Entwurf: ', None, "stop", None),
    ("stub+ambiguous", '{"answer": "Nein", "reasoning": "Entwurf: ', None, "stop", None),
    ("stub+short", '{"answer": "Ja"', None, "stop", None),
    ("stub+refusal", None, "Dazu kann ich keine Auskunft geben.", "stop", None),
    ("stub+refusal_phrase", "Es tut mir leid, aber ich kann dabei nicht helfen.", None, "stop", None),
    ("stub+content_filter", "", None, "content_filter", None),
    ("stub+unknown", '{"answer": "Ja"', None, "stop", None),  # unknown parts are just part of the name
]


@pytest.mark.parametrize(("model", "content", "refusal", "finish", "reasoning"), BEHAVIOUR_ROWS)
def test_model_behaviours(
    model: str, content: str | None, refusal: str | None, finish: str, reasoning: str | None
) -> None:
    prompt = "Hat A einen Anspruch? Antworte mit Ja oder Nein und begründe kurz."
    with run_stub_server() as stub:
        body = httpx.post(f"{stub.base_url}/chat/completions", json=_chat(prompt, model=model)).json()
    choice = body["choices"][0]
    message = choice["message"]
    assert (message["refusal"], choice["finish_reason"], message.get("reasoning_content", None) and
            message["reasoning_content"][: len(reasoning or "")]) == (refusal, finish, reasoning)  # fmt: skip
    if content is None:
        assert message["content"] is None
    else:
        assert message["content"].startswith(content)
    if model == "stub+short":
        assert len(json.loads(message["content"])["reasoning"].split()) <= 30
    if model in ("stub+correction", "stub+ambiguous", "stub+think", "stub+echo"):
        assert message["content"].endswith(default_responder(_chat(prompt, model=model)))  # the final is last
    if reasoning:
        assert body["usage"]["completion_tokens_details"]["reasoning_tokens"] > 0

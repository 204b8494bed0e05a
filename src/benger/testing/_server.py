"""The stub server's core (see ``benger.testing.stub_server`` for usage): routing, faults, replies, log."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from benger.testing._behaviours import BEHAVIOURS, Shaped, apply, model_behaviours
from benger.testing._dialects import TOKENS_PER_WORD, Dialect
from benger.testing._dialects import count_tokens as tokens
from benger.testing._faults import Fault, FaultPlan
from benger.testing._http import HttpResponse, HttpServer
from benger.testing._responder import default_responder

Responder = Callable[[dict[str, Any]], str]
MAX_LOG_IN_MEMORY = 100_000  # the file log keeps everything; memory keeps the latest entries


def messages_key(messages: Any) -> str:
    """sha256 of the canonical JSON of the messages (the request log's key)."""
    text = json.dumps(messages, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _text_of(messages: list[dict[str, Any]]) -> str:
    return "\n".join(str(m.get("content", "")) for m in messages)


class StubServer:
    """The stub: an HttpServer plus responder, latency, faults, request log and in-flight statistics."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        latency_ms: float = 0.0,
        responder: Responder | None = None,
        faults: dict[str, list[str]] | None = None,
        fault_rate: float = 0.0,
        fault_seed: int = 0,
        random_faults: tuple[str, ...] = ("429:1", "500"),
        request_log: str | Path | None = None,
        timeout_hold_s: float = 30.0,
        dialect: Dialect | None = None,
    ) -> None:
        self.latency_s = latency_ms / 1000.0
        self.responder = responder or default_responder
        self.plan = FaultPlan(faults, fault_rate=fault_rate, random_faults=random_faults, seed=fault_seed)
        self.timeout_hold_s = timeout_hold_s
        self.dialect = dialect or Dialect()
        self.http = HttpServer(self._dispatch, host, port)
        self.log: deque[dict[str, Any]] = deque(maxlen=MAX_LOG_IN_MEMORY)
        self.in_flight = 0
        self.max_in_flight = 0
        self._log_path = Path(request_log) if request_log else None
        self._log_file: IO[str] | None = None

    @property
    def port(self) -> int:
        return self.http.port

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (``http://127.0.0.1:PORT/v1``)."""
        return f"http://{self.http.host}:{self.http.port}/v1"

    @property
    def root_url(self) -> str:
        """The server root (Anthropic and Gemini SDKs add their own path prefixes)."""
        return f"http://{self.http.host}:{self.http.port}"

    async def start(self) -> None:
        if self._log_path is not None:
            self._log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log_file = self._log_path.open("a", encoding="utf-8")
        await self.http.start()

    async def stop(self) -> None:
        await self.http.stop()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def _record(self, entry: dict[str, Any]) -> None:
        self.log.append(entry)
        if self._log_file is not None:
            self._log_file.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self._log_file.flush()

    # --- routing ----------------------------------------------------------------------------------
    async def _dispatch(self, method: str, path: str, headers: dict[str, str], body: bytes) -> HttpResponse:
        route = path.split("?", 1)[0].rstrip("/")
        if method == "GET" and route in ("/health", "/v1/health"):
            return HttpResponse.json({"status": "ok"})
        if method == "GET" and route in ("/v1/models", "/models"):
            return HttpResponse.json(self.dialect.models())
        if method == "GET" and route == "/props" and (props := self.dialect.props()) is not None:
            return HttpResponse.json(props)
        if method != "POST":
            return HttpResponse.json({"error": {"message": f"no route {method} {route}"}}, 404)
        try:
            payload = json.loads(body or b"{}")
        except json.JSONDecodeError:
            return HttpResponse.json({"error": {"message": "request body is not JSON", "type": "invalid"}}, 400)
        if route in ("/v1/chat/completions", "/chat/completions"):
            return self.dialect.shape(await self._chat(payload, "openai"))
        if route == "/v1/messages":
            return await self._chat(_from_anthropic(payload), "anthropic")
        if route.endswith(":generateContent"):
            model = route.rsplit("/", 1)[-1].split(":", 1)[0]
            return await self._chat(_from_gemini(payload, model), "gemini")
        return HttpResponse.json({"error": {"message": f"no route POST {route}"}}, 404)

    async def _chat(self, request: dict[str, Any], dialect: str) -> HttpResponse:
        messages = request.get("messages")
        if not isinstance(messages, list) or not messages:
            return HttpResponse.json({"error": {"message": "messages must be a non-empty list"}}, 400)
        key = messages_key(messages)
        fault = self.plan.next_fault(key, _text_of(messages))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        started = time.time()
        loop = asyncio.get_running_loop()
        due = loop.time() + self.latency_s + (fault.seconds or 0.0 if fault and fault.kind == "delay" else 0.0)
        status = 200
        try:
            if fault is not None and fault.kind == "timeout":
                await asyncio.sleep(max(0.0, due - loop.time()))
                status = 0
                self._record(self._entry(started, key, request, status, fault))
                await asyncio.sleep(self.timeout_hold_s)
                return HttpResponse(body=None)
            # the reply is rendered first: the latency is the time from receipt to reply, rendering included
            refused = self.dialect.refusal(request, _text_of(messages)) if dialect == "openai" else None
            response = refused or self._reply(request, dialect, fault)
            await asyncio.sleep(max(0.0, due - loop.time()))
            status = response.status
            return response
        finally:
            self.in_flight -= 1
            if status != 0:
                self._record(self._entry(started, key, request, status, fault))

    def _entry(self, started: float, key: str, request: dict[str, Any], status: int, fault: Fault | None) -> dict:
        return {
            "ts": round(started, 6),
            "key": key,
            "model": request.get("model"),
            "status": status,
            "fault": str(fault) if fault else None,
            "duration_ms": round((time.time() - started) * 1000, 1),
        }

    # --- replies ----------------------------------------------------------------------------------
    def _reply(self, request: dict[str, Any], dialect: str, fault: Fault | None) -> HttpResponse:
        if fault is not None and fault.status is not None:
            return _error(fault, dialect)
        if fault is not None and fault.kind == "badjson":
            return HttpResponse(200, b'{"id": "chatcmpl-broken", "choices": [', {"Content-Type": "application/json"})
        try:
            content = self.responder(request)
        except Exception as exc:  # a broken custom responder must not kill the connection silently
            return HttpResponse.json({"error": {"message": f"responder failed: {type(exc).__name__}: {exc}"}}, 500)
        shaped = Shaped(content)
        behaviours = model_behaviours(request.get("model"))
        if fault is not None and fault.kind in BEHAVIOURS:
            behaviours.append(fault.kind)
        for behaviour in behaviours:
            shaped = apply(behaviour, shaped)
        content, finish = shaped.content, shaped.finish
        if fault is not None and fault.kind == "malformed":
            content = content[: max(1, len(content) // 2)].rstrip("}") + ' "unterbrochen'
        elif fault is not None and fault.kind == "length":
            finish = "length"
        max_tokens = request.get("max_completion_tokens") or request.get("max_tokens")
        if isinstance(max_tokens, int) and tokens(content) > max_tokens:
            content = " ".join(content.split()[: int(max_tokens / TOKENS_PER_WORD)])
            finish = "length"
        usage = (tokens(_text_of(request["messages"])), tokens(content), tokens(shaped.reasoning or ""))
        return _render(dialect, request, Shaped(content, finish, shaped.refusal, shaped.reasoning), usage)


def _error(fault: Fault, dialect: str) -> HttpResponse:
    status = int(fault.status or 500)
    headers = {"Retry-After": f"{fault.seconds:g}"} if status == 429 and fault.seconds is not None else {}
    kind = "rate_limit_error" if status == 429 else ("api_error" if status >= 500 else "invalid_request_error")
    message = f"stub fault {fault}"
    if dialect == "anthropic":
        return HttpResponse.json({"type": "error", "error": {"type": kind, "message": message}}, status, headers)
    if dialect == "gemini":
        return HttpResponse.json({"error": {"code": status, "message": message, "status": kind}}, status, headers)
    return HttpResponse.json({"error": {"message": message, "type": kind, "code": status}}, status, headers)


def _render(dialect: str, request: dict[str, Any], shaped: Shaped, counts: tuple[int, int, int]) -> HttpResponse:
    """The reply in the dialect's shape; ``counts``: prompt, content and reasoning tokens."""
    model = request.get("model") or "stub"
    content, finish, refusal, reasoning = shaped.content, shaped.finish, shaped.refusal, shaped.reasoning
    usage = (counts[0], counts[1] + counts[2])
    if dialect == "anthropic":
        stop = {"stop": "end_turn", "length": "max_tokens", "content_filter": "refusal"}[finish]
        stop = "refusal" if refusal else stop
        thinking = [{"type": "thinking", "thinking": reasoning, "signature": "stub"}] if reasoning else []
        tool = request.get("_tool")
        if tool and stop == "end_turn":
            with contextlib.suppress(json.JSONDecodeError):
                block = {"type": "tool_use", "id": "toolu_stub", "name": tool, "input": json.loads(content)}
                return HttpResponse.json(_anthropic_message(model, [*thinking, block], "tool_use", usage))
        text = [{"type": "text", "text": content}] if content or not thinking else []
        return HttpResponse.json(_anthropic_message(model, [*thinking, *text], stop, usage))
    if dialect == "gemini":
        reason = {"stop": "STOP", "length": "MAX_TOKENS", "content_filter": "SAFETY"}[finish]
        reason = "SAFETY" if refusal else reason
        parts = ([{"text": reasoning, "thought": True}] if reasoning else []) + [{"text": content}]
        candidate = {"content": {"role": "model", "parts": parts}, "finishReason": reason, "index": 0}
        meta = {"promptTokenCount": counts[0], "candidatesTokenCount": counts[1], "totalTokenCount": sum(counts)}
        if counts[2]:
            meta["thoughtsTokenCount"] = counts[2]
        return HttpResponse.json({"candidates": [candidate], "usageMetadata": meta, "modelVersion": model})
    message: dict[str, Any] = {"role": "assistant", "content": content or None if refusal else content}
    message["refusal"] = refusal
    if reasoning:
        message["reasoning_content"] = reasoning
    details = {"completion_tokens_details": {"reasoning_tokens": counts[2]}} if counts[2] else {}
    return HttpResponse.json(
        {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "system_fingerprint": "benger-stub",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {
                "prompt_tokens": usage[0],
                "completion_tokens": usage[1],
                "total_tokens": sum(usage),
                **details,
            },
        }
    )


def _anthropic_message(model: str, content: list[dict[str, Any]], stop: str, usage: tuple[int, int]) -> dict:
    return {
        "id": f"msg_{uuid.uuid4().hex[:12]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
    }


def _plain(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(part.get("text", "")) for part in content or [] if isinstance(part, dict))


def _from_anthropic(payload: dict[str, Any]) -> dict[str, Any]:
    """An Anthropic Messages request as the OpenAI-shaped dict the responder reads."""
    messages = [{"role": m.get("role"), "content": _plain(m.get("content"))} for m in payload.get("messages", [])]
    if payload.get("system"):
        messages.insert(0, {"role": "system", "content": _plain(payload["system"])})
    request: dict[str, Any] = {"model": payload.get("model"), "messages": messages}
    request["max_tokens"] = payload.get("max_tokens")
    choice = payload.get("tool_choice") or {}
    tools = {t.get("name"): t for t in payload.get("tools") or []}
    if choice.get("type") == "tool" and choice.get("name") in tools:
        schema = tools[choice["name"]].get("input_schema", {})
        request["response_format"] = {"type": "json_schema", "json_schema": {"name": choice["name"], "schema": schema}}
        request["_tool"] = choice["name"]
    return request


def _from_gemini(payload: dict[str, Any], model: str) -> dict[str, Any]:
    """A Gemini generateContent request as the OpenAI-shaped dict the responder reads."""
    messages = []
    system = payload.get("systemInstruction") or payload.get("system_instruction")
    if system:
        messages.append({"role": "system", "content": _plain(system.get("parts"))})
    for content in payload.get("contents", []):
        role = "assistant" if content.get("role") == "model" else "user"
        messages.append({"role": role, "content": _plain(content.get("parts"))})
    config = payload.get("generationConfig") or {}
    request: dict[str, Any] = {"model": model, "messages": messages, "max_tokens": config.get("maxOutputTokens")}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if isinstance(schema, dict):
        request["response_format"] = {"type": "json_schema", "json_schema": {"name": "response", "schema": schema}}
    return request


@contextlib.contextmanager
def run_stub_server(**options: Any) -> Iterator[StubServer]:
    """Start a StubServer on a free port in a background thread; yields it (``.base_url``), stops it on exit."""
    server = StubServer(**options)
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.start())
        except BaseException as exc:  # reported to the caller below
            failure.append(exc)
            ready.set()
            return
        ready.set()
        loop.run_forever()
        loop.run_until_complete(server.stop())
        loop.close()

    thread = threading.Thread(target=run, name="benger-stub-server", daemon=True)
    thread.start()
    ready.wait()
    if failure:
        raise failure[0]
    try:
        yield server
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)

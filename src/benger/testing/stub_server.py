"""An OpenAI-compatible chat-completions stub on 127.0.0.1 for tests and benchmarks.

In process::

    with run_stub_server(latency_ms=50, faults={"Kaufvertrag": ["429:1", "500"]}) as stub:
        client = AsyncOpenAI(base_url=stub.base_url, api_key="x")

As a process::

    python -m benger.testing.stub_server --port 8001 --request-log log.jsonl --latency-ms 200

It also answers the Anthropic Messages API (``POST /v1/messages``) and Gemini's ``generateContent`` so the
native SDKs can be tested against it. Every request is appended to the request log (JSONL, flushed per line).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json

from benger.testing._dialects import Dialect
from benger.testing._server import Responder, StubServer, messages_key, run_stub_server, tokens

__all__ = ["Dialect", "Responder", "StubServer", "main", "messages_key", "run_stub_server", "tokens"]


def load_responder(spec: str) -> Responder:
    """Import ``MODULE:FUNC`` as a responder."""
    module_name, _, func = spec.partition(":")
    if not func:
        raise SystemExit(f"--responder must look like MODULE:FUNC, got {spec!r}")
    responder: Responder = getattr(importlib.import_module(module_name), func)
    return responder


def main(argv: list[str] | None = None) -> None:
    """Command line: run the stub until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m benger.testing.stub_server", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--request-log", default=None, help="append one JSON line per request to this file")
    parser.add_argument("--responder", default=None, help="MODULE:FUNC deciding the reply content")
    parser.add_argument("--faults", default=None, help='JSON, e.g. \'{"Kaufvertrag": ["429:2", "500"]}\'')
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--fault-seed", type=int, default=0)
    parser.add_argument("--dialect", default=None, help='JSON, e.g. \'{"usage": false, "rate_limit": 5}\'')
    args = parser.parse_args(argv)
    server = StubServer(
        args.host,
        args.port,
        latency_ms=args.latency_ms,
        responder=load_responder(args.responder) if args.responder else None,
        faults=json.loads(args.faults) if args.faults else None,
        fault_rate=args.fault_rate,
        fault_seed=args.fault_seed,
        request_log=args.request_log,
        dialect=Dialect.from_json(args.dialect),
    )

    async def serve() -> None:
        await server.start()
        print(f"benger stub server on {server.base_url}", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve())


if __name__ == "__main__":
    main()

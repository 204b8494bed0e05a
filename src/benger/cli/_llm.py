"""``benger stub-server`` (the OpenAI-compatible stub) and ``benger local-model`` (prepare a packaged GGUF)."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("stub-server")
    def stub_server_cmd(
        port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1.")] = 8001,
        latency_ms: Annotated[float, typer.Option("--latency-ms", help="Fixed latency per request.")] = 0.0,
        request_log: Annotated[str | None, typer.Option("--request-log", help="JSONL request log file.")] = None,
        responder: Annotated[str | None, typer.Option("--responder", help="MODULE:FUNC deciding replies.")] = None,
        faults: Annotated[str | None, typer.Option("--faults", help='JSON, e.g. {"*": ["429:2", "500"]}.')] = None,
        fault_rate: Annotated[float, typer.Option("--fault-rate", help="Share of random faults.")] = 0.0,
        fault_seed: Annotated[int, typer.Option("--fault-seed", help="Seed of the random faults.")] = 0,
    ) -> None:
        """Run the OpenAI-compatible stub server until interrupted (see docs/llm.md)."""
        from benger.testing.stub_server import main

        argv = ["--port", str(port), "--latency-ms", str(latency_ms)]
        for flag, value in (("--request-log", request_log), ("--responder", responder), ("--faults", faults)):
            if value is not None:
                argv += [flag, value]
        main([*argv, "--fault-rate", str(fault_rate), "--fault-seed", str(fault_seed)])

    @app.command("local-model")
    def local_model_cmd(
        name: Annotated[str, typer.Argument(help="qwen2.5-0.5b-instruct, qwen2.5-1.5b-instruct or smollm2-135m.")],
    ) -> None:
        """Assemble (first time) and verify a packaged local GGUF; print its path."""
        from benger.llm import model_path

        typer.echo(str(model_path(name)))

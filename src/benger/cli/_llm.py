"""``benger systems`` (the model catalog), ``benger stub-server`` (the OpenAI-compatible stub) and ``benger
local-model`` (prepare a packaged GGUF)."""

from __future__ import annotations

from typing import Annotated

import typer

from benger.cli._options import port_option, require_free_port


def systems() -> None:
    """List the model catalog: the paper's systems, judges and the local llama.cpp models, with the settings
    that shape their output and cost (temperature, max output tokens, context window, prices per 1M tokens)."""
    from benger.llm import load_catalog

    def shown(value: object, fmt: str = "{}") -> str:
        return "–" if value is None else fmt.format(value)

    from rich.table import Table

    catalog = load_catalog()
    table = Table(title="Model catalog (name a model on the command line as --model PROVIDER/MODEL or by its name)")
    columns = ("Role", "Name", "Provider", "Model", "Tier", "Temp.", "Max out", "Context", "$ in/1M", "$ out/1M",
               "API key env")  # fmt: skip
    for col in columns:
        table.add_column(col)
    for role, entries in (("system", catalog.systems), ("judge", catalog.judges), ("local", catalog.local)):
        for s in entries:
            aliases = catalog.aliases.get(s.name)
            name = f"{s.name} (alias {', '.join(aliases)})" if aliases else s.name
            context = s.context_window or s.params.get("n_ctx")
            table.add_row(
                role, name, s.provider, s.model, s.tier or "–", shown(s.temperature, "{:g}"),
                f"{s.max_output_tokens:,}", shown(context, "{:,}"), shown(s.price_in_per_mtok, "{:g}"),
                shown(s.price_out_per_mtok, "{:g}"), s.api_key_env or "–",
            )  # fmt: skip
    from benger.cli._execute import print_table

    print_table(table)


def register(app: typer.Typer) -> None:
    app.command()(systems)

    @app.command("stub-server")
    def stub_server_cmd(
        port: Annotated[int, port_option("Port on 127.0.0.1.")] = 8001,
        latency_ms: Annotated[float, typer.Option("--latency-ms", help="Fixed latency per request.")] = 0.0,
        request_log: Annotated[str | None, typer.Option("--request-log", help="JSONL request log file.")] = None,
        responder: Annotated[str | None, typer.Option("--responder", help="MODULE:FUNC deciding replies.")] = None,
        faults: Annotated[str | None, typer.Option("--faults", help='JSON, e.g. {"*": ["429:2", "500"]}.')] = None,
        fault_rate: Annotated[float, typer.Option("--fault-rate", help="Share of random faults.")] = 0.0,
        fault_seed: Annotated[int, typer.Option("--fault-seed", help="Seed of the random faults.")] = 0,
        dialect: Annotated[
            str | None,
            typer.Option("--dialect", help='Server dialect as JSON, e.g. {"usage": false, "rate_limit": 5}.'),
        ] = None,
    ) -> None:
        """Run the OpenAI-compatible stub server until interrupted (see docs/llm.md)."""
        require_free_port("127.0.0.1", port)
        from benger.testing.stub_server import main

        argv = ["--port", str(port), "--latency-ms", str(latency_ms)]
        options = (
            ("--request-log", request_log),
            ("--responder", responder),
            ("--faults", faults),
            ("--dialect", dialect),
        )
        for flag, value in options:
            if value is not None:
                argv += [flag, value]
        main([*argv, "--fault-rate", str(fault_rate), "--fault-seed", str(fault_seed)])

    @app.command("local-model")
    def local_model_cmd(
        name: Annotated[
            str,
            typer.Argument(
                help="qwen2.5-coder-0.5b-instruct, qwen2.5-coder-1.5b-instruct, smollm2-135m (or a former name)."
            ),
        ],
    ) -> None:
        """Assemble (first time) and verify a packaged local GGUF; print its path."""
        from benger.llm import model_path

        typer.echo(str(model_path(name)))

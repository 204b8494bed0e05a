"""Collects the subcommands of every stage. Each helper module exposes ``register(app)``."""

from __future__ import annotations

import importlib

import typer

# Modules that define commands; each has ``register(app: typer.Typer) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "benger.cli._core",
    "benger.cli._report",
    "benger.cli._workers",
    "benger.cli._metrics",
    "benger.cli._llm",
    "benger.cli._web",
    "benger.cli._inspect",
    "benger.cli._validate",
    "benger.cli._view",
    "benger.cli._interop",
    "benger.cli._reviews",
    "benger.cli._extensions",
)


def register(app: typer.Typer) -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(app)

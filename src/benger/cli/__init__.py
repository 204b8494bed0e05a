"""The ``benger`` command line (Typer). Each stage registers its commands in its own module."""

from benger.cli._app import app, main

__all__ = ["app", "main"]

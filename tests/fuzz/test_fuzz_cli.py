"""Every command of the benger CLI meets bad usage: unknown options, bad numbers, missing arguments, bad stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.cli import app

from ._fuzz import check_rejected, invoke


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    subcommands = getattr(command, "commands", None)
    if subcommands is None:
        yield path, command
        return
    for name, sub in sorted(subcommands.items()):
        yield from _commands(sub, (*path, name))


COMMANDS = list(_commands(typer.main.get_command(app)))
NUMERIC = [
    (path, param)
    for path, command in COMMANDS
    for param in command.params
    if param.param_type_name == "option" and param.type_descriptor.annotation in (int, float)
]
REQUIRED = [(path, command) for path, command in COMMANDS if any(p.required for p in command.params)]
# commands that open the store first (the worker opens --db once before it starts waiting for tasks)
WITH_DB = [
    path
    for path, command in COMMANDS
    if any(p.name == "db" for p in command.params) and path not in (("generate",), ("judge",))
]
_EXTRA = {
    ("inspect-solution",): ["--generation", "g1"],
    ("validate-judge",): ["--judge", "gpt-5.4-mini"],
    ("study", "feedback"): ["--on"],  # exactly one of --on / --off
    ("study", "create"): ["--study", "s"],  # --study NAME or the positional NAME: one is needed
}
_REQUIRED_VALUES = {"role": "reviewer", "corpus": "demo", "source": "demo", "out": "out-unused"}


def _args_for(path: tuple[str, ...], command: Any, tmp: Path, with_config: bool = False) -> list[str]:
    """Values for the required parameters of a command (the bad part of a case is added by the test); with
    ``with_config`` also the run config of a command whose config is optional (``run``/``estimate`` take
    ``--model`` instead)."""
    args: list[str] = []
    for param in command.params:
        if not param.required and not (with_config and param.name == "config"):
            continue
        value = str(tmp / "missing.yaml") if param.name in ("config",) else _REQUIRED_VALUES.get(param.name, "1")
        if param.name == "out":  # --out creates its folder when checked: keep it in tmp
            value = str(tmp / value)
        args += [value] if param.param_type_name == "argument" else [param.opts[0], value]
    return args


def test_the_cli_has_the_commands_we_fuzz() -> None:
    assert len(COMMANDS) >= 30 and len(NUMERIC) >= 10 and len(WITH_DB) >= 10


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_unknown_option_on_every_command(path: tuple[str, ...]) -> None:
    check_rejected(invoke([*path, "--frobnicate", "3"]), ["--frobnicate"])


@pytest.mark.parametrize(("path", "param"), NUMERIC, ids=lambda v: " ".join(v) if isinstance(v, tuple) else v.name)
def test_every_numeric_option_refuses_text_and_out_of_range(path: tuple[str, ...], param: Any, tmp_path: Path) -> None:
    command = dict(COMMANDS)[path]
    base = [*path, *_args_for(path, command, tmp_path)]
    check_rejected(invoke([*base, param.opts[0], "zwei"]), [param.opts[0]])
    if param.min is not None:
        check_rejected(invoke([*base, param.opts[0], str(param.min - 1)]), [param.opts[0]])


@pytest.mark.parametrize(("path", "command"), REQUIRED, ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_missing_required_parameters(path: tuple[str, ...], command: Any) -> None:
    check_rejected(invoke(list(path)), ["Missing"])


@pytest.mark.parametrize("path", WITH_DB, ids=" ".join)
@pytest.mark.parametrize("db", ["postgresql+psycopg://::::/", "sqlite://"])
def test_every_store_command_refuses_bad_store_urls(
    path: tuple[str, ...], db: str, tmp_path: Path, release_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every other input is good (a valid run config, the real release, the API judge's key variable set), so the
    # store is the one bad input
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fuzz-never-sent")
    command = dict(COMMANDS)[path]
    (tmp_path / "missing.yaml").write_text("corpora: [demo]\nsystems: [qwen2.5-0.5b-instruct]\n", encoding="utf-8")
    args = [*path, *_args_for(path, command, tmp_path, with_config=True), *_EXTRA.get(path, []), "--db", db]
    if any(p.name == "release" and not p.required for p in command.params):
        args += ["--release", str(release_dir)]
    check_rejected(invoke(args, stdin="\n"), ["store URL", "store needs an SQLite file"])


_TOKENS = st.sampled_from(["--limit", "--concurrency", "--repeats", "--resamples", "--seed", "-q", "-x", "--", "="])
_VALUES = st.one_of(
    st.sampled_from(["0", "-1", "zwei", "", "1e9", "NaN", "inf", "9" * 5000, "\x00", "ä", "--db"]),
    st.text(max_size=8),
)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["generate", "judge", "leaderboard", "corpora", "import", "run"]),
    st.lists(st.tuples(_TOKENS, _VALUES), min_size=1, max_size=3),
)
def test_random_bad_option_lists_never_run_and_never_trace(command: str, pairs: list[tuple[str, str]]) -> None:
    # an unknown option ('--frobnicate') makes every invocation a usage error, whatever else is given
    args = [command, *[x for pair in pairs for x in pair], "--frobnicate"]
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output

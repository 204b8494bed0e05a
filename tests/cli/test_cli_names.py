"""One name for one thing across the commands: the option that selects systems is ``--system`` everywhere
(``benger metrics`` had ``--systems``, kept as its alias), a judge is shown and taken by the name the store gives
it (``gpt-5.4-mini``, with its display name; the release's anchor key ``gpt54mini`` only as an alias of
``validate-judge --recorded``), and every command's ``--judge`` refuses a judge the store does not hold with the
same message (``cli._checks.refuse_unknown_judges``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.analysis.leaderboard_stores import tiny_store
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.cli._commands import COMMANDS, load_module_commands
from benger.judge._released import PRIMARY_JUDGE

_register_commands()
runner = CliRunner()
STORED = f"stored judges: cfgB_opus [Opus-4.7], {PRIMARY_JUDGE} [GPT-5.4-mini (primary)], my-judge"


def _commands() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for module in dict.fromkeys(module for module, _ in COMMANDS.values()):
        for name, command in load_module_commands(module).items():
            for sub, leaf in getattr(command, "commands", {}).items() or [(None, command)]:
                found[name if sub is None else f"{name} {sub}"] = leaf
    return found


COMMAND_OPTIONS = [(name, p) for name, c in _commands().items() for p in c.params if p.param_type_name == "option"]
#: what a selection option is called, in its one spelling (and the short flag the core commands give it)
SELECTIONS = {"system": ("--system", "-s"), "judge": ("--judge", "-j"), "corpus": ("--corpus", "-c")}


@pytest.mark.parametrize(
    ("command", "option"),
    [(n, o) for n, o in COMMAND_OPTIONS if o.name in (*SELECTIONS, "systems", "judges", "corpora", "judge_")],
    ids=lambda v: v if isinstance(v, str) else v.opts[0],
)
def test_a_selection_option_has_one_spelling(command: str, option: Any) -> None:
    """The option's first name is the singular every command uses; a plural is at most an alias of it."""
    kind = next(k for k in SELECTIONS if k in option.opts[0].removeprefix("--"))
    assert option.opts[0] == SELECTIONS[kind][0], (command, option.opts)
    assert set(option.opts) <= {*SELECTIONS[kind], f"{SELECTIONS[kind][0]}s"}, (command, option.opts)


@pytest.mark.parametrize("flag", ["--system", "--systems", "-s"])
def test_metrics_takes_system_like_every_command(tmp_path: Path, flag: str) -> None:
    db = tmp_path / "tiny.db"
    tiny_store(db, {"a": {"j": [50.0]}}).close()
    result = runner.invoke(app, ["metrics", "--db", str(db), flag, "nosuch"])
    assert result.exit_code == 2, result.output
    assert "field '--system': no generation of 'nosuch' in the store" in result.output, result.output


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("judges") / "tiny.db"
    judges = {PRIMARY_JUDGE: [60.0, 70.0, 80.0], "cfgB_opus": [50.0], "my-judge": [10.0, 20.0, 30.0]}
    tiny_store(path, {"a": judges, "b": judges}).close()
    return path


UNKNOWN = [
    ["leaderboard", "--judge", "nosuch"],
    ["errors", "--judge", "nosuch"],
    ["errors", "--judge", "nosuch", "--rubric", "falloesung@1"],
    ["errors", "--judge", "nosuch", "--format", "json"],
    ["errors", "--judge", "gpt54mini"],  # the release's key is not the stored name
]


@pytest.mark.parametrize("args", UNKNOWN, ids=" ".join)
def test_every_judge_option_refuses_an_unknown_judge_alike(db: Path, args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--db", str(db)], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert f"unknown judge {args[2]!r};" in lines[0] and lines[0].endswith(STORED), lines[0]


@pytest.mark.parametrize("name", [PRIMARY_JUDGE, "gpt54mini"])
def test_validate_judge_recorded_takes_the_stored_judge_name(release_dir: Path, name: str) -> None:
    result = runner.invoke(app, ["validate-judge", "--recorded", name, "--release", str(release_dir)])
    assert result.exit_code == 0, result.output
    assert "judge: recorded GPT-5.4-mini (release)" in result.output


def test_validate_judge_lists_the_release_judges_by_their_stored_names(release_dir: Path) -> None:
    result = runner.invoke(
        app, ["validate-judge", "--recorded", "nosuch", "--release", str(release_dir)], env={"COLUMNS": "400"}
    )
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"{PRIMARY_JUDGE} [GPT-5.4-mini (primary)]" in text and "cfgB_opus [Opus-4.7]" in text, text
    assert "gpt54mini" not in text


@pytest.mark.parametrize(
    "args", [["errors", "--rubric", "nosuch"], ["errors", "--rubric", "nosuch", "--format", "json"]]
)
def test_errors_refuses_an_unknown_rubric_listing_the_stored_ones(db: Path, args: list[str]) -> None:
    """errors --rubric nosuch said "no scored judgements of these generations (filters: ...)" while --judge nosuch
    listed the judges (attack of 2026-12-04)."""
    from tests.analysis.leaderboard_stores import RUBRIC

    result = runner.invoke(app, [*args, "--db", str(db)], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines == [
        f"error: field '--rubric': unknown rubric 'nosuch'; --rubric takes a rubric id of the store's judgements: "
        f"{RUBRIC}"
    ], result.output

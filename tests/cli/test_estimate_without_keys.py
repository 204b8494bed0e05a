"""An estimate calls nothing, so it needs no API key (a new user's `benger estimate` demanded every provider's
key): every estimating command works without them and names the keys a real run will need; a real run refuses
a missing key with one message naming each system and its variable, before any store is written
(``cli._execute.check_models``, ``keys=`` its one switch)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()

#: the catalog systems of four providers' keys, and the variable each needs
SYSTEMS = {
    "gpt-5.4": "OPENAI_API_KEY",
    "claude-sonnet-4-6": "ANTHROPIC_API_KEY",
    "gemini-3.1-flash-lite-preview": "GEMINI_API_KEY",
    "DeepSeek-V4-Flash": "DEEPINFRA_API_KEY",
}
JUDGE = ("gpt-5.4-mini", "OPENAI_API_KEY")
NO_KEYS = {name: None for name in (*SYSTEMS.values(), "GOOGLE_API_KEY")}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "keys.yaml"
    path.write_text(f"corpora: [demo]\nsystems: [{', '.join(SYSTEMS)}]\njudges: [{JUDGE[0]}]\n", encoding="utf-8")
    return path


# (command line, the systems whose keys it needs)
ESTIMATES = [
    (["estimate", "{config}"], [*SYSTEMS, JUDGE[0]]),
    (["estimate", "{config}", "--stage", "generate"], list(SYSTEMS)),
    (["estimate", "{config}", "--stage", "judge"], [JUDGE[0]]),
    (["run", "{config}", "--dry-run"], [*SYSTEMS, JUDGE[0]]),
    (["generate", "{config}", "--dry-run", "--system", "claude-sonnet-4-6"], ["claude-sonnet-4-6"]),
    (["judge", "{config}", "--dry-run"], [JUDGE[0]]),
]


@pytest.mark.parametrize(("args", "needs"), ESTIMATES, ids=[" ".join(a[:1] + a[2:]) for a, _ in ESTIMATES])
def test_an_estimate_needs_no_key_and_names_the_keys_a_run_will_need(
    config: Path, tmp_path: Path, args: list[str], needs: list[str], copy_of_migrated_sqlite: Any
) -> None:
    db = tmp_path / "s.db"
    judging_only = args[0] == "judge" or args[-2:] == ["--stage", "judge"]
    if judging_only:  # judging consumes a store that must exist (tests/cli/test_not_a_store.py)
        copy_of_migrated_sqlite(db)
    before = db.read_bytes() if judging_only else None
    line = [a.format(config=config) for a in args]
    result = runner.invoke(app, [*line, "--db", str(db)], env={**NO_KEYS, "COLUMNS": "250", "BENGER_RELEASE": ""})
    assert result.exit_code == 0, result.output
    (note,) = [text for text in result.output.splitlines() if text.startswith("API keys:")]
    for name in needs:
        variable = dict([*SYSTEMS.items(), JUDGE])[name]
        assert f"{variable} (system '{name}'" in note, note
    assert note.count("(system '") == len(needs), note
    assert (db.read_bytes() if db.exists() else None) == before  # an estimate writes no store


def test_an_estimate_with_every_key_set_says_nothing_about_keys(config: Path, tmp_path: Path) -> None:
    keys = {name: "sk-not-used" for name in SYSTEMS.values()}
    result = runner.invoke(app, ["estimate", str(config), "--db", str(tmp_path / "s.db")], env=keys)
    assert result.exit_code == 0, result.output
    assert "API keys" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["generate", "{config}", "--system", "gpt-5.4"], "system 'gpt-5.4' (openai, model gpt-5.4) needs an API "
         "key: set the environment variable OPENAI_API_KEY"),
        (["run", "{config}", "--system", "gpt-5.4"], "2 systems need an API key: set the environment variables "
         "OPENAI_API_KEY (system 'gpt-5.4', openai, model gpt-5.4); OPENAI_API_KEY (system 'gpt-5.4-mini'"),
        (["generate", "{config}"], "4 systems need an API key: set the environment variables OPENAI_API_KEY "
         "(system 'gpt-5.4', openai, model gpt-5.4); ANTHROPIC_API_KEY (system 'claude-sonnet-4-6'"),
        (["judge", "{config}"], "system 'gpt-5.4-mini' (openai, model gpt-5.4-mini) needs an API key"),
    ],
)  # fmt: skip
def test_a_real_run_refuses_a_missing_key_in_one_message(
    config: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "s.db"
    line = [a.format(config=config) for a in args]
    result = runner.invoke(app, [*line, "--db", str(db)], env={**NO_KEYS, "COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()), result.output
    assert result.output.count("needs an API key") + result.output.count("need an API key") == 1
    assert not db.exists()


def test_validate_judge_dry_run_needs_no_key(release_dir: Path, tmp_path: Path) -> None:
    """The fifth estimating command: judging the released picks, planned only."""
    args = ["validate-judge", "--judge", JUDGE[0], "--release", str(release_dir), "--dry-run", "--limit", "3"]
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "v.db")], env={**NO_KEYS, "COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    (note,) = [text for text in result.output.splitlines() if text.startswith("API keys:")]
    assert f"{JUDGE[1]} (system '{JUDGE[0]}'" in note
    real = runner.invoke(app, [*args[:-3], "--db", str(tmp_path / "v.db")], env={**NO_KEYS, "COLUMNS": "250"})
    assert real.exit_code == 2 and f"set the environment variable {JUDGE[1]}" in real.output, real.output

"""Run configs are checked whole before a run starts: one message naming file, line and field, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import InputError
from benger.pipeline import load_run_config

_register_commands()
runner = CliRunner()

GOOD = "corpora: [demo]\nsystems: [qwen2.5-0.5b-instruct]\njudges: [qwen2.5-0.5b-instruct]\n"


def _config(tmp_path: Path, text: str, name: str = "run.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# (config text, line, field, message): lines counted by hand in the text
BAD_CONFIGS = [
    (GOOD + "concurency: 4\n", 4, "concurency", "unknown key 'concurency'; the known keys here are: name, db,"),
    (GOOD + "filters:\n  limt: 3\n", 5, "filters.limt", "unknown key 'limt'; the known keys here are: tasks, limit"),
    (GOOD + "concurrency: viele\n", 4, "concurrency", "Input should be a valid integer, unable to parse string"),
    (GOOD + "repeats: [1, 2]\n", 4, "repeats", "Input should be a valid integer, got [1, 2]"),
    (GOOD + "retry:\n  initial_wait: .nan\n", 5, "retry.initial_wait", "Input should be a finite number"),
    (GOOD + "retry:\n  max_wait: .inf\n", 5, "retry.max_wait", "Input should be a finite number"),
    (
        "corpora: [demo]\nsystems:\n  - {name: s, model: m, provider: openai, temperature: warm}\n",
        3,
        "systems[0].temperature",
        "valid number",
    ),
    (GOOD + "executor: threads\n", 4, "executor", "Input should be 'local' or 'celery'"),
    ("corpora: demo\n", 1, "corpora", "Input should be a valid list, got 'demo'"),
    ("- demo\n", 1, None, "a run config must be a YAML mapping"),
    (GOOD + "concurrency: [\n", 5, None, "not valid YAML"),
    (GOOD + "concurrency: " + "9" * 5000 + "\n", None, None, "Exceeds the limit (4300 digits)"),
]


@pytest.mark.parametrize(("text", "line", "field", "message"), BAD_CONFIGS)
def test_bad_run_configs_name_file_line_field(
    tmp_path: Path, text: str, line: int | None, field: str | None, message: str
) -> None:
    path = _config(tmp_path, text)
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert err.value.file == str(path)
    assert (err.value.line, err.value.field) == (line, field)
    assert message in str(err.value)


def test_a_config_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(GOOD.encode() + "name: Prüfung\n".encode("latin-1"))
    result = runner.invoke(app, ["run", str(path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {path}:4: not valid UTF-8 (byte 0xfc at offset")
    assert not (tmp_path / "s.db").exists()


def test_a_folder_as_config(tmp_path: Path) -> None:
    result = runner.invoke(app, ["generate", str(tmp_path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 2
    assert result.output == f"error: {tmp_path}: is a directory, expected a file\n"


def test_deeply_nested_yaml(tmp_path: Path) -> None:
    path = _config(tmp_path, GOOD + "name: " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert err.value.file == str(path) and "nested too deeply" in str(err.value)


@pytest.mark.parametrize(
    ("template", "line", "message"),
    [
        ("Fall: {{ facts }}\n\n{% if area %}Gebiet{% endif\n", 3, "prompt template syntax error"),
        ("Fall: {{ facts }}\n{{ area | nosuchfilter }}\n", 2, "No filter named 'nosuchfilter'"),
        ("Fall: {{ fakts }}\n", None, "prompt template uses 'fakts', which it is never given"),
    ],
)
def test_prompt_template_errors_are_found_at_load(
    tmp_path: Path, template: str, line: int | None, message: str
) -> None:
    # before: found per item at run time (one item error per task) instead of once before any call
    user = _config(tmp_path, template, "user.j2")
    path = _config(tmp_path, GOOD + "prompts:\n  falloesung_user: user.j2\n")
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert err.value.file == str(user) and err.value.line == line
    assert message in str(err.value)


def test_judge_template_errors_are_found_at_load(tmp_path: Path) -> None:
    judge = _config(tmp_path, "{{ rubric.name }}\n{{ candidate }\n", "judge.j2")
    path = _config(tmp_path, GOOD + "prompts:\n  falloesung_judge: judge.j2\n")
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert err.value.file == str(judge) and err.value.line == 2


def test_unknown_template_name_and_missing_template_file(tmp_path: Path) -> None:
    path = _config(tmp_path, GOOD + "prompts:\n  falloesung_usr: x.j2\n")
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert (err.value.file, err.value.line, err.value.field) == (str(path), 5, "prompts")
    assert "unknown prompt template 'falloesung_usr'" in str(err.value)
    path = _config(tmp_path, GOOD + "prompts:\n  falloesung_user: missing.j2\n")
    with pytest.raises(InputError, match="cannot read prompt template 'falloesung_user': file not found"):
        load_run_config(path)


def test_the_examples_still_load() -> None:
    root = Path(__file__).resolve().parents[2] / "examples"
    for name in ("demo.yaml", "stub.yaml", "paper-systems.yaml"):
        assert load_run_config(root / name).corpora

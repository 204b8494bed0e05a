"""A local system whose own GGUF file is missing is one configuration error before the run (exit 2).

Tester (2026-12-03): a system ``provider: local, params: {model_path: /nonexistent/model.gguf}``: ``run
--dry-run`` exited 0 without a warning; ``generate`` printed a ConfigError per item, stored failed rows and
exited 3. The check is the registry's (``llm.system_problem`` -> ``llm._local.local_model_problem``), run when
the config is loaded: no model is built or loaded here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
_STUB = "{name: j, provider: openai-compatible, model: m, base_url: 'http://127.0.0.1:9/v1'}"

# how the system names its file -> (the system's YAML, the field the error names)
SYSTEMS: dict[str, tuple[str, str]] = {
    "params.model_path": ("{name: l, provider: local, model: m, params: {model_path: MISSING}}", "params.model_path"),
    "model.gguf": ("{name: l, provider: local, model: MISSING}", "model"),
}
# the commands that would call (or estimate) the system, with its section
COMMANDS: dict[str, tuple[list[str], str]] = {
    "run-dry-run": (["run", "{config}", "--dry-run"], "systems"),
    "run": (["run", "{config}"], "systems"),
    "generate": (["generate", "{config}"], "systems"),
    "estimate": (["estimate", "{config}"], "systems"),
    "judge": (["judge", "{config}"], "judges"),
}


@pytest.mark.parametrize("command", list(COMMANDS), ids=str)
@pytest.mark.parametrize("named", list(SYSTEMS), ids=str)
def test_a_missing_gguf_is_refused_before_the_run(named: str, command: str, tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "model.gguf"
    system, field = SYSTEMS[named]
    args, section = COMMANDS[command]
    entry = system.replace("MISSING", f"'{missing}'")
    systems, judges = (entry, _STUB) if section == "systems" else (_STUB, entry)
    config = tmp_path / "run.yaml"
    config.write_text(f"corpora: [demo]\nsystems:\n  - {systems}\njudges:\n  - {judges}\n", encoding="utf-8")
    db = tmp_path / "m.db"
    result = runner.invoke(app, [*[a.format(config=config) for a in args], "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert f"field '{section}[0].{field}'" in result.output and f"GGUF file not found: {missing}" in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output  # once, not per item
    assert not db.exists()


def test_an_existing_gguf_passes_the_check(tmp_path: Path) -> None:
    from benger.llm import system_problem
    from benger.schema import SystemConfig

    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")  # only its presence is checked: nothing is loaded
    for system in (
        SystemConfig(name="l", provider="local", model="mine", params={"model_path": str(gguf)}),
        SystemConfig(name="l", provider="local", model=str(gguf)),
    ):
        assert system_problem(system) is None

"""``benger study create`` names its study with ``--study``, as every other ``study`` subcommand does.

Observed (2026-12-04): ``benger study create --study Sommer --corpus mini`` was a usage error ("No such option:
--study"; only the positional NAME was read), although ``open``, ``close``, ``assign``, ``export`` ... all take
``--study``. Now both work (the positional for compatibility); both at once, or neither, is one usage error.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import Store

_register_commands()
runner = CliRunner()


def _studies(store: Store) -> list[str]:
    out = runner.invoke(app, ["study", "list", "--db", str(store.engine.url.database)]).output
    return [line.split("\t")[1] for line in out.splitlines() if "\t" in line]


def test_study_create_takes_the_study_option(store: Store) -> None:
    db = str(store.engine.url.database)
    result = runner.invoke(app, ["study", "create", "--study", "Sommer", "--corpus", "mini", "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output == "created study 'Sommer' (id 1)\n"
    opened = runner.invoke(app, ["study", "open", "--study", "Sommer", "--db", db])
    assert opened.exit_code == 0, opened.output


#: the arguments naming the study -> the studies created, or the usage error (exit 2) and its message
CASES: dict[str, tuple[list[str], list[str] | str]] = {
    "option": (["--study", "Sommer"], ["Sommer"]),
    "positional (compatible)": (["Sommer"], ["Sommer"]),
    "option after corpus": (["--corpus", "mini", "--study", "Winter"], ["Winter"]),
    "both": (["Sommer", "--study", "Winter"], "the study is named twice ('Sommer' and --study 'Winter')"),
    "both, same name": (["Sommer", "--study", "Sommer"], "the study is named twice"),
    "neither": ([], "name the new study: --study NAME"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_ways_to_name_the_new_study(store: Store, case: str) -> None:
    args, expected = CASES[case]
    corpus = [] if "--corpus" in args else ["--corpus", "mini"]
    result = runner.invoke(app, ["study", "create", *args, *corpus, "--db", str(store.engine.url.database)])
    if isinstance(expected, list):
        assert result.exit_code == 0, result.output
        assert _studies(store) == expected
        return
    assert result.exit_code == 2, result.output
    assert expected in " ".join(result.output.replace("│", " ").split()) and "Traceback" not in result.output
    assert _studies(store) == []

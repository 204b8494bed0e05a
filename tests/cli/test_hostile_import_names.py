"""``benger import`` refuses a corpus name that could not be used afterwards (2026-12-01 (c), hostile user).

Before: ``import my.csv --as ""`` stored a corpus named '' and ``--as " x"`` one with a leading space; ``--as demo``
(or a file called demo.csv) stored a corpus 'demo' that no run can select, because ``--corpus demo`` and
``corpora: [demo]`` always mean the built-in demo corpora; ``import release:`` (no path) read the current folder
and said ".: not a BenGER release folder". Each is now one message, exit 2, and no store is created.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
ROW = "task_id,case,question,gold_answer,area,gold_reasoning\na1,Fall,Frage?,Ja,Zivilrecht,weil\n"


@pytest.mark.parametrize(
    ("file", "extra", "message"),
    [
        ("mine.csv", ["--as", ""], "error: field '--as': the corpus name is empty"),
        ("mine.csv", ["--as", "  "], "error: field '--as': the corpus name is empty"),
        ("mine.csv", ["--as", " x"], "error: field '--as': corpus name ' x' has spaces around it"),
        ("mine.csv", ["--as", "demo"], "error: field '--as': corpus name 'demo' is taken"),
        ("demo.csv", [], "demo.csv: corpus name 'demo' is taken: it always means the built-in demo corpora"),
        (None, [], "error: field 'source': release: needs a path"),
    ],
)
def test_an_unusable_corpus_name_is_refused(file: str | None, extra: list[str], message: str, tmp_path: Path) -> None:
    source = "release:"
    if file is not None:
        (tmp_path / file).write_text(ROW, encoding="utf-8")
        source = str(tmp_path / file)
    db = tmp_path / "s.db"
    result = runner.invoke(app, ["import", source, "--db", str(db), *extra])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not db.exists()


def test_a_usable_name_is_imported(tmp_path: Path) -> None:
    (tmp_path / "demo.csv").write_text(ROW, encoding="utf-8")
    db = tmp_path / "s.db"
    result = runner.invoke(app, ["import", str(tmp_path / "demo.csv"), "--db", str(db), "--as", "meine-faelle"])
    assert result.exit_code == 0, result.output
    assert "imported corpus meine-faelle: 1 tasks" in result.output

"""Issue 33, item 4: a command that would do nothing says why.

Observed: ``benger metrics --db m.db --corpus nosuch --metrics bleu`` printed "bleu: 0 computed, 0 already
stored", exit 0 (``--systems nosuch`` exited 2); ``benger judge run.yaml --db j.db`` with no generations printed
"0 items to do", exit 0 without a word about generating first. Exit 0 stays for the judge (README "Exit codes":
every unit asked for has a usable result; there were none).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.llm._structured import forget
from benger.store import open_store
from benger.testing import run_stub_server

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def stub_url() -> Iterator[str]:
    forget()
    with run_stub_server() as stub:
        yield stub.base_url


@pytest.fixture
def demo_db(tmp_path: Path) -> Path:
    db = tmp_path / "m.db"
    assert runner.invoke(app, ["import", "demo", "--db", str(db)]).exit_code == 0
    return db


@pytest.mark.parametrize(("corpus", "code"), [("nosuch", 2), ("demo", 2), ("Demo-Falloesung", 2),
                                              ("demo-falloesung", 0)])  # fmt: skip
def test_metrics_on_an_unknown_corpus_is_refused(demo_db: Path, corpus: str, code: int) -> None:
    result = runner.invoke(app, ["metrics", "--db", str(demo_db), "--corpus", corpus, "--metrics", "bleu", "-q"])
    assert result.exit_code == code, result.output
    if code == 2:
        assert f"unknown corpus '{corpus}'" in result.output
        assert "demo-falloesung, demo-grundprinzipien" in result.output and "computed" not in result.output


def test_judge_without_generations_says_to_generate_first(stub_url: str, tmp_path: Path) -> None:
    config, db = tmp_path / "run.yaml", str(tmp_path / "j.db")
    config.write_text(
        f"corpora: [demo-grundprinzipien]\nsystems:\n  - {{name: s, provider: openai-compatible, model: stub, "
        f"base_url: '{stub_url}'}}\njudges:\n  - {{name: j, provider: openai-compatible, model: stub-judge, "
        f"base_url: '{stub_url}'}}\n",
        encoding="utf-8",
    )
    base = [str(config), "--db", db, "--limit", "2"]
    open_store(db).close()  # a store without generations (a missing one is refused: tests/cli/test_not_a_store.py)
    result = runner.invoke(app, ["judge", *base])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert f"nothing to judge: the store holds no generation of s on demo-grundprinzipien; generate them first: " \
        f"benger generate {config} --db {db}" in said, said  # fmt: skip
    assert runner.invoke(app, ["generate", *base, "-q"]).exit_code == 0
    first = runner.invoke(app, ["judge", *base])
    again = runner.invoke(app, ["judge", *base])  # all judged: nothing to do, and no hint
    assert first.exit_code == again.exit_code == 0, (first.output, again.output)
    assert "nothing to judge" not in first.output + again.output
    assert "0 items to do" in again.output

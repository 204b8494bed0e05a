"""``benger study list`` on a store without studies printed nothing (new-user report, 2026-12-04): it says so in one
line, names the store and the command that creates a study (with the ``--db`` the user gave) and the corpora a study
can be made from; a store with studies lists them and nothing else."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from study_helpers import mini_corpus, user
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store
from benger.study import create_study

_register_commands()
runner = CliRunner()
HINT = "create one with `benger study create --study NAME --corpus CORPUS"


def _bare(path: Path) -> None:
    """Only the schema."""


def _corpus(path: Path) -> None:
    store = open_store(path)
    store.add_corpus(mini_corpus())
    store.add_corpus(mini_corpus("zweiter"))
    store.close()


def _accounts(path: Path) -> None:
    store = open_store(path)
    user(store, "admin", "admin")
    store.close()


def _study(path: Path) -> None:
    _corpus(path)
    store = open_store(path)
    create_study(store, "Sommer", "mini", seed=1)
    store.close()


# store content -> (the --db option is given, the one line expected; {db}: the store file)
CASES: dict[str, tuple[Callable[[Path], None], bool, str]] = {
    "schema-only": (_bare, True, f"no studies in {{db}}; {HINT} --db {{db}}` (corpora in the store: none yet: "
                    "benger import first)"),
    "corpora": (_corpus, True, f"no studies in {{db}}; {HINT} --db {{db}}` (corpora in the store: mini, zweiter)"),
    "accounts-only": (_accounts, True, f"no studies in {{db}}; {HINT} --db {{db}}` (corpora in the store: none "
                      "yet: benger import first)"),
    "default-./benger.db": (_corpus, False, f"no studies in {{db}}; {HINT}` (corpora in the store: mini, zweiter)"),
    "one-study": (_study, True, "1\tSommer\tmini\tdraft\tseed=1\t7200s"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_study_list_says_when_there_is_no_study(
    case: str, tmp_path: Path, copy_of_migrated_sqlite: Callable[[Path], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    make, with_db, expected = CASES[case]
    db = copy_of_migrated_sqlite(tmp_path / "benger.db")
    make(db)
    monkeypatch.delenv("BENGER_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["study", "list", *(["--db", str(db)] if with_db else [])])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [expected.format(db=db)]

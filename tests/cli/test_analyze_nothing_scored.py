"""``benger analyze`` on a corpus that no judge has scored says so and exits 2, writing nothing.

Before: on a store whose every generation was unscored (no judgements), ``benger analyze`` exited 0 and wrote a
report whose judge was "primary" and whose rubric was "0-100", provenance that no judgement had given. Now each
corpus to analyse is checked before anything is written (``report._run._require_scores``): the message names
the corpus, the store and what to run (``benger judge``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tests.analysis.leaderboard_stores import RUBRIC, tiny_store
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.schema import Judgement
from benger.store import Store

_register_commands()
runner = CliRunner()


def _unjudged(path: Path) -> Store:
    return tiny_store(path, {"A": {"J": [None, None]}, "B": {"J": [None, None]}})


def _all_unscored(path: Path) -> Store:
    store = _unjudged(path)
    for gid in ("A-t0", "A-t1", "B-t0", "B-t1"):
        store.save_judgement(
            Judgement(judgement_id=f"u-{gid}", target_kind="generation", target_id=gid, judge="J",
                      judge_config_hash="h-J", rubric_id=RUBRIC, repeat_index=0, status="unscored",
                      reason="unparseable")
        )  # fmt: skip
    return store


# (the store, the words that say why)
STORES: dict[str, tuple[Callable[[Path], Store], str]] = {
    "no judgements": (_unjudged, "it has no judgements"),
    "every judgement unscored": (_all_unscored, "all 4 of its judgements are unscored"),
}


@pytest.mark.parametrize("corpus", [None, "fall"])
@pytest.mark.parametrize("kind", STORES)
def test_analyze_refuses_a_corpus_nothing_scored(kind: str, corpus: str | None, tmp_path: Path) -> None:
    make, why = STORES[kind]
    db, out = tmp_path / "s.db", tmp_path / "out"
    make(db).close()
    before = db.read_bytes()
    flags = ["--corpus", corpus] if corpus else []
    result = runner.invoke(app, ["analyze", "--db", str(db), *flags, "--out", str(out)], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"nothing to analyse in corpus 'fall' of the store {db}: none of its 4 generations is scored" in text
    assert why in text and f"benger judge CONFIG --db {db}" in text, text
    assert "Traceback" not in result.output and "primary" not in text and "0-100" not in text
    assert not out.exists()
    assert db.read_bytes() == before


def test_one_unscored_corpus_of_several_stops_analyze_before_any_is_written(tmp_path: Path) -> None:
    """``--corpus scored --corpus unscored``: refused before the first corpus's folder is written."""
    from benger.schema import Corpus, FalloesungTask, Generation

    db, out = tmp_path / "s.db", tmp_path / "out"
    store = tiny_store(db, {"A": {"J": [60.0, 40.0]}, "B": {"J": [70.0, 30.0]}})
    store.add_corpus(Corpus(name="zwei", tasks=[FalloesungTask(task_id="z0", corpus="zwei", area="Zivilrecht",
                                                               facts="SV", reference="ML")]))  # fmt: skip
    store.save_generation(Generation(generation_id="A-z0", task_id="z0", corpus="zwei", system="A",
                                     config_hash="cfg-A", status="ok", text="T"))  # fmt: skip
    store.close()
    args = ["analyze", "--db", str(db), "--corpus", "fall", "--corpus", "zwei", "--out", str(out)]
    result = runner.invoke(app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    assert "nothing to analyse in corpus 'zwei'" in " ".join(result.output.split())
    assert not out.exists()

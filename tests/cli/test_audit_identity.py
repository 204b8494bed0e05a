"""Issue 10 audit (2026-12-01 (c), H4): faults found by running the CLI as a hostile user after "a task is
(corpus, task id)" landed. Each test reproduces one observed fault.

1. A task id longer than the store's key columns (200 characters) was stored on SQLite (exit 0) and was
   "internal error: DataError: value too long for type character varying(200)" (exit 1) on PostgreSQL: the
   same file gave two different outcomes, one of them a crash.
2. A system renamed in the run config (same provider, model and parameters, so the same configuration hash)
   made ``benger run`` print "0 items to do", an empty leaderboard and exit 0; ``benger leaderboard --system
   NEWNAME`` then said the filter selects no generation (exit 2). The run named a system and showed nothing
   for it.
3. ``benger import --help`` still said "a task id of another corpus is always refused" (since 737dd01 it is
   imported as a separate task).
4. ``benger analyze`` on a Benchathon store that also holds another corpus recorded, as its inputs, every
   scored judgement of the store (``meta.inputs.n_judgements``: 210 for 208 used) and every stored system,
   judges included (``rq2.inputs.systems``, ``rq3.per_system.inputs.systems``: 14 for 12). Fixed in benger.analysis.

1 is refused alike on both backends by the store's one check of what a column holds (``benger.store._text``),
and the import names the file; 2: a name given for a stored configuration selects the rows of that
configuration's other names (``benger.analysis.leaderboard.identity.same_configuration``), and the board says
so; 3 is fixed.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, PrincipleItem, SystemConfig
from benger.store import open_store
from benger.testing import run_stub_server

_register_commands()
runner = CliRunner()


def _record(task_id: str) -> str:
    return json.dumps({"id": task_id, "bereich": "Strafrecht", "fall": "T lädt sein Auto an der Wallbox.",
                       "frage": "Liegt eine verbotene Analogie vor?", "antwort": "Ja",
                       "begründung": "Strom ist keine Sache."}, ensure_ascii=False)  # fmt: skip


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_a_task_id_too_long_for_the_store_is_refused_alike_on_both_backends(
    backend: str, tmp_path: Path, pg_database: Callable[[str], AbstractContextManager[str]]
) -> None:
    corpus = tmp_path / "lang.jsonl"
    corpus.write_text(_record("x" * 250) + "\n", encoding="utf-8")

    def run(db: str) -> None:
        result = runner.invoke(app, ["import", str(corpus), "--db", db])
        assert "internal error" not in result.output, result.output
        assert result.exit_code == 2, result.output
        assert "task_id" in result.output and "lang.jsonl" in result.output

    if backend == "sqlite":
        run(str(tmp_path / "s.db"))
    else:
        with pg_database("benger_audit") as url:
            run(url)


def _config(path: Path, name: str, base_url: str) -> Path:
    system = f"{{name: {name}, provider: openai-compatible, model: stub-m, base_url: '{base_url}'}}"
    judge = f"{{name: stub-judge, provider: openai-compatible, model: stub-judge, base_url: '{base_url}'}}"
    path.write_text(f"corpora: [meine]\nsystems:\n  - {system}\njudges:\n  - {judge}\n"
                    "retry: {max_retries: 0, initial_wait: 0, max_wait: 0}\n", encoding="utf-8")  # fmt: skip
    return path


@pytest.mark.slow  # two runs against the stub server (2 s)
def test_a_renamed_system_has_its_leaderboard_row(tmp_path: Path) -> None:
    corpus = tmp_path / "meine.jsonl"
    corpus.write_text(_record("gp-1") + "\n", encoding="utf-8")
    db = str(tmp_path / "s.db")
    assert runner.invoke(app, ["import", str(corpus), "--db", db]).exit_code == 0
    with run_stub_server() as stub:
        first = runner.invoke(app, ["run", str(_config(tmp_path / "a.yaml", "alpha", stub.base_url)), "--db", db])
        assert first.exit_code == 0, first.output
        second = runner.invoke(app, ["run", str(_config(tmp_path / "b.yaml", "beta", stub.base_url)), "--db", db])
    assert second.exit_code == 0, second.output
    board = runner.invoke(app, ["leaderboard", "--db", db, "--system", "beta", "--out", str(tmp_path / "lb")])
    assert board.exit_code == 0, board.output
    with (tmp_path / "lb" / "leaderboard.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["corpus"], r["n"]) for r in rows] == [("meine", "1")]
    assert [r["system"] for r in rows] == ["alpha"]  # results keep the name they were made under, and say so
    assert "System beta: the configuration of alpha (a name is a label)" in " ".join(board.output.split())


def test_import_help_does_not_say_a_reused_task_id_is_refused() -> None:
    """Since 737dd01 a file may reuse another corpus's task id (README); ``benger import --help`` still said
    "a task id of another corpus is always refused"."""
    result = runner.invoke(app, ["import", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "always refused" not in " ".join(result.output.split())


def _store_with_two_corpora(db: Path) -> None:
    """Benchathon-like corpus 'benchathon' (2 cases, one system, one judge) plus corpus 'meine' judged by a
    second judge: 2 scored judgements and 2 systems (+ 2 judges) belong to the benchathon analysis."""
    cases = [FalloesungTask(task_id=f"c{i}", corpus="benchathon", area="Zivilrecht", facts=f"Sachverhalt {i}.",
                      reference=f"Lösung {i}.") for i in (1, 2)]  # fmt: skip
    other = PrincipleItem(task_id="c1", corpus="meine", area="Strafrecht", case="Fall.", question="Frage?",
                          gold_answer="Ja", gold_reasoning="Weil.")  # fmt: skip
    with open_store(db) as store:
        store.add_corpora([Corpus(name="benchathon", tasks=cases), Corpus(name="meine", tasks=[other])])
        for name in ("sys-a", "sys-b", "judge-1", "judge-2", "sys-other"):
            store.upsert_system(SystemConfig(name=name, provider="openai-compatible", model=name))
        targets = [("benchathon", "c1", "sys-a"), ("benchathon", "c2", "sys-b"), ("meine", "c1", "sys-other")]
        for corpus, task, system in targets:
            gid = f"g-{corpus}-{task}-{system}"
            store.save_generation(Generation(generation_id=gid, task_id=task, corpus=corpus, system=system,
                                             config_hash=f"h-{system}", text="Lösung."))  # fmt: skip
            judge = "judge-2" if corpus == "meine" else "judge-1"
            store.save_judgement(Judgement(judgement_id=f"j-{gid}", target_kind="generation", target_id=gid,
                                           judge=judge, judge_config_hash="jh", rubric_id="falloesung@1",
                                           status="scored", total=60.0))  # fmt: skip


def test_analyze_counts_the_inputs_of_its_corpus_only(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _store_with_two_corpora(db)
    result = runner.invoke(app, ["analyze", "--db", str(db), "--out", str(tmp_path / "an"), "--n-boot", "100"])
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "an" / "results.json").read_text(encoding="utf-8"))
    assert results["meta"]["inputs"]["n_generations"] == 2
    assert results["meta"]["inputs"]["n_judgements"] == 2  # was 3: judge-2's judgement of corpus 'meine'
    assert results["rq2"]["inputs"]["systems"] == 2  # was 5: every stored system, judges included
    assert results["rq3"]["per_system"]["inputs"]["systems"] == 2

"""`benger errors` on a store with Falllösung and Grundprinzipien judgements: it classifies the Falllösung
ones (error modes are about Falllösungen), says which pair it chose among which, and that superseded
generations are left out; with no Falllösung pair and several others it refuses, listing them."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge import falloesung_rubric, grundprinzipien_rubric
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store

_register_commands()
runner = CliRunner()


def _store(path: Path, judged: list[tuple[str, str, str]], superseded: int = 0) -> str:
    """A store with one Falllösung task, one ok generation per (generation id, judge, rubric id) in ``judged``
    (each judged once, full marks) and ``superseded`` excluded generations of the April campaign."""
    store = open_store(path)
    task = FalloesungTask(
        task_id="t1", corpus="c", area="Zivilrecht", title="Fall", facts="A verkauft B ein Rad.", reference="R"
    )
    store.add_corpus(Corpus(name="c", tasks=[task]))
    for gid, judge, rubric in judged:
        store.save_generation(Generation(generation_id=gid, task_id="t1", system="s", config_hash=gid, text="Text"))
        dims = (falloesung_rubric() if rubric.startswith("falloesung@") else grundprinzipien_rubric()).maxima()
        store.save_judgement(
            Judgement(
                judgement_id=f"{gid}:{judge}",
                target_kind="generation",
                target_id=gid,
                judge=judge,
                judge_config_hash=f"h-{judge}",
                rubric_id=rubric,
                status="scored",
                dimensions=dims,
                total=sum(dims.values()),
            )
        )
    for i in range(superseded):
        store.save_generation(
            Generation(
                generation_id=f"old{i}",
                task_id="t1",
                system="s",
                config_hash=f"old-{i}",
                text="",
                status="excluded",
                reason="superseded (April 2026 campaign)",
                meta={"superseded": True},
            )
        )
    store.close()
    return str(path)


MIXED = [("g1", "a", "falloesung@1"), ("g2", "a", "falloesung@1")] + [
    (f"p{i}", "b", "grundprinzipien@1") for i in range(3)
]


def test_errors_takes_the_falloesung_pair_even_when_another_is_more_frequent(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.db", MIXED, superseded=2)
    result = runner.invoke(app, ["errors", "--db", db])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "error modes (paper §6.6) — judge a, rubric falloesung@1"
    assert "  judged generations: 2 (length unknown: 0)" in lines
    assert lines[-2] == (
        "  judgements of judge a, rubric falloesung@1 (chosen among: --judge b --rubric grundprinzipien@1 "
        "(3 judgements); --judge a --rubric falloesung@1 (2 judgements))"
    )
    assert lines[-1] == "  only ok generations are classified: 2 superseded generations are left out"


def test_errors_with_a_single_pair_says_nothing_about_a_choice(tmp_path: Path) -> None:
    db = _store(tmp_path / "s.db", MIXED[:2])
    result = runner.invoke(app, ["errors", "--db", db])
    assert result.exit_code == 0, result.output
    assert "chosen among" not in result.output
    assert result.output.splitlines()[-1].endswith(": 0 superseded generations are left out")


@pytest.mark.parametrize("fmt", ["json", "markdown"])
def test_machine_formats_name_the_chosen_pair_in_the_provenance(tmp_path: Path, fmt: str) -> None:
    db = _store(tmp_path / "s.db", MIXED)
    result = runner.invoke(app, ["errors", "--db", db, "--format", fmt])
    assert result.exit_code == 0, result.output
    assert "falloesung@1" in result.output and "grundprinzipien@1" not in result.output
    if fmt == "markdown":
        note = "Only ok generations are classified: 0 superseded generations are left out."
        assert result.output.endswith(f"\n\n{note}\n")


def test_errors_refuses_to_guess_between_other_rubrics(tmp_path: Path) -> None:
    judged = [("p1", "b", "grundprinzipien@1"), ("p2", "c", "grundprinzipien@1"), ("p3", "c", "grundprinzipien@1")]
    db = _store(tmp_path / "s.db", judged)
    result = runner.invoke(app, ["errors", "--db", db])
    assert result.exit_code == 2, result.output
    assert result.output == (
        "error: field '--rubric': the store holds judgements of several judges/rubrics and none of the Falllösung "
        "rubric; choose one: --judge c --rubric grundprinzipien@1 (2 judgements); --judge b --rubric "
        "grundprinzipien@1 (1 judgements)\n"
    )
    chosen = runner.invoke(app, ["errors", "--db", db, "--judge", "c", "--rubric", "grundprinzipien@1"])
    assert chosen.exit_code == 0, chosen.output
    assert "judged generations: 2 " in chosen.output

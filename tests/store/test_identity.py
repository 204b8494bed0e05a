"""Issue 10, observations 1, 2 and 7: imports never replace a corpus by name, never take over another corpus's
task (a task is (corpus, task id)), and are one transaction (on any error the store is unchanged, compared row by
row)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora import Release, load_release
from benger.errors import InputError
from benger.schema import Generation, Judgement
from benger.store import Store, open_store

from ._data import dump, make_corpus

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def release(release_dir: Path) -> Release:
    return load_release(release_dir)


def _principle_line(task_id: str) -> str:
    record = {
        "task_id": task_id,
        "kind": "grundprinzip",
        "area": "Zivilrecht",
        "case": "A verkauft B ein Rad.",
        "question": "Ist ein Kaufvertrag geschlossen?",
        "gold_answer": "Ja",
        "gold_reasoning": "Zwei übereinstimmende Willenserklärungen.",
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def ids_of(store: Store, task_id: str) -> set[str]:
    return {g.generation_id for g in store.generations(task_ids=[task_id])}


def _pick(release: Release, pick_id: str) -> str:
    return next(p.subject_id for p in release.picks if p.pick_id == pick_id)


def _benchathon_task_with_generations(store: Store) -> tuple[str, int]:
    counts: dict[str, int] = {}
    for g in store.generations(corpus="benchathon"):
        counts[g.task_id] = counts.get(g.task_id, 0) + 1
    task_id = max(sorted(counts), key=lambda t: counts[t])
    return task_id, counts[task_id]


@pytest.mark.release
def test_obs1_a_one_line_file_named_like_a_released_corpus_does_not_replace_it(
    tmp_path: Path, release: Release
) -> None:
    db = str(tmp_path / "s.db")
    with open_store(db) as store:
        store.import_release(release)
        before = dump(store)
    user_file = tmp_path / "grundprinzipien.jsonl"
    user_file.write_text(_principle_line("mine-0001"), encoding="utf-8")

    refused = runner.invoke(app, ["import", str(user_file), "--db", db])
    assert refused.exit_code == 2, refused.output
    assert "corpus 'grundprinzipien' is already in the store (531 tasks)" in refused.output
    assert "--replace" in refused.output and "--as NAME" in refused.output
    with open_store(db) as store:
        assert dump(store) == before

    other = runner.invoke(app, ["import", str(user_file), "--db", db, "--as", "meine"])
    assert other.exit_code == 0, other.output
    assert "imported corpus meine: 1 tasks" in other.output
    with open_store(db) as store:
        assert len(store.load_corpus("grundprinzipien").tasks) == 531
        assert [t.task_id for t in store.load_corpus("meine").tasks] == ["mine-0001"]
        assert store.load_corpus("meine").tasks[0].corpus == "meine"

    user_file.write_text(_principle_line("mine-0002"), encoding="utf-8")
    replaced = runner.invoke(app, ["import", str(user_file), "--db", db, "--replace"])
    assert replaced.exit_code == 0, replaced.output
    assert "replaced corpus grundprinzipien: 1 tasks" in replaced.output
    # the 531 released items had no generations in the release: only tasks go (and nothing of benchathon)
    assert "removed 531 tasks, 0 generations, 0 judgements" in replaced.output
    with open_store(db) as store:
        assert [t.task_id for t in store.load_corpus("grundprinzipien").tasks] == ["mine-0002"]
        assert dump(store)["generations"] == before["generations"]


def _benchathon_board(store: Store) -> list[tuple[object, ...]]:
    from benger.analysis import leaderboard_from_store

    board = leaderboard_from_store(store, corpora=["benchathon"], ci="normal")
    return [(r.system, r.config_hash, r.corpus, r.judge, r.n, r.mean) for r in board.rows]


@pytest.mark.release
def test_obs2_a_user_record_reusing_a_benchathon_task_id_is_a_task_of_its_own_corpus(
    tmp_path: Path, release: Release
) -> None:
    """A task is (corpus, task id): the user's task "X" in "meine" and Benchathon's task "X" are two tasks; the
    import succeeds and never touches Benchathon's task, its generations, judgements or leaderboard."""
    db = str(tmp_path / "s.db")
    with open_store(db) as store:
        store.import_release(release)
        task_id, n_gens = _benchathon_task_with_generations(store)
        before = {k: v for k, v in dump(store).items() if k not in ("corpora", "tasks")}
        board = _benchathon_board(store)
        n_judgements = len(store.judgements())
    assert n_gens >= 12  # the released systems' generations of that task
    user_file = tmp_path / "meine.jsonl"
    user_file.write_text(_principle_line(task_id), encoding="utf-8")
    result = runner.invoke(app, ["import", str(user_file), "--db", db])
    assert result.exit_code == 0, result.output
    assert "imported corpus meine: 1 tasks" in result.output
    with open_store(db) as store:
        assert {k: v for k, v in dump(store).items() if k not in ("corpora", "tasks")} == before
        assert len(store.load_corpus("benchathon").tasks) == 15
        assert store.get_task(task_id, "benchathon") == release.benchathon.get(task_id)
        [mine] = store.load_corpus("meine").tasks
        assert (mine.task_id, mine.corpus, mine.kind) == (task_id, "meine", "grundprinzip")
        assert store.get_task(task_id, "meine") == mine
        with pytest.raises(InputError, match=r"is in 2 corpora \('benchathon', 'meine'\)"):
            store.get_task(task_id)  # the id alone is ambiguous now: refused, naming both
        assert len(store.generations(corpus="benchathon", task_ids=[task_id])) == n_gens
        assert store.generations(corpus="meine") == []
        assert len(store.judgements()) == n_judgements
        assert _benchathon_board(store) == board
    # --replace of the user's own corpus removes only its own task (0 generations), never Benchathon's
    user_file.write_text(_principle_line("mine-0002"), encoding="utf-8")
    again = runner.invoke(app, ["import", str(user_file), "--db", db, "--replace"])
    assert again.exit_code == 0, again.output
    assert "removed 1 tasks, 0 generations, 0 judgements" in again.output
    with open_store(db) as store:
        assert store.get_task(task_id) == release.benchathon.get(task_id)  # one corpus holds it again
        assert len(store.generations(corpus="benchathon", task_ids=[task_id])) == n_gens
        assert _benchathon_board(store) == board


def test_two_corpora_each_hold_a_task_t1_and_replacing_one_keeps_the_other(store: Store) -> None:
    from benger.schema import HumanReview, HumanSolution

    a = make_corpus("a", 2).model_copy(update={"name": "a"})
    b = make_corpus("a", 2)
    b = b.model_copy(update={"name": "b", "tasks": [t.model_copy(update={"corpus": "b"}) for t in b.tasks]})
    store.add_corpora([a, b])  # both hold a-t1 and a-t2
    assert [t.task_id for t in store.load_corpus("b").tasks] == ["a-t2", "a-t1"]
    for corpus in ("a", "b"):
        store.save_generation(
            Generation(generation_id=f"g-{corpus}", task_id="a-t1", corpus=corpus, system="s", config_hash="h")
        )
        store.add_human_solution(
            HumanSolution(solution_id=f"h-{corpus}", task_id="a-t1", corpus=corpus, participant_id="p",
                          condition="traditional")
        )  # fmt: skip
        store.add_human_review(
            HumanReview(review_id=f"r-{corpus}", target_kind="generation", target_id=f"g-{corpus}", task_id="a-t1",
                        grader_id="x", role="blind", dimensions={}, raw_score=1.0, grade_points=1, passed=False)
        )  # fmt: skip
    # the same unit key in two corpora: two generations; the corpus is part of the key
    assert store.get_generation("a-t1", "h", 0, "a").generation_id == "g-a"  # type: ignore[union-attr]
    assert store.get_generation("a-t1", "h", 0, "b").generation_id == "g-b"  # type: ignore[union-attr]
    assert store.finished_generation_keys(["h"]) == {("a", "a-t1", "h", 0), ("b", "a-t1", "h", 0)}
    with pytest.raises(InputError, match="must name its corpus"):
        store.save_generation(Generation(generation_id="g-x", task_id="a-t1", system="s", config_hash="h2"))
    changed = make_corpus("a", 1)  # keeps a-t1 only, changed content: a-t1 and a-t2 of "a" go
    changed = changed.model_copy(update={"tasks": [changed.tasks[0].model_copy(update={"facts": "Neu."})]})
    change = store.add_corpus(changed, replace=True)
    assert (change.tasks_removed, change.generations_removed, change.human_solutions_removed) == (2, 1, 1)
    assert change.human_reviews_removed == 1  # r-a only: r-b names task a-t1 too, but its target is b's
    assert [g.generation_id for g in store.generations()] == ["g-b"]
    assert [s.solution_id for s in store.human_solutions()] == ["h-b"]
    assert [r.review_id for r in store.human_reviews()] == ["r-b"]
    assert len(store.load_corpus("b").tasks) == 2


def test_re_importing_the_same_corpus_is_a_no_op(store: Store) -> None:
    corpus = make_corpus("demo", 3)
    assert store.add_corpus(corpus).action == "added"
    before = dump(store)
    assert store.add_corpus(corpus).action == "unchanged"
    assert dump(store) == before


def test_several_corpora_are_one_transaction(store: Store) -> None:
    store.add_corpus(make_corpus("a", 2))
    before = dump(store)
    clash = make_corpus("a", 2).model_copy(update={"name": "a"})
    clash = clash.model_copy(update={"tasks": [clash.tasks[0], clash.tasks[0]]})  # one task id twice
    with pytest.raises(InputError, match="task id 'a-t2' appears twice"):
        store.add_corpora([make_corpus("b", 2), clash])
    assert dump(store) == before  # corpus b, valid on its own, was not written either


# -- observation 7: every import is one transaction -------------------------------------------------------


def _late_generation(release: Release, **update: object) -> Release:
    gens = list(release.generations)
    gens[-1] = gens[-1].model_copy(update=update)
    return dataclasses.replace(release, generations=type(release.generations)(gens))


@pytest.mark.release
def test_obs7_a_late_wrong_typed_value_leaves_the_store_unchanged(store: Store, release: Release) -> None:
    store.add_corpus(make_corpus("eigene", 2))
    before = dump(store)
    judgements = list(release.judgements)
    bad = Judgement.model_construct(**{**dict(judgements[-1]), "total": "hoch"})  # not a number
    broken = dataclasses.replace(release, judgements=type(release.judgements)([*judgements[:-1], bad]))
    with pytest.raises(InputError, match=r"judgement 208.*nothing was imported"):
        store.import_release(broken)
    assert dump(store) == before


@pytest.mark.release
def test_obs7_a_late_generation_of_an_unknown_task_leaves_the_store_unchanged(store: Store, release: Release) -> None:
    store.add_corpus(make_corpus("eigene", 2))
    before = dump(store)
    with pytest.raises(InputError, match="names task 'kein-task'"):
        store.import_release(_late_generation(release, task_id="kein-task"))
    assert dump(store) == before


@pytest.mark.release
def test_obs7_a_database_error_late_in_the_import_rolls_everything_back(store: Store, release: Release) -> None:
    """A NUL in a late generation id: not a legitimate id, refused by the store while writing -> all rolled back."""
    store.add_corpus(make_corpus("eigene", 2))
    before = dump(store)
    gens = list(release.generations)
    gens[-1] = Generation.model_construct(**{**dict(gens[-1]), "system": "sys\x00tem"})
    broken = dataclasses.replace(release, generations=type(release.generations)(gens))
    with pytest.raises(InputError, match="NUL"):
        store.import_release(broken)
    assert dump(store) == before


@pytest.mark.release
def test_obs7_obs8_a_nul_in_a_late_pick_text_is_stored_losslessly(store: Store, release: Release) -> None:
    picks = list(release.picks)
    index = max(i for i, p in enumerate(picks) if p.subject_type == "human")
    text = picks[index].text + "\x00Anhang"
    picks[index] = dataclasses.replace(picks[index], text=text)
    counts = store.import_release(dataclasses.replace(release, picks=type(release.picks)(picks)))
    assert counts["human_solutions"] == 30 and counts["generations"] == 208
    solution = store.get_human_solution(picks[index].subject_id)
    assert solution is not None and solution.text == text
    assert "_benger_escaped" not in solution.meta


@pytest.mark.release
def test_a_changed_release_corpus_is_refused_and_replace_says_what_goes(store: Store, release: Release) -> None:
    store.import_release(release)
    task_id, n_gens = _benchathon_task_with_generations(store)
    tasks = [
        t.model_copy(update={"facts": t.facts + " (geändert)"}) if t.task_id == task_id else t  # type: ignore[union-attr]
        for t in release.benchathon.tasks
    ]
    changed = dataclasses.replace(release, benchathon=release.benchathon.model_copy(update={"tasks": tasks}))
    before = dump(store)
    ids = sorted(g.generation_id for g in store.generations())
    humans = {h.solution_id for h in store.human_solutions() if h.task_id == task_id}
    llm_picks = {p.subject_id for p in release.picks if p.subject_type == "model" and p.task_id == task_id}
    # the judgements of its generations (the primary judge's, and the five other paper judges' of its LLM picks)
    # and of its human picks (the six paper judges' released scores)
    n_judged = sum(1 for j in store.judgements() if j.target_id in {*ids_of(store, task_id), *humans})
    assert n_judged == n_gens + 5 * len(llm_picks) + 6 * len(humans) - sum(
        1 for p in ("P25", "P28") if _pick(release, p) in humans
    )
    assert llm_picks  # the task has an LLM pick: its five extra judgements are counted
    with pytest.raises(InputError, match=f"removes 1 tasks, {n_gens} generations, {n_judged} judgements"):
        store.import_release(changed)
    assert dump(store) == before
    counts = store.import_release(changed, replace=True)
    assert counts["removed_tasks"] == 1 and counts["removed_generations"] == n_gens
    assert store.get_task(task_id) == changed.benchathon.get(task_id)
    # the old rows of the changed task went; the release's own rows for it came back in the same transaction
    assert len(store.generations(task_ids=[task_id])) == n_gens
    assert sorted(g.generation_id for g in store.generations()) == ids

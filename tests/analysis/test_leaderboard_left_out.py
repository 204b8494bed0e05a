"""Which judge configurations the leaderboard leaves out as validation-only, and that each one left out is named
(attack finding 1): reviews imported into an own-study store whose one case carries its own Bewertungsbogen must
not remove the main rubric's rows. The rule (:func:`benger.store._aggregate_items.validation_only_of`): every
generation the configuration judged is reviewed, and on a corpus it judged a judgement under the same rubric is of
an unreviewed generation. The store path (SQL) and the records path agree on every kind of store."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import NamedTuple

import pytest

from benger.analysis.leaderboard import leaderboard, leaderboard_from_store, render
from benger.analysis.leaderboard.records import validation_only
from benger.schema import Corpus, FalloesungTask, Generation, HumanReview, Judgement
from benger.store import Store, open_store
from benger.store._aggregate_items import validation_only_judges

U, B = "umlaut@1", "bogen-mm-03@1"  # the corpus rubric and case mm-03's own Bewertungsbogen
#: generation -> (its task, its corpus); g3's task mm-03 is judged under its own rubric where a case names one
GENERATIONS = {"g0": ("mm-00", "faelle"), "g1": ("mm-01", "faelle"), "g2": ("mm-02", "faelle"),
               "g3": ("mm-03", "faelle"), "x0": ("x-00", "andere")}  # fmt: skip


def _store(path: Path | str, judged: list[tuple[str, str, str]], reviewed: tuple[str, ...]) -> Store:
    """``judged``: (judge, generation, rubric); every judge has one config hash ``h<judge>``."""
    store = open_store(path)
    for corpus in sorted({c for _, c in GENERATIONS.values()}):
        tasks = [FalloesungTask(task_id=t, corpus=c, area="Zivilrecht", facts="S", reference="R")
                 for t, c in GENERATIONS.values() if c == corpus]  # fmt: skip
        store.add_corpus(Corpus(name=corpus, tasks=tasks))
    for gid, (task, _) in GENERATIONS.items():
        store.save_generation(Generation(generation_id=gid, task_id=task, system="sys", config_hash="c", text="x"))
    for i, (judge, gid, rubric) in enumerate(judged):
        store.save_judgement(
            Judgement(judgement_id=f"j{i}", target_kind="generation", target_id=gid, judge=judge,
                      judge_config_hash=f"h{judge}", rubric_id=rubric, status="scored", total=10.0 + i)
        )  # fmt: skip
    for gid in reviewed:
        store.add_human_review(
            HumanReview(review_id=f"r-{gid}", target_kind="generation", target_id=gid, task_id=GENERATIONS[gid][0],
                        grader_id="R1", role="blind", dimensions={"gesamt": 5.0}, raw_score=5.0,
                        grade_points=None, passed=None, position=0)
        )  # fmt: skip
    return store


class Case(NamedTuple):
    judged: list[tuple[str, str, str]]
    reviewed: tuple[str, ...]
    #: the validation-only configurations, as (judge, rubric)
    left_out: set[tuple[str, str]]


MAIN = [("J", g, U) for g in ("g0", "g1", "g2")]  # J judges the three corpus-rubric cases
OWN = [("J", "g3", B)]  # and mm-03 under its own Bewertungsbogen
CASES = {
    # one judge, one rubric: reviews on none / some / all of its generations never leave it out
    "one-judge-one-rubric-none": Case(MAIN, (), set()),
    "one-judge-one-rubric-some": Case(MAIN, ("g0",), set()),
    "one-judge-one-rubric-all": Case(MAIN, ("g0", "g1", "g2"), set()),
    # one judge, two rubrics (the attack): the main rubric's generations all reviewed, mm-03 not, or the reverse
    "one-judge-two-rubrics-main-all": Case(MAIN + OWN, ("g0", "g1", "g2"), set()),
    "one-judge-two-rubrics-own-only": Case(MAIN + OWN, ("g3",), set()),
    "one-judge-two-rubrics-none": Case(MAIN + OWN, (), set()),
    "one-judge-two-rubrics-all": Case(MAIN + OWN, ("g0", "g1", "g2", "g3"), set()),
    # two judges, one rubric: K scored the pick g0 only (the release's secondary judges)
    "two-judges-pick-reviewed": Case([*MAIN, ("K", "g0", U)], ("g0",), {("K", U)}),
    "two-judges-pick-unreviewed": Case([*MAIN, ("K", "g0", U)], (), set()),
    "two-judges-all-reviewed": Case([*MAIN, ("K", "g0", U)], ("g0", "g1", "g2"), set()),
    "two-judges-some-of-k-reviewed": Case([*MAIN, ("K", "g0", U), ("K", "g1", U)], ("g0",), set()),
    # two judges, two rubrics: K's pick under the main rubric is left out, J's own-rubric row never is
    "two-judges-two-rubrics-pick": Case([*MAIN, *OWN, ("K", "g0", U)], ("g0",), {("K", U)}),
    "two-judges-two-rubrics-main-all": Case(
        [*MAIN, *OWN, *(("K", g, U) for g in ("g0", "g1", "g2"))], ("g0", "g1", "g2"), set()
    ),
    "two-judges-own-rubric-pick": Case([*MAIN, *OWN, ("K", "g3", B)], ("g3",), set()),
    "two-judges-own-rubric-pick-of-two": Case([*MAIN, *OWN, ("J", "g2", B), ("K", "g3", B)], ("g3",), {("K", B)}),
    # the same rubric on another corpus: an unreviewed generation there makes no pick of this corpus
    "two-corpora": Case([("J", "g0", U), ("K", "x0", U)], ("g0",), set()),
    "two-corpora-pick": Case([*MAIN, ("K", "g0", U), ("K", "x0", U)], ("g0",), set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_validation_only_configurations_of_each_kind_of_store(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    expected = {(judge, f"h{judge}", rubric) for judge, rubric in case.left_out}
    store = _store(tmp_path / "s.db", case.judged, case.reviewed)
    try:
        assert validation_only_judges(store) == expected
        gens, judgements = store.generations(), store.judgements(target_kind="generation")
        corpus_of = {gid: c for gid, (_, c) in GENERATIONS.items()}
        assert validation_only(judgements, set(case.reviewed), corpus_of) == expected
        board = leaderboard_from_store(store, ci="normal")
        tasks = {t.task_id: t for c in ("faelle", "andere") for t in store.load_corpus(c).tasks}
        records_board = leaderboard(gens, judgements, tasks, ci="normal", reviewed=set(case.reviewed))
    finally:
        store.close()
    configs = {(j, r) for j, _, r in case.judged}
    for b in (board, records_board):
        assert {(r.judge, r.rubric) for r in b.rows if r.judge} == configs - case.left_out
        assert b.left_out == sorted(expected)
        caption = " ".join(render.provenance_lines(b))
        assert ("Left out:" in caption) == bool(expected)
        assert all(f"{j} [h{j}, {r}]" in caption for j, r in case.left_out)


def test_reviews_of_the_main_rubric_keep_its_rows(tmp_path: Path) -> None:
    """The attack's store: before and after two blind reviews of the main rubric's generations, the same rows."""
    judged = [("J", "g1", U), ("J", "g2", U), ("J", "g3", B)]
    rows = []
    for reviewed in ((), ("g1", "g2")):
        store = _store(tmp_path / f"s{len(reviewed)}.db", judged, reviewed)
        try:
            board = leaderboard_from_store(store, ci="normal", corpora=["faelle"])
        finally:
            store.close()
        rows.append(sorted((r.rubric, r.n, r.mean) for r in board.rows if r.judge))
        assert board.left_out == []
    # U: (10 + 11) / 2 over g1, g2; B: 12 over g3
    assert rows[0] == rows[1] == [(B, 1, 12.0), (U, 2, 10.5)]


def test_the_rule_on_postgresql(pg_database: Callable[[str], AbstractContextManager[str]]) -> None:
    """The store path's queries on PostgreSQL, for every kind of store of the table."""
    for i, name in enumerate(sorted(CASES)):
        case = CASES[name]
        with pg_database(f"benger_leftout_{i}") as url:
            store = _store(url, case.judged, case.reviewed)
            try:
                got = validation_only_judges(store)
            finally:
                store.close()
        assert got == {(judge, f"h{judge}", rubric) for judge, rubric in case.left_out}, name

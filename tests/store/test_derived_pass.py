"""Issue 24: Grundprinzipien judgements stored before the short-item rubric had a pass rule (``passed`` NULL) get
the rule's value when read (raw >= 50 of 100, as new ones are judged), in the record and in the SQL aggregates;
other rubrics' missing pass values stay missing, and the leaderboard says "pass unknown" with the reason."""

from __future__ import annotations

import csv
import io

import pytest

from benger.analysis import leaderboard_from_store
from benger.analysis.leaderboard.table1 import table1
from benger.judge import grundprinzipien_rubric
from benger.schema import Corpus, Generation, Judgement, PrincipleItem
from benger.store import Store
from benger.store._pass import DERIVED_PASS_MARKS, pass_value

GP = grundprinzipien_rubric()
# an old-shape record: scored, a total, no pass value (what the judge stored before issue 24)
TOTALS = [30.0, 49.5, 50.0, 62.0, 45.0]  # 50 and 62 pass: 2 of 5


def test_the_marks_are_the_judges_rubric() -> None:
    assert set(DERIVED_PASS_MARKS) == {GP.id, GP.base_id}
    assert set(DERIVED_PASS_MARKS.values()) == {GP.effective_pass_total} == {50.0}
    for total in (0.0, 49.5, 50.0, 100.0):
        assert pass_value(GP.id, "scored", total, None) is GP.passed(total)


@pytest.mark.parametrize(
    ("rubric_id", "status", "total", "stored", "expected"),
    [
        (GP.id, "scored", 49.5, None, False),
        (GP.id, "scored", 50.0, None, True),
        ("grundprinzipien@1", "scored", 80.0, None, True),  # the released (bare) id
        (GP.id, "scored", 30.0, True, True),  # a stored value is never replaced
        (GP.id, "unscored", None, None, None),
        ("falloesung@1+12345678", "scored", 80.0, None, None),  # no derived rule for other rubrics
        ("my-own@1+abcdef12", "scored", 80.0, None, None),
    ],
)
def test_pass_value(
    rubric_id: str, status: str, total: float | None, stored: bool | None, expected: bool | None
) -> None:
    assert pass_value(rubric_id, status, total, stored) is expected


def _fill(store: Store, rubric_id: str = GP.id, passed: list[bool | None] | None = None) -> None:
    items = [
        PrincipleItem(task_id=f"p{i}", corpus="gp", area="Zivilrecht", case="Fall", question="Frage?",
                      gold_answer="Ja", gold_reasoning="weil")
        for i in range(len(TOTALS))
    ]  # fmt: skip
    store.add_corpus(Corpus(name="gp", tasks=items))
    for i, total in enumerate(TOTALS):
        store.save_generation(Generation(generation_id=f"g{i}", task_id=f"p{i}", system="S", config_hash="h",
                                         text="x", answer="Ja"))  # fmt: skip
        store.save_judgement(Judgement(judgement_id=f"j{i}", target_kind="generation", target_id=f"g{i}", judge="J",
                                       judge_config_hash="jh", rubric_id=rubric_id, repeat_index=0, status="scored",
                                       total=total, passed=None if passed is None else passed[i]))  # fmt: skip


def test_old_records_read_with_their_pass_value(store: Store) -> None:
    _fill(store)
    assert [j.passed for j in store.judgements()] == [False, False, True, True, False]
    for ci in ("normal", "percentile"):  # the SQL sums and the per-item path
        (row,) = leaderboard_from_store(store, ci=ci).rows
        assert row.pass_rate == pytest.approx(2 / 5), ci
        assert row.pass_ci_low is not None  # Wilson over 5 items
        assert row.pass_note is None  # every generation has a (derived) pass value


OWN = "kurzfragen@1+abcdef12"  # a user's own short-item rubric: the store knows no pass rule for it
UNKNOWN = (
    f"pass unknown: the judgements under rubric {OWN} carry no pass value (a rubric without a pass rule, or judged "
    "before it had one) and benger knows no rule to derive one"
)


@pytest.mark.parametrize(
    ("passed", "rate", "note", "cell"),
    [
        # no judgement carries a pass value: unknown, with the reason; never derived from the totals (2 of 5 >= 50)
        ([None] * 5, None, UNKNOWN, "unknown"),
        # some do: the rate over those (2 of 3), and the note says it covers 3 of the 5
        ([True, None, False, None, True], 2 / 3, "pass rate over the 3 of 5 scored generations that carry a pass "
         "value", "67%"),
        ([False, False, True, True, False], 2 / 5, None, "40%"),  # all stored: no note
    ],
)  # fmt: skip
def test_a_users_own_rubric_without_pass_values_reads_pass_unknown(
    store: Store, passed: list[bool | None], rate: float | None, note: str | None, cell: str
) -> None:
    _fill(store, OWN, passed)
    assert [j.passed for j in store.judgements()] == passed  # the record reader derives nothing for this rubric
    for ci in ("normal", "percentile"):  # the SQL sums and the per-item path
        board = leaderboard_from_store(store, ci=ci)
        (row,) = board.rows
        assert (row.n, row.pass_note) == (5, note), ci
        assert row.pass_rate == (None if rate is None else pytest.approx(rate)), ci
        (line,) = csv.DictReader(io.StringIO(board.to_csv()))
        assert (line["pass_rate"] == "", line["pass_note"]) == (rate is None, note or ""), ci
        markdown = board.to_markdown()
        assert f"| {cell} |" in markdown
        assert (f"Pass of S [h] gp: {note}." in markdown) == (note is not None)
    (entry,) = table1(board, bench_corpus="gp")["rows"]  # the corpus here is named gp: the first column's slot
    assert entry["bench"].get("pass_note") == note

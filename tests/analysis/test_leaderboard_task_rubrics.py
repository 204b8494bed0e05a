"""A task's own Bewertungsbogen on the leaderboard (issue 31): judgements made under two rubrics are never averaged
into one number. The judge splits into one group per rubric, each group ranks its own rows, and the rubric id is
named with the group (its label, the row's ``rubric`` and the provenance lines of every rendering)."""

from __future__ import annotations

import json

from benger.analysis.leaderboard import leaderboard, render
from benger.schema import FalloesungTask, Generation, Judgement, SystemConfig

KURZ, BOGEN = "kurz3@1+aaaaaaaa", "bogen@1+bbbbbbbb"
# (system, task, rubric of the task, total); f3 carries its own Bewertungsbogen, f1 and f2 the corpus rubric
SCORES = [
    ("A", "f1", KURZ, 12.0), ("A", "f2", KURZ, 18.0), ("A", "f3", BOGEN, 5.0),
    ("B", "f1", KURZ, 30.0), ("B", "f2", KURZ, 24.0), ("B", "f3", BOGEN, 20.0),
]  # fmt: skip


def _board():  # type: ignore[no-untyped-def]
    tasks = {t: FalloesungTask(task_id=t, corpus="faelle", area="Zivilrecht", facts="SV", reference="ML")
             for t in ("f1", "f2", "f3")}  # fmt: skip
    gens = [Generation(generation_id=f"{s}-{t}", task_id=t, system=s, config_hash=f"h{s}", status="ok", text="x")
            for s, t, _, _ in SCORES]  # fmt: skip
    judgements = [
        Judgement(judgement_id=f"j-{s}-{t}", target_kind="generation", target_id=f"{s}-{t}", judge="J",
                  judge_config_hash="jh000000", rubric_id=rubric, repeat_index=0, status="scored", total=total)
        for s, t, rubric, total in SCORES
    ]  # fmt: skip
    systems = {s: SystemConfig(name=s, provider="local", model=s.lower()) for s in ("A", "B")}
    return leaderboard(gens, judgements, tasks, systems=systems, ci="normal")


def test_each_rubric_is_its_own_judge_group_with_its_own_means() -> None:
    board = _board()
    rows = {(r.system, r.rubric): r for r in board.rows}
    assert set(rows) == {("A", KURZ), ("A", BOGEN), ("B", KURZ), ("B", BOGEN)}
    # kurz3 (30 points): A (12 + 18) / 2 = 15, B (30 + 24) / 2 = 27; the Bogen (20 points): A 5, B 20 - a mean
    # over the three tasks (A 35 / 3) would add points of a 30-point and a 20-point sheet
    assert [(rows[k].n, rows[k].mean) for k in sorted(rows)] == [(1, 5.0), (2, 15.0), (1, 20.0), (2, 27.0)]
    assert board.groups() == [f"J [jh000000, {BOGEN}]", f"J [jh000000, {KURZ}]"]
    assert all(rows[(s, rub)].group == f"J [jh000000, {rub}]" for s, rub in rows)
    # ranks are within one rubric's group: B first under both
    assert sorted((r.group, r.system, r.rank) for r in board.ranking) == [
        (f"J [jh000000, {BOGEN}]", "A", 2), (f"J [jh000000, {BOGEN}]", "B", 1),
        (f"J [jh000000, {KURZ}]", "A", 2), (f"J [jh000000, {KURZ}]", "B", 1),
    ]  # fmt: skip


def test_the_rubric_of_each_group_is_named_in_every_rendering() -> None:
    board = _board()
    lines = render.provenance_lines(board)
    for rubric in (KURZ, BOGEN):
        assert f"Judge group J [jh000000, {rubric}]: judge config jh000000; rubric {rubric}." in lines
    markdown = render.to_markdown(board)
    assert f"### Judge: J [jh000000, {KURZ}]" in markdown and f"### Judge: J [jh000000, {BOGEN}]" in markdown
    data = json.loads(render.to_json(board))
    assert {(r["system"], r["rubric"]) for r in data["rows"]} == {(s, rub) for s, _, rub, _ in SCORES}
    assert KURZ in render.to_csv(board) and BOGEN in render.to_csv(board)

"""A task's own Bewertungsbogen on the leaderboard (issue 31): judgements made under two rubrics are never averaged
into one number. The judge splits into one group per rubric, each group ranks its own rows, and the rubric id is
named with the group (its label, the row's ``rubric`` and the provenance lines of every rendering), with the
rubric's total as the scale of the group's means; a generation judged under one rubric is never an unjudged
generation of the other's group. The records path and the store path (SQL sums, per-item bootstrap) agree."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from benger.analysis.leaderboard import Leaderboard, leaderboard, leaderboard_from_store, render
from benger.judge import load_rubric, save_rubrics
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import open_store

RUBRICS = Path(__file__).resolve().parents[2] / "examples" / "own-study" / "rubrics"
KURZ_RUBRIC, BOGEN_RUBRIC = load_rubric(RUBRICS / "kurz3.yaml"), load_rubric(RUBRICS / "bogen-mietminderung.yaml")
KURZ, BOGEN = KURZ_RUBRIC.id, BOGEN_RUBRIC.id  # 30 and 20 points
# (system, task, rubric of the task, total); f3 carries its own Bewertungsbogen, f1 and f2 the corpus rubric
SCORES = [
    ("A", "f1", KURZ, 12.0), ("A", "f2", KURZ, 18.0), ("A", "f3", BOGEN, 5.0),
    ("B", "f1", KURZ, 30.0), ("B", "f2", KURZ, 24.0), ("B", "f3", BOGEN, 20.0),
]  # fmt: skip


def _tasks() -> dict[str, FalloesungTask]:
    bogen = yaml.safe_load((RUBRICS / "bogen-mietminderung.yaml").read_text(encoding="utf-8"))
    return {t: FalloesungTask(task_id=t, corpus="faelle", area="Zivilrecht", facts="SV", reference="ML",
                              rubric=bogen if t == "f3" else None)
            for t in ("f1", "f2", "f3")}  # fmt: skip


def _records(scores: list[tuple[str, str, str, float]] = SCORES) -> tuple[list[Generation], list[Judgement]]:
    gens = [Generation(generation_id=f"{s}-{t}", task_id=t, system=s, config_hash=f"h{s}", status="ok", text="x")
            for s, t, _, _ in SCORES]  # fmt: skip
    judgements = [
        Judgement(judgement_id=f"j-{s}-{t}", target_kind="generation", target_id=f"{s}-{t}", judge="J",
                  judge_config_hash="jh000000", rubric_id=rubric, repeat_index=0, status="scored", total=total)
        for s, t, rubric, total in scores
    ]  # fmt: skip
    return gens, judgements


SYSTEMS = {s: SystemConfig(name=s, provider="local", model=s.lower()) for s in ("A", "B")}


def _board() -> Leaderboard:
    return leaderboard(*_records(), _tasks(), systems=SYSTEMS, ci="normal")


def _store_board(tmp_path: Path, scores: list[tuple[str, str, str, float]] = SCORES, **options: Any) -> Leaderboard:
    """The same generations and judgements in a store that keeps both rubrics (as a run does, migration 0015)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = open_store(tmp_path / "own.db")
    try:
        store.add_corpus(Corpus(name="faelle", tasks=list(_tasks().values())))
        gens, judgements = _records(scores)
        for g in gens:
            store.save_generation(g)
        for j in judgements:
            store.save_judgement(j)
        save_rubrics(store, [KURZ_RUBRIC, BOGEN_RUBRIC])
        return leaderboard_from_store(store, **options)
    finally:
        store.close()


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
        assert any(line.startswith(f"Judge group J [jh000000, {rubric}]: judge config jh000000; rubric {rubric}; ")
                   for line in lines)  # fmt: skip
    markdown = render.to_markdown(board)
    assert f"### Judge: J [jh000000, {KURZ}]" in markdown and f"### Judge: J [jh000000, {BOGEN}]" in markdown
    data = json.loads(render.to_json(board))
    assert {(r["system"], r["rubric"]) for r in data["rows"]} == {(s, rub) for s, _, rub, _ in SCORES}
    assert KURZ in render.to_csv(board) and BOGEN in render.to_csv(board)


BOARDS = {
    "records": lambda tmp_path, scores: leaderboard(*_records(scores), _tasks(), systems=SYSTEMS, ci="normal"),
    "store, SQL sums": lambda tmp_path, scores: _store_board(tmp_path, scores, ci="normal"),
    "store, per-item bootstrap": lambda tmp_path, scores: _store_board(tmp_path, scores, ci="percentile"),
}


@pytest.mark.parametrize("path", BOARDS)
def test_a_generation_judged_under_one_rubric_is_not_unjudged_in_the_others_group(tmp_path: Path, path: str) -> None:
    board = BOARDS[path](tmp_path, SCORES)
    # every generation is judged: A and B have 2 kurz3 generations (f1, f2) and 1 Bogen generation (f3) each
    assert sorted((r.system, r.rubric == BOGEN, r.n, r.unjudged) for r in board.rows) == [
        ("A", False, 2, 0), ("A", True, 1, 0), ("B", False, 2, 0), ("B", True, 1, 0),
    ]  # fmt: skip
    # B's f2 not judged: it is unjudged in B's kurz3 group; its Bogen group (f3 judged) has none unjudged.
    # (A generation with no judgement at all names no rubric: the board counts it in each group of its judge.)
    without = [row for row in SCORES if row[:2] != ("B", "f2")]
    rows = {(r.system, r.rubric): r for r in BOARDS[path](tmp_path / "2", without).rows}
    assert [(rows[("B", KURZ)].n, rows[("B", KURZ)].unjudged), (rows[("A", KURZ)].n, rows[("A", KURZ)].unjudged)] == [
        (1, 1), (2, 0),
    ]  # fmt: skip
    assert rows[("B", BOGEN)].n == 1 and rows[("A", BOGEN)].unjudged == 0


def _terminal(board: Leaderboard) -> str:
    from rich.console import Console

    console = Console(record=True, width=4000, file=io.StringIO())
    console.print(render.to_rich(board))
    return " ".join(console.export_text().split())  # the caption wraps at the table's width


def _csv_scales(board: Leaderboard) -> str:
    rows = list(csv.DictReader(io.StringIO(render.to_csv(board))))
    assert "mean" in rows[0]  # the columns keep their names; the scale is a column of its own
    return " ".join(f"{r['rubric']}={r['scale']}" for r in rows)


def _json_scales(board: Leaderboard) -> str:
    data = json.loads(render.to_json(board))
    return " ".join([f"{r['rubric']}={r['scale']}" for r in data["rows"]] + [json.dumps(data["rubric_scales"])])


#: format -> its text; every one names each group's scale with the group's rubric
FORMATS = {
    "terminal": _terminal,
    "markdown": render.to_markdown,
    "csv": _csv_scales,
    "json": _json_scales,
}
SCALE_30, SCALE_20 = f"raw score 0-30 (rubric {KURZ})", f"raw score 0-20 (rubric {BOGEN})"


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_group_names_its_rubrics_total_in_every_format(tmp_path: Path, fmt: str) -> None:
    board = _store_board(tmp_path, ci="normal")
    assert board.rubric_scales == {KURZ: 30.0, BOGEN: 20.0}  # from the rubrics the store keeps
    text = FORMATS[fmt](board)
    if fmt in ("csv", "json"):
        assert f"{KURZ}={SCALE_30}" in text and f"{BOGEN}={SCALE_20}" in text
    if fmt == "json":
        assert json.dumps({BOGEN: 20.0, KURZ: 30.0}) in text
    if fmt in ("terminal", "markdown"):
        for rubric, scale in ((KURZ, SCALE_30), (BOGEN, SCALE_20)):
            assert f"Judge group J [jh000000, {rubric}]: judge config jh000000; rubric {rubric}; Mean: {scale}." in text
    assert "0-100" not in text  # never the paper's scale for these rubrics


def test_a_rubric_whose_content_is_unknown_says_so_and_the_papers_is_on_0_100() -> None:
    from benger.analysis.leaderboard.scales import rubric_totals
    from benger.pipeline import rubric_for_kind

    board = _board()  # records without a store: the Bogen is the task's own, kurz3 (a corpus rubric) is unknown
    assert board.rubric_scales == {BOGEN: 20.0}
    assert {r.rubric: r.scale for r in board.rows} == {
        KURZ: f"raw score the scale of {KURZ} (total not given)",
        BOGEN: SCALE_20,
    }
    paper = rubric_for_kind("falloesung").id
    assert rubric_totals([paper, "nowhere@1+00000000"]) == {paper: 100.0}


@pytest.mark.parametrize("markup", [True, False], ids=["markup-console", "benger-console"])
def test_the_caption_names_a_split_judge_group_literally(tmp_path: Path, markup: bool) -> None:
    # observed: "Judge group mein-judge \\[c3e94d81, kurz3@1+ada6562a]" on benger's console (markup off), where
    # the caption was rich-escaped for a console that would have parsed it
    from rich.console import Console

    board = _store_board(tmp_path, ci="normal")
    console = Console(record=True, width=4000, file=io.StringIO(), markup=markup)
    console.print(render.to_rich(board))
    text = " ".join(console.export_text().split())  # the caption wraps at the table's width
    labels = [label for line in render.provenance_lines(board) for label in re.findall(r"\[[^\]]*\]", line)]
    assert labels  # the two rubrics split the judge into groups named "J [hash, rubric]"
    assert "\\[" not in text
    assert all(label in text for label in labels)

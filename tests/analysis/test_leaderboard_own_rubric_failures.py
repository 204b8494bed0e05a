"""A case's own Bewertungsbogen keeps its failed and excluded generations in its own rubric's rows.

Before: a generation of case f3 (its own 20-point Bewertungsbogen, the other cases a 30-point rubric) that failed
or was excluded was counted in the system's row of the corpus rubric (``generations 3, failed 1`` beside n = 2
generations of that rubric), as if it were a generation of that rubric, and the system had no row of the
Bewertungsbogen at all. Now it is counted, as failed or excluded, in the judge configuration's group of the
rubric it would have been judged under (``counts.own_rubric_moves``); where that judge judged nothing under it
the main row keeps it. The records path and the store path (SQL sums, per-item bootstrap) agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.analysis.test_leaderboard_task_rubrics import BOGEN, BOGEN_RUBRIC, KURZ, KURZ_RUBRIC, _tasks

from benger.analysis.leaderboard import Leaderboard, leaderboard, leaderboard_from_store
from benger.judge import save_rubrics
from benger.schema import Corpus, Generation, Judgement, SystemConfig
from benger.store import open_store

# (system, task, status, rubric of its judgement or None, total)
Row = tuple[str, str, str, str | None, float]
KURZ_ROWS: list[Row] = [(s, t, "ok", KURZ, 20.0) for s in ("A", "B", "C") for t in ("f1", "f2")]
WITH_BOGEN = [*KURZ_ROWS, ("A", "f3", "failed", None, 0.0), ("B", "f3", "ok", BOGEN, 15.0),
              ("C", "f3", "excluded", None, 0.0)]  # fmt: skip
NO_BOGEN_JUDGED = [*KURZ_ROWS, ("A", "f3", "failed", None, 0.0), ("C", "f3", "excluded", None, 0.0)]


def _records(rows: list[Row]) -> tuple[list[Generation], list[Judgement]]:
    gens = [Generation(generation_id=f"{s}-{t}", task_id=t, system=s, config_hash=f"h{s}", status=status, text="x",
                       reason=None if status == "ok" else "refused")
            for s, t, status, _, _ in rows]  # fmt: skip
    judgements = [
        Judgement(judgement_id=f"j-{s}-{t}", target_kind="generation", target_id=f"{s}-{t}", judge="J",
                  judge_config_hash="jh000000", rubric_id=rubric, repeat_index=0, status="scored", total=total)
        for s, t, _, rubric, total in rows
        if rubric is not None
    ]  # fmt: skip
    return gens, judgements


def _store_board(tmp_path: Path, rows: list[Row], **options: Any) -> Leaderboard:
    store = open_store(tmp_path / "own.db")
    try:
        store.add_corpus(Corpus(name="faelle", tasks=list(_tasks().values())))
        gens, judgements = _records(rows)
        for g in gens:
            store.save_generation(g)
        for j in judgements:
            store.save_judgement(j)
        save_rubrics(store, [KURZ_RUBRIC, BOGEN_RUBRIC])
        return leaderboard_from_store(store, **options)
    finally:
        store.close()


SYSTEMS = {s: SystemConfig(name=s, provider="local", model=s.lower()) for s in ("A", "B", "C")}
BOARDS = {
    "records": lambda tmp_path, rows: leaderboard(*_records(rows), _tasks(), systems=SYSTEMS, ci="normal"),
    "store, SQL sums": lambda tmp_path, rows: _store_board(tmp_path, rows, ci="normal"),
    "store, per-item bootstrap": lambda tmp_path, rows: _store_board(tmp_path, rows, ci="percentile"),
}
# rows -> {(system, Bogen row?): (generations, n, failed, excluded)}
EXPECTED = {
    "a Bogen group": (WITH_BOGEN, {
        ("A", False): (2, 2, 0, 0), ("A", True): (1, 0, 1, 0),
        ("B", False): (2, 2, 0, 0), ("B", True): (1, 1, 0, 0),
        ("C", False): (2, 2, 0, 0), ("C", True): (1, 0, 0, 1),
    }),
    "no Bogen judged": (NO_BOGEN_JUDGED, {
        ("A", False): (3, 2, 1, 0), ("B", False): (2, 2, 0, 0), ("C", False): (3, 2, 0, 1),
    }),
}  # fmt: skip


@pytest.mark.parametrize("case", EXPECTED)
@pytest.mark.parametrize("path", BOARDS)
def test_failed_and_excluded_generations_of_a_bogen_case_are_counted_in_its_rows(
    tmp_path: Path, path: str, case: str
) -> None:
    rows, expected = EXPECTED[case]
    board = BOARDS[path](tmp_path, rows)
    found = {(r.system, r.rubric == BOGEN): (r.generations, r.n, r.failed, r.excluded) for r in board.rows}
    assert found == expected
    # each generation is counted once per judge configuration: the rows of a system add up to its generations
    for system in ("A", "B", "C"):
        assert sum(v[0] for k, v in found.items() if k[0] == system) == sum(1 for r in rows if r[0] == system)
    assert all(r.rank is None for r in board.rows if r.n == 0)  # a row of no scored generation is not ranked

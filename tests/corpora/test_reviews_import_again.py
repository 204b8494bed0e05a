"""Issue 33, item 5: ``import-reviews`` says which reviews it wrote new, replaced or found unchanged.

Observed: the same reviewer's review imported again with a changed score printed "imported 1 reviews" both
times and silently replaced the stored one. Now the second line counts new / replaced / unchanged, and an
import that changes nothing says "nothing new" (the wording of corpus/release imports) and writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.schema import Corpus, FalloesungTask, Generation
from benger.store import open_store

KURZ3 = Path(__file__).resolve().parents[2] / "examples" / "own-study" / "rubrics" / "kurz3.yaml"
HEADER = "solution_id,reviewer,role,ergebnis,aufbau,argumentation"
runner = CliRunner()
_register_commands()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "own.db"
    store = open_store(path)
    tasks = [FalloesungTask(task_id=f"t{i}", corpus="meine", area="Zivilrecht", facts="SV", reference="ML")
             for i in (1, 2)]  # fmt: skip
    store.add_corpus(Corpus(name="meine", tasks=tasks))
    for i in (1, 2):
        store.save_generation(Generation(generation_id=f"g{i}", task_id=f"t{i}", corpus="meine", system="sys",
                                         config_hash="c", text="Lösung"))  # fmt: skip
    store.close()
    return path


def _import(db: Path, tmp_path: Path, rows: list[str], name: str = "r.csv") -> str:
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    done = runner.invoke(app, ["import-reviews", str(path), "--db", str(db), "--rubric", f"meine={KURZ3}"])
    assert done.exit_code == 0, done.output
    return " ".join(done.output.split())


def _scores(db: Path) -> dict[tuple[str, str], float]:
    store = open_store(db)
    try:
        return {(r.target_id, r.grader_id): r.raw_score for r in store.human_reviews()}
    finally:
        store.close()


@pytest.mark.parametrize(
    ("again", "said"),
    [
        (["g1,R1,blind,4,4,4"], "0 new, 0 replaced (a changed review of the same reviewer, solution and role), "
         "1 unchanged nothing new: the store already holds these reviews (nothing was written)"),
        (["g1,R1,blind,5,4,4"], "0 new, 1 replaced"),  # the observed case: a changed score
        (["g1,R1,blind,4,4,4", "g2,R1,blind,2,2,2"], "1 new, 0 replaced"),
        (["g1,R1,creator,4,4,4"], "1 new, 0 replaced"),  # another role is another review
        (["g1,R2,blind,4,4,4", "g1,R1,blind,6,6,6"], "1 new, 1 replaced"),
    ],
)  # fmt: skip
def test_a_second_import_says_what_it_wrote(db: Path, tmp_path: Path, again: list[str], said: str) -> None:
    first = _import(db, tmp_path, ["g1,R1,blind,4,4,4"])
    assert "imported 1 reviews (1 blind, 0 creator) of 1 solutions by 1 reviewers 1 new, 0 replaced" in first
    assert "nothing new" not in first
    second = _import(db, tmp_path, again, "again.csv")  # another file: where a review was read is not a change
    assert said in second, second
    if "nothing new" not in said:
        assert "nothing new" not in second
    last = {(r.split(",")[0], r.split(",")[1]): sum(map(float, r.split(",")[3:])) for r in again if "blind" in r}
    assert {k: v for k, v in _scores(db).items() if k in last} == last

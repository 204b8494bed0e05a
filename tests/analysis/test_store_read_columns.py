"""What ``StudyData.from_store`` reads from a store, and how little (issue 26): the primary judge's first-pass
dimension points of each reviewed generation (kept as JSON text, decoded where read; none of the others), the
tasks' short columns (never the task texts), and an unknown corpus still refused by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benger.analysis import StudyData
from benger.analysis._records import JsonDims
from benger.errors import InputError


def _store(path: Path) -> Any:
    from benger.schema import Corpus, FalloesungTask, Generation, Judgement
    from benger.store import open_store

    store = open_store(path)
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="benchathon", area=area, facts="S" * 500, reference="R")
        for i, area in enumerate(("Zivilrecht", "Strafrecht", "Zivilrecht"))
    ]
    store.add_corpus(Corpus(name="benchathon", tasks=tasks))
    judgements = []
    for i, t in enumerate(tasks):
        gid = f"a-{t.task_id}"
        store.save_generation(Generation(generation_id=gid, task_id=t.task_id, system="a", config_hash="a"))
        for r, points in enumerate(({"subsumtion": 10.5 + i, "sprache": 2.0}, {"subsumtion": 1.0, "sprache": 0.0})):
            judgements.append(
                Judgement(
                    judgement_id=f"{gid}-{r}",
                    target_kind="generation",
                    target_id=gid,
                    judge="J",
                    judge_config_hash="jh",
                    rubric_id="falloesung@1+x",
                    repeat_index=r,
                    status="scored",
                    dimensions=points,
                    total=sum(points.values()),
                )
            )
        # another judge's first pass on the same generation: its points never become the generation's
        judgements.append(
            Judgement(
                judgement_id=f"{gid}-k",
                target_kind="generation",
                target_id=gid,
                judge="K",
                judge_config_hash="kh",
                rubric_id="falloesung@1+x",
                status="scored",
                dimensions={"subsumtion": 0.0},
                total=0.0,
            )
        )
    store.save_judgements(judgements)
    return store


def test_reviewed_generations_carry_the_primary_first_pass_points(tmp_path: Path) -> None:
    from benger.schema import HumanReview

    store = _store(tmp_path / "dims.db")
    for gid in ("a-t0", "a-t2"):  # reviewed: RQ5 compares their points; a-t1 is not, its points are never read
        store.add_human_review(
            HumanReview(
                review_id=f"r-{gid}",
                target_kind="generation",
                target_id=gid,
                task_id=gid[2:],
                grader_id="rev1",
                role="blind",
                dimensions={"subsumtion": 9.0, "sprache": 1.0},
                raw_score=10.0,
                grade_points=None,
                passed=None,
            )
        )
    data = StudyData.from_store(store, primary_judge="J")
    dims = {g.generation_id: g.dims for g in data.generations}
    assert dims == {
        "a-t0": {"subsumtion": 10.5, "sprache": 2.0},
        "a-t1": {},
        "a-t2": {"subsumtion": 12.5, "sprache": 2.0},
    }
    # the score is the repeat mean: (12.5 + 1) / 2 for t0
    assert {g.generation_id: g.raw for g in data.generations}["a-t0"] == 6.75
    assert data.task_areas == {"t0": "Zivilrecht", "t1": "Strafrecht", "t2": "Zivilrecht"}
    store.close()


def test_an_unknown_corpus_is_refused_by_name(tmp_path: Path) -> None:
    store = _store(tmp_path / "unknown.db")
    with pytest.raises(InputError, match=r"no corpus named 'zjs'.*benchathon"):
        StudyData.from_store(store, corpus="zjs")
    store.close()


@pytest.mark.parametrize(
    ("text", "decoded"),
    [
        ('{"a": 1.5, "b": 0}', {"a": 1.5, "b": 0}),
        ("null", {}),  # a judgement stored without points (JSON null)
        (None, {}),
        ("{}", {}),
    ],
)
def test_json_dims_reads_as_the_dict_it_holds(text: str | None, decoded: dict[str, float]) -> None:
    dims = JsonDims(text)
    assert dims == decoded and decoded == dims
    assert dict(dims) == decoded and len(dims) == len(decoded) and list(dims) == list(decoded)
    assert repr(dims) == repr(decoded)
    if decoded:
        assert dims["a"] == 1.5
    with pytest.raises(KeyError):
        dims["missing"]

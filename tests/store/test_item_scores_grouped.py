"""``item_scores`` reads the ok generations' items by grouping the judgements before the join
(``_grouped_item_stmt``, issue 26): the same items as the joined query ``_item_stmt`` (which ``row_sums`` still
sums), value for value, on random stores (repeats, unscored and total-less judgements, judges and rubrics, a
rubric whose pass value is derived, failed and superseded generations, judgements of no generation), and a
hand-computed small case."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store
from benger.store._aggregate_items import ItemScore, _generation_filters, _item_stmt, item_scores

_TOTALS = st.one_of(st.none(), st.sampled_from([0.0, 12.5, 49.5, 50.0, 77.0, 100.0]), st.floats(0, 100))
_JUDGEMENT = st.tuples(
    st.integers(0, 5),  # generation
    st.sampled_from([("J", "h1", "falloesung@1"), ("J", "h2", "falloesung@1"), ("K", "k", "grundprinzipien@1")]),
    st.sampled_from(["scored", "scored", "unscored"]),
    _TOTALS,
    st.one_of(st.none(), st.booleans()),  # passed (None: derived where the rubric has a rule)
)
_STATUSES = st.lists(st.sampled_from(["ok", "ok", "ok", "failed", "excluded"]), min_size=6, max_size=6)


def _with_tasks(location: Path | str) -> Any:
    store = open_store(location)
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="benchathon", area="Zivilrecht", facts="S", reference="R")
        for i in range(3)
    ]
    store.add_corpus(Corpus(name="benchathon", tasks=tasks))
    return store


@cache
def _empty() -> Path:
    """A store with the tasks t0..t2 of corpus benchathon (made once, copied per example: no migration each)."""
    path = Path(tempfile.mkdtemp(prefix="benger-items-")) / "empty.db"
    _with_tasks(path).close()
    return path


def _write(location: Path | str, statuses: list[str], judgements: list[Any]) -> Any:
    """The store at ``location`` (a SQLite path: a copy of ``_empty``; else a URL: written from scratch)."""
    if isinstance(location, Path):
        shutil.copyfile(_empty(), location)
        store = open_store(location)
    else:
        store = _with_tasks(location)
    for g, status in enumerate(statuses):
        reason = "superseded by a rerun" if status == "excluded" and g % 2 else None
        store.save_generation(
            Generation(
                generation_id=f"g{g}",
                task_id=f"t{g % 3}",
                system=f"s{g % 2}",
                config_hash=f"c{g % 2}",
                status=status,
                reason=reason,
                text="T",
            )
        )
    records = []
    for k, (g, (judge, jhash, rubric), status, total, passed) in enumerate(judgements):
        scored = status == "scored"
        records.append(
            Judgement(
                judgement_id=f"j{k}",
                target_kind="generation",
                target_id=f"g{g}" if g < 5 else "nowhere",  # a judgement of no stored generation
                judge=judge,
                judge_config_hash=jhash,
                rubric_id=rubric,
                repeat_index=k,
                status=status,
                total=total if scored else None,
                grade_points=int(total) % 19 if scored and total is not None else None,
                passed=passed if scored else None,
            )
        )
    store.save_judgements(records)
    return store


def _joined(store: Any, include_superseded: bool, **scope: Any) -> list[ItemScore]:
    """The items as the joined query gives them (the path item_scores took before)."""
    out = []
    with store.engine.connect() as connection:
        for generations in _generation_filters(include_superseded):
            stmt = _item_stmt(generations, scope.get("corpora"), scope.get("systems"), scope.get("judges"),
                              scope.get("leave_out", ()))  # fmt: skip
            out += [ItemScore(*r) for r in connection.execute(stmt)]
    return out


def _key(item: ItemScore) -> tuple[Any, ...]:
    return tuple("" if v is None else repr(v) for v in item)  # repr: -0.0 and 0.0, 1 and 1.0 told apart


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statuses=_STATUSES, judgements=st.lists(_JUDGEMENT, max_size=25), superseded=st.booleans(),
       scope=st.sampled_from([{}, {"systems": ["s1"]}, {"judges": ["J"]}, {"leave_out": [("J", "h2", "falloesung@1")]},
                              {"corpora": ["other"]}]))  # fmt: skip
def test_grouped_items_equal_the_joined_query(
    statuses: list[str], judgements: list[Any], superseded: bool, scope: dict[str, Any]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = _write(Path(tmp) / "s.db", statuses, judgements)
        try:
            found = item_scores(store, include_superseded=superseded, **scope)
            expected = _joined(store, superseded, **scope)
        finally:
            store.close()
    assert sorted(map(_key, found)) == sorted(map(_key, expected))


_BY_HAND = [
    ItemScore("s0", "c0", "benchathon", "g0", "J", "h1", "falloesung@1", 2, 1, 50.5, 3.0, 0.5, "ok", "t0"),
    ItemScore("s0", "c0", "benchathon", "g0", "K", "k", "grundprinzipien@1", 1, 0, 61.0, 4.0, 1.0, "ok", "t0"),
]


def _by_hand(location: Path | str) -> list[ItemScore]:
    """g0 (ok): J/h1 scored 40 and 61 (pass given True, then False; grade points 40 % 19 = 2 and 61 % 19 = 4) and
    one unscored; K's grundprinzipien@1 judgement without a pass value gets the rubric's rule (61 >= 50: pass);
    g1 (failed): left out."""
    store = _write(
        location,
        ["ok", "failed", "ok", "ok", "ok", "ok"],
        [
            (0, ("J", "h1", "falloesung@1"), "scored", 40.0, True),
            (0, ("J", "h1", "falloesung@1"), "scored", 61.0, False),
            (0, ("J", "h1", "falloesung@1"), "unscored", None, None),
            (0, ("K", "k", "grundprinzipien@1"), "scored", 61.0, None),
            (1, ("J", "h1", "falloesung@1"), "scored", 90.0, True),
        ],
    )
    try:
        return sorted(item_scores(store), key=lambda i: i.judge)
    finally:
        store.close()


def test_items_by_hand(tmp_path: Path) -> None:
    assert _by_hand(tmp_path / "s.db") == _BY_HAND


def test_items_by_hand_postgresql(pg_database: Any) -> None:
    with pg_database("benger_items") as url:
        assert _by_hand(url) == _BY_HAND

"""Issue 10, property: any sequence of imports, generate and judge runs (stub model) on one store never changes a
released number and never yields a leaderboard row with n above its corpus size x repetitions. User corpora may
reuse a released task id or each other's (a task is (corpus, task id)): each stays a task of its own corpus."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benger.analysis import leaderboard_from_store
from benger.corpora import Release, load_release
from benger.errors import BengerError
from benger.pipeline import RunConfig, run_config
from benger.schema import Corpus, PrincipleItem
from benger.store import Store, open_store
from benger.testing import run_stub_server

pytestmark = pytest.mark.release

CORPORA = ("benchathon", "grundprinzipien", "meine", "andere")
USER_CORPORA = ("meine", "andere")
#: where a user corpus's first task id comes from: its own, Benchathon's first task, or one id both user corpora use
IDS = ("own", "benchathon", "shared")
MAX_REPETITIONS = 2
_release: list[Release] = []
_stub: list[Any] = []


@pytest.fixture(scope="module", autouse=True)
def _shared(release_dir: Path) -> Iterator[None]:
    _release.append(load_release(release_dir))
    with run_stub_server() as stub:
        _stub.append(stub)
        yield
    _release.clear()
    _stub.clear()


def _user_corpus(name: str, ids: str, serial: int) -> Corpus:
    first = {"own": f"u{serial}-1", "benchathon": _release[0].benchathon.tasks[0].task_id, "shared": "shared-1"}[ids]
    items = [
        PrincipleItem(task_id=tid, corpus=name, area="Zivilrecht", case=f"Fall {tid}", question="Kaufvertrag?",
                      gold_answer="Ja", gold_reasoning="Angebot und Annahme.")
        for tid in (first, f"u{serial}-2")
    ]  # fmt: skip
    return Corpus(name=name, tasks=items)


def _system(name: str, model: str) -> dict[str, Any]:
    return {"name": name, "provider": "openai-compatible", "model": model, "base_url": _stub[0].base_url,
            "temperature": 0.0, "max_output_tokens": 4000}  # fmt: skip


def _run(store: Store, corpus: str, stages: tuple[str, ...], **config: Any) -> None:
    cfg = RunConfig(corpora=[corpus], concurrency=4, filters={"limit": 3},
                    retry={"max_retries": 0, "initial_wait": 0, "max_wait": 0}, **config)  # fmt: skip
    with contextlib.suppress(BengerError):  # e.g. a corpus that is not in the store yet: refused
        asyncio.run(run_config(cfg, store, stages=stages))


def _board(store: Store) -> list[Any]:
    board = leaderboard_from_store(store, ci="normal", include_superseded=False)
    return list(board.rows)


def _released(rows: list[Any]) -> set[tuple[Any, ...]]:
    return {(r.system, r.config_hash, r.corpus, r.judge, r.n, r.mean) for r in rows if r.judge == "gpt-5.4-mini"}


OPS = st.one_of(
    st.tuples(st.just("user"), st.sampled_from(CORPORA), st.sampled_from(IDS), st.booleans()),
    st.tuples(st.just("release")),
    st.tuples(
        st.just("generate"), st.sampled_from(CORPORA), st.sampled_from(["m1", "m2"]), st.integers(1, MAX_REPETITIONS)
    ),
    st.tuples(st.just("judge"), st.sampled_from(CORPORA)),
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPS, min_size=1, max_size=4))
@example(  # a Benchathon task id and an id shared by two user corpora, each generated and judged in its corpus
    [("user", "meine", "benchathon", False), ("user", "andere", "shared", False), ("generate", "meine", "m1", 2),
     ("judge", "meine"), ("generate", "andere", "m1", 1), ("user", "meine", "shared", True), ("judge", "meine")]
)  # fmt: skip
def test_no_sequence_of_imports_and_runs_changes_a_released_number(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "p.db") as store:
        store.import_release(_release[0])
        released = _released(_board(store))
        assert len(released) >= 12  # the paper's systems, scored by the primary judge
        for serial, op in enumerate(ops):
            if op[0] == "user":
                _, name, ids, replace = op
                with contextlib.suppress(BengerError):  # --replace is the user's wish: only for their own corpora
                    store.add_corpus(_user_corpus(name, ids, serial), replace=replace and name in USER_CORPORA)
                assert len(store.load_corpus("benchathon").tasks) == 15  # a reused id never moves a task
            elif op[0] == "release":
                store.import_release(_release[0])
            elif op[0] == "generate":
                _run(store, op[1], ("generate",), systems=[_system("stub", op[2])], repetitions=op[3])
                if op[1] in store.corpus_names():  # the run really generated (the property is not vacuous)
                    assert store.generations(corpus=op[1], system="stub", status="ok")
            else:
                _run(store, op[1], ("judge",), judges=[_system("stub-judge", "judge")])
                if store.generations(corpus=op[1], status="ok"):
                    assert store.judgements(judge="stub-judge")
            rows = _board(store)
            assert _released(rows) == released, f"a released number changed after {op}"
            sizes = {name: len(store.load_corpus(name).tasks) for name in store.corpus_names()}
            for row in rows:
                assert row.n <= sizes[row.corpus] * MAX_REPETITIONS, (op, row)

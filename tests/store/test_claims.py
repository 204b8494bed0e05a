"""Claims (the pay-once lease): exclusive, re-entrant for the owner, taken over when expired or when the
holder is a dead process on this host, refused for finished units; released and renewed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import pytest
from sqlalchemy import update

from benger.schema import Generation, Judgement
from benger.store import Store
from benger.store._claims import CLAIM_TTL_S
from benger.store._models import ClaimRow

from ._data import make_corpus

GEN_KEY = ("demo", "demo-t1", "h", 0)  # (corpus, task_id, config_hash, run_index)


def _generation(status: str) -> Generation:
    return Generation(
        generation_id=f"g-{status}", task_id="demo-t1", corpus="demo", system="s", config_hash="h", status=status
    )


def test_a_claim_is_exclusive_and_released(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    assert store.claim("u1", "a", generation=GEN_KEY)
    assert not store.claim("u1", "b", generation=GEN_KEY)
    assert store.claim("u1", "a", generation=GEN_KEY)  # the owner again (a redelivery in the same run)
    store.release_claim("u1", "b")  # not b's claim: nothing happens
    assert [k for k, _, _ in store.claims()] == ["u1"]
    store.release_claim("u1", "a")
    assert store.claims() == []
    assert store.claim("u1", "b", generation=GEN_KEY)


def test_an_expired_claim_is_taken_over_and_renewal_keeps_it(store: Store) -> None:
    assert store.claim("u1", "a")
    assert store.renew_claims("a") == 1
    assert store.claims()[0][2] > time.time() + CLAIM_TTL_S - 60
    with store.session() as session:  # a's claim ran out (its run stopped renewing)
        session.execute(update(ClaimRow).values(expires_at=time.time() - 1))
    assert store.claim("u1", "b")
    assert store.claims()[0][1] == "b"


def test_a_claim_of_a_dead_process_on_this_host_is_taken_over_at_once(store: Store) -> None:
    host = socket.gethostname()[:60]
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert store.claim("u1", f"{host}:{int(dead.stdout)}:abcd1234")  # a run killed with SIGKILL
    assert store.claim("u1", "rerun") and store.claims()[0][1] == "rerun"
    alive = f"{host}:{os.getpid()}:abcd1234"  # this test's own process: alive, so its claim holds
    assert store.claim("u2", alive)
    assert not store.claim("u2", "rerun")


@pytest.mark.parametrize("status", ["ok", "excluded"])
def test_a_finished_generation_cannot_be_claimed(store: Store, status: str) -> None:
    store.add_corpus(make_corpus("demo", 1))
    store.save_generation(_generation(status))
    assert not store.claim("u1", "a", generation=GEN_KEY)
    assert store.claims() == []


def test_a_failed_generation_and_an_unscored_judgement_can_be_claimed(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    store.save_generation(_generation("failed"))
    assert store.claim("u1", "a", generation=GEN_KEY)
    key = ("generation", "g-failed", "jh", "r@1", 0)
    store.save_judgement(
        Judgement(judgement_id="j", target_kind="generation", target_id="g-failed", judge="j", judge_config_hash="jh",
                  rubric_id="r@1", status="unscored", reason="bad reply")
    )  # fmt: skip
    assert store.claim("u2", "a", judgement=key)
    store.release_claim("u2", "a")
    store.save_judgement(
        Judgement(judgement_id="j", target_kind="generation", target_id="g-failed", judge="j", judge_config_hash="jh",
                  rubric_id="r@1", status="scored", total=50.0)
    )  # fmt: skip
    assert not store.claim("u2", "b", judgement=key)


def test_twenty_threads_racing_for_one_unit_give_one_claim(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    won: list[str] = []
    barrier = threading.Barrier(20)

    def race(i: int) -> None:
        barrier.wait()
        if store.claim("u1", f"owner-{i}", generation=GEN_KEY):
            won.append(f"owner-{i}")

    threads = [threading.Thread(target=race, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and store.claims()[0][1] == won[0]

"""Helpers of the runs tests: a store with a small corpus and an admin, the set-up form of a stub run."""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi.testclient import TestClient

#: A valid Fernet key (32 bytes of 0x01, url-safe base64): the tests' server key.
SECRET = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="
#: An API key the grep tests look for in everything the app writes (and its last four characters).
PLAIN_KEY = "sk-test-Zq8wX3vN5rT7yL1pK9mB"


def form_token(client: TestClient, path: str) -> str:
    page = client.get(path)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert match is not None, page.text[:500]
    return match.group(1)


def stub_form(base_url: str, *, corpus: str = "mini", limit: int = 2, **extra: Any) -> dict[str, Any]:
    """The set-up form of a run: one stub system and one stub judge on the OpenAI-compatible endpoint."""
    form: dict[str, Any] = {
        "name": "stub-run",
        "corpora": [corpus],
        "system_url": [base_url, ""],
        "system_model": ["stub-gen", ""],
        "system_key": ["OPENAI_API_KEY", ""],
        "judge_url": [base_url],
        "judge_model": ["stub-judge"],
        "judge_key": [""],
        "repeats": "1",
        "concurrency": "2",
        "limit": str(limit),
        "rubric": "",
        "falloesung_format": "json",
    }
    form.update(extra)
    return form


def wait_status(client: TestClient, url: str, timeout: float = 60.0) -> dict[str, Any]:
    """Poll the run's progress JSON until it is no longer active."""
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = client.get(url + "/progress").json()
        if state["status"] not in ("queued", "running", "cancelling"):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"run still {state['status']} after {timeout} s")
        time.sleep(0.2)


def org_with_corpus(store: Any, owner_id: int, name: str = "Lehrstuhl", corpus: Any = None) -> tuple[int, str]:
    """A new organisation owned by ``owner_id`` holding ``corpus`` (default the mini corpus): (org id, the
    corpus's stored name, a run config's ``corpora:`` entry)."""
    from study_helpers import mini_corpus

    from benger.store._orgs import Organisation
    from benger.web._orgcore import Member, OrgInfo, OrgRole
    from benger.web._orgscope import OrgScope, create_organisation

    org_id = create_organisation(store, name, owner_id)
    with store.session() as session:
        org = session.get(Organisation, org_id)
        info = OrgInfo(org.id, org.name, org.slug)
    scope = OrgScope(store, info, Member(owner_id, "", OrgRole.OWNER))
    chosen = corpus if corpus is not None else mini_corpus()
    scope.import_corpora([chosen], replace=False, source="test")
    return org_id, scope.stored_name(chosen.name)

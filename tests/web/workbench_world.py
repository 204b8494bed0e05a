"""Two organisations A and B with a member of every role each, their corpora, rubrics, invitations and audit
logs, on a real store; and the route table of the workbench's authorisation matrix."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))

from study_helpers import mini_corpus, user

from benger.judge import falloesung_rubric
from benger.store import Base, Store
from benger.web._orgcore import Member, OrgCap, OrgInfo, OrgRole
from benger.web._orgscope import OrgScope, accept_invitation, create_organisation

ROLES = ("owner", "organiser", "grader", "participant")
#: A corpus line that would be imported if a refused upload got through.
JSONL = b'{"task_id": "neu-1", "area": "Zivilrecht", "facts": "A kauft.", "reference": "Anspruch aus 433."}\n'
RUBRIC_YAML = (Path(__file__).resolve().parents[2] / "src/benger/judge/rubrics/falloesung.yaml").read_bytes()


@dataclass
class Org:
    id: int
    users: dict[str, int]  # role -> user id
    label: str  # a corpus label only this organisation has
    task_id: str
    rubric: int  # an uploaded rubric's ref
    names: dict[str, str]  # role -> user name
    run: int = 0  # a draft run (benger.web.runs) of this organisation
    validation: int = 0  # a finished validation (benger.web.validations) of that run
    study: int = 0  # a human study of the organisation (benger.web._orgstudies)


def _org(store: Store, name: str, only: str) -> Org:
    names = {role: f"{name.lower()}-{role}" for role in ROLES}
    users = {role: user(store, names[role], "participant") for role in ROLES}
    org_id = create_organisation(store, f"Organisation {name}", users["owner"])
    with store.session() as session:
        from benger.store._orgs import Organisation

        row = session.get(Organisation, org_id)
        assert row is not None
        info = OrgInfo(row.id, row.name, row.slug)
    scope = OrgScope(store, info, Member(users["owner"], names["owner"], OrgRole.OWNER))
    for role in ROLES[1:]:
        accept_invitation(store, scope.invite(role), users[role], names[role])
    scope.import_corpora([mini_corpus("faelle"), mini_corpus(only)], replace=False, source="setup")
    rubric = scope.add_rubric(falloesung_rubric(), "falloesung.yaml")
    scope.attach_rubric("faelle", "builtin:falloesung")
    scope.invite("grader")  # an open invitation
    run = _run_and_key(store, scope, users["owner"])
    study = scope.create_study(f"Studie {name}", "faelle", 1, 3600)
    return Org(org_id, users, only, f"{only}-t1", rubric, names, run, _validation(store, scope, run, users["owner"]),
               study)  # fmt: skip


def _run_and_key(store: Store, scope: OrgScope, owner: int) -> int:
    """A draft run of the organisation (its corpus "faelle" on a stub endpoint) and a stored key row; the id."""
    from benger.study._workbench_models import OrgApiKey, WorkbenchRun

    config = (
        f"name: entwurf\ncorpora: [{scope.stored_name('faelle')}]\nsystems:\n- {{name: s, provider: "
        "openai-compatible, model: s, base_url: 'http://127.0.0.1:9/v1'}\nfilters: {limit: 1}\n"
    )
    with store.session() as session:
        run = WorkbenchRun(organisation_id=scope.org_id, name="entwurf", config_yaml=config, executor="local",
                           status="draft", created_by=owner, reused=0, launches=0)  # fmt: skip
        session.add(run)
        session.add(OrgApiKey(organisation_id=scope.org_id, name="OPENAI_API_KEY", ciphertext="sealed", set_by=owner))
        session.flush()
        return run.id


def _validation(store: Store, scope: OrgScope, run: int, owner: int) -> int:
    """A finished validation of the organisation's run (no result table); its id."""
    from benger.study._workbench_models import WorkbenchValidation

    with store.session() as session:
        row = WorkbenchValidation(organisation_id=scope.org_id, run_id=run, judge="richter", source="corpus",
                                  corpus=scope.stored_name("faelle"), executor="local", status="failed", done=0,
                                  total=0, message="zu wenige Bewertungen", created_by=owner)  # fmt: skip
        session.add(row)
        session.flush()
        return row.id


def two_orgs(store: Store) -> tuple[Org, Org]:
    return _org(store, "A", "nur-a"), _org(store, "B", "nur-b")


def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (sorted), to show that refused requests changed nothing."""
    out = {}
    with store.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            rows = conn.execute(text(f'SELECT * FROM "{table.name}"')).all()
            out[table.name] = sorted((tuple(map(repr, r)) for r in rows), key=repr)
    return out


@dataclass(frozen=True)
class Case:
    """How to call one route: its capability (None: not org-scoped), form fields and an upload."""

    capability: OrgCap | None
    form: dict[str, str]
    upload: tuple[str, bytes] | None = None


#: (method, path) -> Case, for EVERY route under /orgs; a route without an entry fails the matrix test.
MATRIX: dict[tuple[str, str], Case] = {
    ("GET", "/orgs"): Case(None, {}),
    ("POST", "/orgs"): Case(None, {"name": "Neue Organisation"}),
    ("GET", "/orgs/join/{token}"): Case(None, {}),
    ("POST", "/orgs/join/{token}"): Case(None, {}),
    ("POST", "/orgs/join/{token}/account"): Case(None, {"username": "neu", "password": "ein-langes-Passwort-42"}),
    ("GET", "/orgs/{org_id}"): Case(OrgCap.VIEW, {}),
    ("GET", "/orgs/{org_id}/members"): Case(OrgCap.MEMBERS, {}),
    ("POST", "/orgs/{org_id}/invitations"): Case(OrgCap.MANAGE, {"role": "owner"}),
    ("POST", "/orgs/{org_id}/members/{user_id}/role"): Case(OrgCap.MANAGE, {"role": "participant"}),
    ("POST", "/orgs/{org_id}/members/{user_id}/remove"): Case(OrgCap.MANAGE, {}),
    ("GET", "/orgs/{org_id}/audit"): Case(OrgCap.AUDIT, {}),
    ("GET", "/orgs/{org_id}/corpora"): Case(OrgCap.CORPORA_READ, {}),
    ("POST", "/orgs/{org_id}/corpora"): Case(OrgCap.CORPORA_WRITE, {"replace": "1"}, ("neu.jsonl", JSONL)),
    ("GET", "/orgs/{org_id}/corpora/{label}"): Case(OrgCap.CORPORA_READ, {}),
    ("GET", "/orgs/{org_id}/corpora/{label}/tasks/{task_id}"): Case(OrgCap.CORPORA_READ, {}),
    ("POST", "/orgs/{org_id}/corpora/{label}/rubric"): Case(OrgCap.CORPORA_WRITE, {"rubric": ""}),
    ("GET", "/orgs/{org_id}/rubrics"): Case(OrgCap.CORPORA_READ, {}),
    ("POST", "/orgs/{org_id}/rubrics"): Case(OrgCap.CORPORA_WRITE, {}, ("neu.yaml", RUBRIC_YAML)),
    ("GET", "/orgs/{org_id}/rubrics/{ref}"): Case(OrgCap.CORPORA_READ, {}),
    # runs and keys (benger.web.runs)
    ("GET", "/orgs/{org_id}/runs"): Case(OrgCap.RUNS_READ, {}),
    ("GET", "/orgs/{org_id}/runs/new"): Case(OrgCap.RUNS_READ, {}),
    ("POST", "/orgs/{org_id}/runs"): Case(OrgCap.RUNS_WRITE, {"name": "neu", "systems": "gpt-5.4", "rubric": ""}),
    ("POST", "/orgs/{org_id}/runs/upload"): Case(OrgCap.RUNS_WRITE, {}, ("run.yaml", b"systems: [gpt-5.4]\n")),
    ("GET", "/orgs/{org_id}/runs/{run_id}"): Case(OrgCap.RUNS_READ, {}),
    ("GET", "/orgs/{org_id}/runs/{run_id}/config.yaml"): Case(OrgCap.RESULTS_EXPORT, {}),
    ("GET", "/orgs/{org_id}/runs/{run_id}/progress"): Case(OrgCap.RUNS_READ, {}),
    ("GET", "/orgs/{org_id}/runs/{run_id}/events"): Case(OrgCap.RUNS_READ, {}),
    ("POST", "/orgs/{org_id}/runs/{run_id}/launch"): Case(OrgCap.RUNS_WRITE, {}),
    ("POST", "/orgs/{org_id}/runs/{run_id}/cancel"): Case(OrgCap.RUNS_WRITE, {}),
    ("GET", "/orgs/{org_id}/keys"): Case(OrgCap.RUNS_READ, {}),
    ("POST", "/orgs/{org_id}/keys"): Case(OrgCap.KEYS, {"name": "OPENAI_API_KEY", "key": "sk-ersetzt"}),
    ("POST", "/orgs/{org_id}/keys/delete"): Case(OrgCap.KEYS, {"name": "OPENAI_API_KEY"}),
    # the organisation's human studies (benger.web.workbench._studies)
    ("GET", "/orgs/{org_id}/studies"): Case(OrgCap.STUDIES, {}),
    ("POST", "/orgs/{org_id}/studies"): Case(OrgCap.STUDIES, {"name": "neu", "corpus": "faelle", "seed": "1"}),
    ("POST", "/orgs/{org_id}/studies/assign"): Case(OrgCap.STUDIES_ASSIGN, {"study_id": "1"}),
    # validation runs (benger.web.validations)
    ("GET", "/orgs/{org_id}/runs/{run_id}/validations/new"): Case(OrgCap.RUNS_READ, {}),
    ("POST", "/orgs/{org_id}/runs/{run_id}/validations"): Case(OrgCap.RUNS_WRITE, {"judge": "s", "source": "corpus"}),
    ("GET", "/orgs/{org_id}/validations"): Case(OrgCap.RESULTS_READ, {}),
    ("GET", "/orgs/{org_id}/validations/{validation_id}"): Case(OrgCap.RESULTS_READ, {}),
    ("GET", "/orgs/{org_id}/validations/{validation_id}/progress"): Case(OrgCap.RESULTS_READ, {}),
    ("POST", "/orgs/{org_id}/validations/{validation_id}/launch"): Case(OrgCap.RUNS_WRITE, {}),
}

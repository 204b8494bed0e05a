"""The organisation scope (benger.web._orgscope) on SQLite and PostgreSQL: creating, inviting, joining, roles,
the last owner, and tenant isolation of corpora, rubrics and members by id; a failed import stores nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from sqlalchemy import func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))

from study_helpers import mini_corpus, user

from benger.errors import InputError
from benger.judge import falloesung_rubric
from benger.store import Store, open_store
from benger.store._orgs import AuditEntry, OrgCorpus
from benger.study import StudyError
from benger.web._orgcore import Member, NotFound, OrgInfo, OrgRole
from benger.web._orgscope import (
    OrgScope,
    accept_invitation,
    create_organisation,
    organisations_of,
)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    pg_database: Callable[[str], AbstractContextManager[str]],
) -> Iterator[Store]:
    if request.param == "sqlite":
        opened = open_store(tmp_path / "orgs.db")
        yield opened
        opened.close()
        return
    with pg_database("benger_orgs") as url:
        opened = open_store(url)
        yield opened
        opened.close()


def _scope(store: Store, org_id: int, user_id: int) -> OrgScope:
    """The scope as the dependency builds it for a member (tests name the role themselves)."""
    with store.session() as session:
        from benger.store._orgs import Membership, Organisation

        org = session.get(Organisation, org_id)
        member = session.get(Membership, (org_id, user_id))
        assert org is not None and member is not None
        return OrgScope(store, OrgInfo(org.id, org.name, org.slug), Member(user_id, "", OrgRole(member.role)))


def test_create_invite_accept_and_roles(store: Store) -> None:
    owner, other = user(store, "olga", "admin"), user(store, "otto", "participant")
    org = create_organisation(store, "Lehrstuhl Müller", owner)
    assert [(o.name, o.slug, r) for o, r in organisations_of(store, owner)] == [
        ("Lehrstuhl Müller", "lehrstuhl-mueller", OrgRole.OWNER)
    ]
    assert create_organisation(store, "Lehrstuhl-Müller!", owner) != org  # same slug base: a new slug
    with pytest.raises(StudyError, match="gibt es schon"):
        create_organisation(store, "Lehrstuhl Müller", other)
    scope = _scope(store, org, owner)
    token = scope.invite("organiser")
    with pytest.raises(StudyError, match="Unbekannte Rolle"):
        scope.invite("admin")
    assert accept_invitation(store, token, other, "otto") == org
    with pytest.raises(StudyError, match="ungültig, benutzt oder abgelaufen"):
        accept_invitation(store, token, other, "otto")  # one use only
    assert [(m.username, m.role) for m in scope.members()] == [("olga", "owner"), ("otto", "organiser")]
    with pytest.raises(StudyError, match="mindestens eine"):
        scope.set_role(owner, "grader")  # the last owner
    scope.set_role(other, "owner")
    scope.set_role(owner, "grader")
    with pytest.raises(StudyError, match="mindestens eine"):
        _scope(store, org, other).remove(other)
    lines, pages = scope.audit_log()
    assert pages == 1
    assert [line.action for line in lines] == ["role-change", "role-change", "accept", "invite", "create"]
    assert lines[0].detail == {"before": "owner", "after": "grader"}


def test_scopes_see_only_their_own_rows(store: Store) -> None:
    a_owner, b_owner = user(store, "anna", "admin"), user(store, "bert", "admin")
    org_a, org_b = create_organisation(store, "A", a_owner), create_organisation(store, "B", b_owner)
    a, b = _scope(store, org_a, a_owner), _scope(store, org_b, b_owner)
    a.import_corpora([mini_corpus("faelle")], replace=False, source="faelle.jsonl")
    b.import_corpora([mini_corpus("faelle")], replace=False, source="faelle.jsonl")  # same label, own corpus
    assert [c.stored for c in a.corpora()] == ["a/faelle"] and [c.stored for c in b.corpora()] == ["b/faelle"]
    ref = a.add_rubric(falloesung_rubric(), "mine")
    assert a.add_rubric(falloesung_rubric(), "again") == ref  # the same content is kept once
    a.attach_rubric("faelle", f"ref:{ref}")
    assert a.corpus("faelle").rubric == falloesung_rubric().id
    for attempt in (
        lambda: b.rubric(ref),
        lambda: b.attach_rubric("faelle", f"ref:{ref}"),
        lambda: b.set_role(a_owner, "grader"),
        lambda: b.remove(a_owner),
        lambda: b.corpus("a/faelle"),
        lambda: b.task("a/faelle", "faelle-t1"),
    ):
        with pytest.raises(NotFound):
            attempt()
    assert b.rubrics() == [] and [m.username for m in b.members()] == ["bert"]
    assert {line.action for line in b.audit_log()[0]} == {"create", "import"}
    assert b.corpus("faelle").rubric is None
    with pytest.raises(StudyError, match="Aufgaben der Art grundprinzip"):
        b.attach_rubric("faelle", "builtin:grundprinzipien")


def test_a_failed_import_stores_nothing(store: Store) -> None:
    owner = user(store, "olga", "admin")
    scope = _scope(store, create_organisation(store, "A", owner), owner)
    scope.import_corpora([mini_corpus("faelle")], replace=False, source="x")
    changed = mini_corpus("faelle").model_copy(update={"tasks": mini_corpus("faelle").tasks[:2]})
    with store.session() as session:
        audits = session.scalar(select(func.count()).select_from(AuditEntry))
    with pytest.raises(InputError, match="already in the store"):
        scope.import_corpora([mini_corpus("neu"), changed], replace=False, source="y")  # second one refused
    assert [c.label for c in scope.corpora()] == ["faelle"]
    assert "a/neu" not in store.corpus_names()
    with store.session() as session:
        assert session.scalar(select(func.count()).select_from(AuditEntry)) == audits
        assert session.scalar(select(func.count()).select_from(OrgCorpus)) == 1
    scope.import_corpora([changed], replace=True, source="y")
    assert scope.corpus("faelle").tasks == 2

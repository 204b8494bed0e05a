"""Margin notes on passages of the solution: saved with the review version, round-tripped by the form, copied
into a correction and mirrored into the core store."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from study_helpers import HALF_MARKS
from web_helpers import World, csrf_of, login

from benger.study._models import Review, ReviewAssignment


def _form(page: str) -> dict[str, list[str]]:
    """The margin-note fields of the grading form, in page order, as a browser would send them."""
    block = re.search(r'<fieldset class="margin-notes".*?</fieldset>', page, re.S)
    assert block is not None
    quotes = [m.group(1) or "" for m in re.finditer(r'<input name="note_quote"(?: value="([^"]*)")?', block.group(0))]
    texts = re.findall(r'<textarea name="note_text"[^>]*>(.*?)</textarea>', block.group(0), re.S)
    return {"note_quote": quotes, "note_text": texts}


def test_margin_notes_round_trip_and_survive_a_correction(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["g1"], role="blind").limit(1))
    client = login(TestClient(app), "g1")
    token = csrf_of(client, "/reviews")
    form: dict[str, str | list[str]] = {f"dim_{k}": str(v) for k, v in HALF_MARKS.items()}
    form |= {f"just_{k}": "passt" for k in HALF_MARKS}
    notes = {
        "note_quote": ["A verkauft B", "", "ohne Bemerkung"],
        "note_text": ["Anspruchsgrundlage fehlt", "Gliederung springt", ""],  # the third has no note: dropped
    }
    draft = client.post(f"/reviews/{aid}/draft", data={**form, **notes}, headers={"X-CSRF-Token": token})
    assert draft.status_code == 200
    expected = [
        {"quote": "A verkauft B", "note": "Anspruchsgrundlage fehlt"},
        {"quote": "", "note": "Gliederung springt"},
    ]
    with world.store.session() as session:
        assert session.scalar(select(Review.margin_notes).filter_by(assignment_id=aid)) == expected
    # the page shows the saved notes in the form; sending the page's fields back keeps them
    page = client.get(f"/reviews/{aid}").text
    sent = _form(page)
    assert sent == {
        "note_quote": ["A verkauft B", "", ""],  # the two saved notes, then the empty row for a new one
        "note_text": ["Anspruchsgrundlage fehlt", "Gliederung springt", ""],
    }
    resp = client.post(f"/reviews/{aid}/submit", data={**form, **sent, "csrf_token": token})
    assert resp.status_code == 200 and 'id="review-submitted"' in resp.text
    client.post(f"/reviews/{aid}/correct", data={"csrf_token": token})
    with world.store.session() as session:
        versions = session.scalars(select(Review).filter_by(assignment_id=aid).order_by(Review.version)).all()
    assert [v.margin_notes for v in versions] == [expected, expected]
    [mirrored] = [r for r in world.store.human_reviews() if r.meta.get("margin_notes")]
    assert mirrored.meta["margin_notes"] == expected


def test_overlong_margin_note_is_refused(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["g2"], role="blind").limit(1))
    client = login(TestClient(app), "g2")
    resp = client.post(
        f"/reviews/{aid}/draft",
        data={"note_quote": "x" * 301, "note_text": "zu lang"},
        headers={"X-CSRF-Token": csrf_of(client, "/reviews")},
    )
    assert resp.status_code == 422 and resp.json()["field"] == "margin_notes"

"""Migration 0013_ungraded_reviews: ``human_reviews.grade_points`` and ``passed`` become nullable (SQLite and
PostgreSQL), existing reviews are kept, and a downgrade refuses while a review has no grade, naming it."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect, text

from benger.schema import HumanReview
from benger.store import open_store
from benger.store._engine import MIGRATIONS_DIR


def _engine_url(url: str) -> str:
    return url if "://" in url else f"sqlite:///{url}"


def _migrate(url: str, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(_engine_url(url))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, target)
    finally:
        engine.dispose()


def _nullable(url: str) -> dict[str, bool]:
    engine = create_engine(_engine_url(url))
    try:
        columns = {c["name"]: bool(c["nullable"]) for c in inspect(engine).get_columns("human_reviews")}
    finally:
        engine.dispose()
    return {name: columns[name] for name in ("grade_points", "passed")}


def _review(review_id: str, grade: int | None, passed: bool | None) -> HumanReview:
    return HumanReview(review_id=review_id, target_kind="generation", target_id="g1", task_id="t1",
                       grader_id="r1", role="blind", dimensions={"a": 2.0}, raw_score=2.0, grade_points=grade,
                       passed=passed)  # fmt: skip


def test_migration_0013_allows_ungraded_reviews_and_keeps_rows(db_url: str) -> None:
    _migrate(db_url, "0012_viewer_speed", up=True)
    assert _nullable(db_url) == {"grade_points": False, "passed": False}
    store = open_store(db_url)  # upgrades to head
    try:
        assert _nullable(db_url) == {"grade_points": True, "passed": True}
        store.add_human_review(_review("graded", 7, True))
        store.add_human_review(_review("ungraded", None, None))
        got = {r.review_id: (r.grade_points, r.passed) for r in store.human_reviews()}
        assert got == {"graded": (7, True), "ungraded": (None, None)}
    finally:
        store.close()
    with pytest.raises(RuntimeError, match=r"cannot downgrade below 0013: 1 human review\(s\).*ungraded"):
        _migrate(db_url, "0012_viewer_speed", up=False)
    engine = create_engine(_engine_url(db_url))
    try:
        with engine.begin() as connection:
            connection.execute(text("DELETE FROM human_reviews WHERE review_id = 'ungraded'"))
    finally:
        engine.dispose()
    _migrate(db_url, "0012_viewer_speed", up=False)
    assert _nullable(db_url) == {"grade_points": False, "passed": False}
    store = open_store(db_url)
    try:
        assert [(r.review_id, r.grade_points, r.passed) for r in store.human_reviews()] == [("graded", 7, True)]
    finally:
        store.close()

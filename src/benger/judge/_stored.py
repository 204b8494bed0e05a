"""Rubrics kept in the store (issue 31): saved when judging starts, read back by id wherever a judgement's rubric
is needed (analyze, the report, the viewer, validate-judge, import-reviews), so no rubric file is needed again.

The store keeps :func:`~benger.judge._rubric.rubric_data` and the content hash; reading back checks that the
content still has that hash and id, so a changed row is refused instead of scoring under another rubric.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from benger.errors import InputError
from benger.judge._rubric import Rubric, rubric_data, rubric_from_data
from benger.store._rubrics import StoredRubric


def save_rubrics(store: Any, rubrics: Iterable[Rubric]) -> None:
    """Keep the content of ``rubrics`` in ``store`` (one transaction; a rubric already kept is left as it is)."""
    unique = {r.content_hash: r for r in rubrics}
    store.save_rubrics(
        StoredRubric(rubric_id=r.id, content_hash=h, payload=rubric_data(r)) for h, r in sorted(unique.items())
    )


def stored_rubric(store: Any, rubric_id: str) -> Rubric | None:
    """The rubric with id ``rubric_id`` (``name@version+sha8``) that ``store`` keeps, None when it keeps none.

    InputError when the stored content no longer hashes to its key, or when two stored rubrics share the id (an
    8-digit hash collision: named, never chosen between)."""
    found = [_checked(row) for row in store.stored_rubrics([rubric_id])]
    if len(found) > 1:
        hashes = ", ".join(r.content_hash for r in found)
        raise InputError(f"the store keeps {len(found)} rubrics with the id {rubric_id!r} ({hashes})")
    return found[0] if found else None


def _checked(row: StoredRubric) -> Rubric:
    rubric = rubric_from_data(row.payload, f"stored rubric {row.rubric_id}")
    if rubric.content_hash != row.content_hash or rubric.id != row.rubric_id:
        raise InputError(
            f"the stored rubric {row.rubric_id!r} was changed in the store: its content hashes to "
            f"{rubric.content_hash[:8]} ({rubric.id}), not {row.content_hash[:8]}",
            field="rubrics",
        )
    return rubric

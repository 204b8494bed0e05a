"""Export a study to the release layout, so others can rerun the analysis on it.

Writes ``data/interim/benchathon_human_grading_sample.json`` (picks with their texts and the review
assignments) and ``data/processed/benchathon_human_grades.json`` (one row per latest submitted review)
with the field names of the paper's release, and ``data/processed/csv/benchathon_submissions.csv``: the
organiser's submissions table (``SUBMISSION_COLUMNS``: arm, times, skip reason, the AI tools named, expertise)
through the spreadsheet CSV writer. Participants and graders appear only by pseudonym.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import select

from benger.outputs import output_folder
from benger.spreadsheet import write_csv
from benger.store import Store
from benger.study._errors import StudyError
from benger.study._models import Pick, Review, ReviewAssignment, Study, StudyUser, Submission
from benger.study._review import solution_text
from benger.study._service import study_tasks
from benger.study._tables import SUBMISSION_COLUMNS, submission_rows

_PROVENANCE = {"traditional": "classic", "co_creation": "co_creation", "llm": "llm"}
_SOLUTION_TYPE = {"traditional": "human_traditional", "co_creation": "human_co_creation", "llm": "llm_system"}


def export_study(store: Store, study_id: int, out: Path) -> dict[str, int]:
    """Write the study's picks, assignments, reviews and submissions under ``out``; returns the row counts."""
    with store.session() as session:
        study = session.get(Study, study_id)
        if study is None:
            raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
        tasks = {t.task_id: t for t in study_tasks(session, study_id)}
        users = {u.id: u for u in session.scalars(select(StudyUser))}
        picks = list(session.scalars(select(Pick).filter_by(study_id=study_id).order_by(Pick.code)))
        by_id = {p.id: p for p in picks}
        assignments = list(
            session.scalars(
                select(ReviewAssignment)
                .filter_by(study_id=study_id)
                .order_by(ReviewAssignment.pick_id, ReviewAssignment.slot)
            )
        )
        subs = {s.id: s for s in session.scalars(select(Submission).filter_by(study_id=study_id))}
        pick_rows: list[dict[str, Any]] = []
        for p in picks:
            task = tasks[p.task_id]
            sub = subs.get(p.target_id)
            pick_rows.append(
                {
                    "pick_id": p.code,
                    "task_inner_id": task.position + 1,
                    "task_id": p.task_id,
                    "task_name": task.title,
                    "bereich": task.area,
                    "difficulty": task.difficulty,
                    "provenance": _PROVENANCE[p.provenance],
                    "subject_type": "model" if p.target_kind == "generation" else "human",
                    "subject_id": p.target_id,
                    "system": p.meta.get("system"),
                    "model_tier": p.meta.get("tier"),
                    "user_pseudonym": users[sub.user_id].pseudonym if sub else None,
                    "expertise_score": p.meta.get("expertise_score"),
                    "n_blind_reviews": sum(a.pick_id == p.id and a.role == "blind" for a in assignments),
                    "submission_text": solution_text(session, store, p),
                }
            )
        assignment_rows = [
            {
                "pick_id": by_id[a.pick_id].code,
                "task_inner_id": tasks[by_id[a.pick_id].task_id].position + 1,
                "bereich": tasks[by_id[a.pick_id].task_id].area,
                "provenance": _PROVENANCE[by_id[a.pick_id].provenance],
                "difficulty": tasks[by_id[a.pick_id].task_id].difficulty,
                "reviewer_name": users[a.grader_id].pseudonym,
                "reviewer_role": a.role,
                "is_blind": a.role == "blind",
                "pass": a.slot,
            }
            for a in assignments
        ]
        creators: dict[str, dict[str, Any]] = {}
        for task in tasks.values():
            if task.author_id is not None:
                entry = creators.setdefault(users[task.author_id].pseudonym, {"tasks": []})
                entry["tasks"].append(task.position + 1)
        grades: list[dict[str, Any]] = []
        for a in assignments:
            versions = list(
                session.scalars(
                    select(Review).filter_by(assignment_id=a.id, status="submitted").order_by(Review.version)
                )
            )
            if not versions:
                continue
            review, pick = versions[-1], by_id[a.pick_id]
            grades.append(
                {
                    "solution_id": pick.target_id,
                    "solution_type": _SOLUTION_TYPE[pick.provenance],
                    "system_or_user": pick.meta.get("system")
                    or (users[subs[pick.target_id].user_id].pseudonym if pick.target_id in subs else None),
                    "task_id": pick.task_id,
                    "bereich": tasks[pick.task_id].area,
                    "grader_id": users[a.grader_id].pseudonym,
                    "role": a.role,
                    "role_inferred": False,
                    "raw_score": review.total,
                    "grade_points": review.grade_points,
                    "passed": review.passed,
                    "dimensions": review.dimensions,
                    "annotation_id": versions[0].id,
                    "version": review.version,
                }
            )
        sample = {
            "export": f"benger study {study.name}",
            "seed": study.seed,
            "n_picks": len(pick_rows),
            "n_assignments": len(assignment_rows),
            "creators": creators,
            "blind_reviewers": {
                users[a.grader_id].pseudonym: users[a.grader_id].pseudonym for a in assignments if a.role == "blind"
            },
            "picks": pick_rows,
            "assignments": assignment_rows,
        }
        submissions = submission_rows(session, study_id)
    with output_folder(out, "study export") as folder:
        for rel, payload in (
            ("data/interim/benchathon_human_grading_sample.json", sample),
            ("data/processed/benchathon_human_grades.json", grades),
        ):
            folder.write_text(rel, json.dumps(payload, ensure_ascii=False, indent=2))
        folder.write_text("data/processed/csv/benchathon_submissions.csv", write_csv(submissions, SUBMISSION_COLUMNS))
    return {
        "picks": len(pick_rows),
        "assignments": len(assignment_rows),
        "reviews": len(grades),
        "submissions": len(submissions),
    }

"""benger.study: the human-study logic (accounts, timed Benchathon flow, picks, review design, reviews, export)."""

from benger.study._accounts import authenticate, create_invitation, create_user, redeem_invitation
from benger.study._assign import (
    PickSpec,
    ReviewSlot,
    assign_arms,
    assign_reviews,
    design_violations,
    improving_moves,
)
from benger.study._export import export_study
from benger.study._picks import Expertise, HumanCandidate, LlmCandidate, expertise_scores, pick_humans, pick_llm
from benger.study._review import coverage, open_correction, run_assignment, run_picks, save_review, score
from benger.study._service import (
    AlreadySubmitted,
    create_study,
    enrol,
    expire_overdue,
    save_draft,
    save_expertise,
    set_author,
    skip,
    start,
    submit,
)

__all__ = [
    "AlreadySubmitted",
    "Expertise",
    "HumanCandidate",
    "LlmCandidate",
    "PickSpec",
    "ReviewSlot",
    "assign_arms",
    "assign_reviews",
    "authenticate",
    "coverage",
    "create_invitation",
    "create_study",
    "create_user",
    "design_violations",
    "enrol",
    "expertise_scores",
    "expire_overdue",
    "export_study",
    "improving_moves",
    "open_correction",
    "pick_humans",
    "pick_llm",
    "redeem_invitation",
    "run_assignment",
    "run_picks",
    "save_draft",
    "save_expertise",
    "save_review",
    "score",
    "set_author",
    "skip",
    "start",
    "submit",
]

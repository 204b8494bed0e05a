"""benger.study: the human-study logic (accounts, timed Benchathon flow, picks, review design, reviews, export)."""

from benger.study._accounts import (
    LoggedIn,
    authenticate,
    change_password,
    create_invitation,
    create_user,
    end_sessions,
    redeem_invitation,
    set_active,
    set_groups,
    set_password,
    set_roles,
    user_by_name,
)
from benger.study._assign import (
    PickSpec,
    ReviewSlot,
    assign_arms,
    assign_reviews,
    design_violations,
    improving_moves,
)
from benger.study._drafts import DraftState, save_draft
from benger.study._draw import run_assignment, run_picks
from benger.study._errors import AlreadySubmitted, DraftConflict, RateLimited, StudyError, WrongState
from benger.study._export import export_study
from benger.study._feedback import Feedback, own_feedback, set_feedback
from benger.study._lifecycle import close_study, finish_study, open_study
from benger.study._picks import Expertise, HumanCandidate, LlmCandidate, expertise_scores, pick_humans, pick_llm
from benger.study._progress import coverage
from benger.study._review import open_correction, save_review, score
from benger.study._service import (
    create_study,
    enrol,
    expire_overdue,
    save_expertise,
    set_author,
    set_authors,
    set_study_groups,
    skip,
    start,
    submit,
)

__all__ = [
    "AlreadySubmitted",
    "DraftConflict",
    "DraftState",
    "Expertise",
    "Feedback",
    "HumanCandidate",
    "LlmCandidate",
    "LoggedIn",
    "PickSpec",
    "RateLimited",
    "ReviewSlot",
    "StudyError",
    "WrongState",
    "assign_arms",
    "assign_reviews",
    "authenticate",
    "change_password",
    "close_study",
    "coverage",
    "create_invitation",
    "create_study",
    "create_user",
    "design_violations",
    "end_sessions",
    "enrol",
    "expertise_scores",
    "expire_overdue",
    "export_study",
    "finish_study",
    "improving_moves",
    "open_correction",
    "open_study",
    "own_feedback",
    "pick_humans",
    "pick_llm",
    "redeem_invitation",
    "run_assignment",
    "run_picks",
    "save_draft",
    "save_expertise",
    "save_review",
    "score",
    "set_active",
    "set_author",
    "set_authors",
    "set_feedback",
    "set_groups",
    "set_password",
    "set_roles",
    "set_study_groups",
    "skip",
    "start",
    "submit",
    "user_by_name",
]

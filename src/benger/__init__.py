"""benger: the BenGER benchmark for subsumption-based legal reasoning in German law.

Corpora -> LLM providers -> generation / judge runners -> rubric judge -> metrics -> statistics ->
analysis and reports, with a store, a human-study web platform and Celery workers beside them.
"""

from benger.judge import Rubric, falloesung_rubric, grade_points, grundprinzipien_rubric, passed
from benger.schema import (
    Corpus,
    FalloesungTask,
    Generation,
    HumanReview,
    HumanSolution,
    Judgement,
    PrincipleItem,
    SystemConfig,
)

__version__ = "0.1.0"

__all__ = [
    "Corpus",
    "FalloesungTask",
    "Generation",
    "HumanReview",
    "HumanSolution",
    "Judgement",
    "PrincipleItem",
    "Rubric",
    "SystemConfig",
    "__version__",
    "falloesung_rubric",
    "grade_points",
    "grundprinzipien_rubric",
    "passed",
]

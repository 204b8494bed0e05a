"""benger: the BenGER benchmark for subsumption-based legal reasoning in German law.

Corpora -> LLM providers -> generation / judge runners -> rubric judge -> metrics -> statistics ->
analysis and reports, with a store, a human-study web platform and Celery workers beside them.

The names below are the public API. Light ones are imported eagerly; the heavier stages (statistics,
reports, store) load on first use so that ``import benger`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from benger.corpora import (
    Corpus,
    FalloesungTask,
    PrincipleItem,
    load_corpus_file,
    load_demo_corpora,
    load_release,
    load_zjs,
    resolve_corpus_source,
)
from benger.errors import BengerError, ConfigError, InputError
from benger.judge import Rubric, falloesung_rubric, grade_points, grundprinzipien_rubric, parse_judgement, passed
from benger.llm import ChatModel, ChatRequest, ChatResponse, RetryPolicy, create_model, load_catalog
from benger.pipeline import (
    GenerationUnit,
    JudgeUnit,
    PromptSet,
    execute_generation,
    execute_judgement,
    load_run_config,
    run_config,
)
from benger.schema import Generation, HumanReview, HumanSolution, Judgement, SystemConfig

if TYPE_CHECKING:
    from benger.analysis import StudyData, compute_all, leaderboard, leaderboard_from_store
    from benger.metrics import compute as compute_metrics
    from benger.report import analyze, reproduce
    from benger.store import Store, open_store

__version__ = "0.1.0"

_LAZY: dict[str, tuple[str, str]] = {
    "StudyData": ("benger.analysis", "StudyData"),
    "compute_all": ("benger.analysis", "compute_all"),
    "leaderboard": ("benger.analysis", "leaderboard"),
    "leaderboard_from_store": ("benger.analysis", "leaderboard_from_store"),
    "compute_metrics": ("benger.metrics", "compute"),
    "analyze": ("benger.report", "analyze"),
    "reproduce": ("benger.report", "reproduce"),
    "Store": ("benger.store", "Store"),
    "open_store": ("benger.store", "open_store"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'benger' has no attribute {name!r}")


__all__ = [
    "BengerError",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "ConfigError",
    "Corpus",
    "FalloesungTask",
    "Generation",
    "GenerationUnit",
    "HumanReview",
    "HumanSolution",
    "InputError",
    "JudgeUnit",
    "Judgement",
    "PrincipleItem",
    "PromptSet",
    "RetryPolicy",
    "Rubric",
    "Store",
    "StudyData",
    "SystemConfig",
    "__version__",
    "analyze",
    "compute_all",
    "compute_metrics",
    "create_model",
    "execute_generation",
    "execute_judgement",
    "falloesung_rubric",
    "grade_points",
    "grundprinzipien_rubric",
    "leaderboard",
    "leaderboard_from_store",
    "load_catalog",
    "load_corpus_file",
    "load_demo_corpora",
    "load_release",
    "load_run_config",
    "load_zjs",
    "open_store",
    "parse_judgement",
    "passed",
    "reproduce",
    "resolve_corpus_source",
    "run_config",
]

"""benger: the BenGER benchmark for subsumption-based legal reasoning in German law.

Corpora -> LLM providers -> generation / judge runners -> rubric judge -> metrics -> statistics ->
analysis and reports, with a store, a human-study web platform and Celery workers beside them.

The names below are the public API. Each loads on first use (PEP 562 ``__getattr__``), so that ``import
benger`` and ``benger --help`` import no stage.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.analysis import StudyData, compute_all
    from benger.analysis.leaderboard import leaderboard, leaderboard_from_store
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
    from benger.metrics import compute as compute_metrics
    from benger.pipeline import (
        GenerationUnit,
        JudgeUnit,
        PromptSet,
        execute_generation,
        execute_judgement,
        load_run_config,
        run_config,
    )
    from benger.report import analyze, reproduce
    from benger.schema import Generation, HumanReview, HumanSolution, Judgement, SystemConfig
    from benger.store import Store, open_store

__version__ = "0.1.0"

_HOMES: dict[str, tuple[str, ...]] = {
    "benger.analysis": ("StudyData", "compute_all"),
    # the package benger.analysis.leaderboard holds the function leaderboard (benger.leaderboard)
    "benger.analysis.leaderboard": ("leaderboard", "leaderboard_from_store"),
    "benger.corpora": (
        "Corpus",
        "FalloesungTask",
        "PrincipleItem",
        "load_corpus_file",
        "load_demo_corpora",
        "load_release",
        "load_zjs",
        "resolve_corpus_source",
    ),
    "benger.errors": ("BengerError", "ConfigError", "InputError"),
    "benger.judge": (
        "Rubric",
        "falloesung_rubric",
        "grade_points",
        "grundprinzipien_rubric",
        "parse_judgement",
        "passed",
    ),
    "benger.llm": ("ChatModel", "ChatRequest", "ChatResponse", "RetryPolicy", "create_model", "load_catalog"),
    "benger.pipeline": (
        "GenerationUnit",
        "JudgeUnit",
        "PromptSet",
        "execute_generation",
        "execute_judgement",
        "load_run_config",
        "run_config",
    ),
    "benger.report": ("analyze", "reproduce"),
    "benger.schema": ("Generation", "HumanReview", "HumanSolution", "Judgement", "SystemConfig"),
    "benger.store": ("Store", "open_store"),
}
#: every public name -> (module, attribute); each module is imported on first use of one of its names, so
#: ``import benger`` (and every ``benger`` command, which imports the package first) costs no stage's imports
_LAZY: dict[str, tuple[str, str]] = {name: (module, name) for module, names in _HOMES.items() for name in names}
_LAZY["compute_metrics"] = ("benger.metrics", "compute")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value  # later lookups skip this function
        return value
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

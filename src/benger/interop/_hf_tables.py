"""The tables of a benger Hugging Face export: their columns (typed), and store records <-> rows.

One parquet file per table and split (``<table>/<split>.parquet``). Corpus-bound tables (tasks, generations,
human solutions, judgements, human reviews, metric values) have one split per corpus; the others one split
``all``. Free-form dicts (``meta``, ``details``, a system's ``config``) are JSON text columns; a judgement's
scores are a list of ``{dimension, score}`` structs and its justifications a list of ``{dimension,
justification}`` structs, both in the judge's order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from benger.schema import Corpus, Generation, HumanReview, HumanSolution, Judgement, SystemConfig

#: Format of the export folder (``benger_export.json`` ``format``); bumped when a column changes meaning.
EXPORT_FORMAT = "benger-hf/1"
MANIFEST = "benger_export.json"
#: The split of the tables that belong to no corpus (corpora, systems) and of records whose target is unknown.
ALL_SPLIT = "all"
UNLINKED_SPLIT = "unlinked"

_S, _I, _F, _B = "string", "int64", "float64", "bool"
_SCORES = ("scores", "dimension", "score")  # list<struct<dimension: string, score: float64>>
_NOTES = ("notes", "dimension", "justification")  # list<struct<dimension: string, justification: string>>


@dataclass(frozen=True)
class Table:
    """One exported table: its name, its (column, type) pairs and whether it is split by corpus."""

    name: str
    columns: tuple[tuple[str, str | tuple[str, str, str]], ...]
    by_corpus: bool

    def names(self) -> list[str]:
        return [c for c, _ in self.columns]


TABLES: tuple[Table, ...] = (
    Table("corpora", (("name", _S), ("description", _S), ("n_tasks", _I)), False),
    Table(
        "tasks",
        (
            ("corpus", _S),
            ("task_id", _S),
            ("position", _I),
            ("kind", _S),
            ("area", _S),
            ("title", _S),
            ("difficulty", _S),
            ("facts", _S),
            ("reference", _S),
            ("principle", _S),
            ("authors", _S),
            ("case", _S),
            ("question", _S),
            ("gold_answer", _S),
            ("gold_reasoning", _S),
            ("meta", _S),
        ),
        True,
    ),
    Table(
        "systems",
        (
            ("name", _S),
            ("config_hash", _S),
            ("provider", _S),
            ("model", _S),
            ("display_name", _S),
            ("tier", _S),
            ("weights", _S),
            ("temperature", _F),
            ("max_output_tokens", _I),
            ("seed", _I),
            ("config", _S),
        ),
        False,
    ),
    Table(
        "generations",
        (
            ("generation_id", _S),
            ("corpus", _S),
            ("task_id", _S),
            ("system", _S),
            ("config_hash", _S),
            ("run_index", _I),
            ("status", _S),
            ("text", _S),
            ("answer", _S),
            ("reason", _S),
            ("finish_reason", _S),
            ("truncated", _B),
            ("refused", _B),
            ("input_tokens", _I),
            ("output_tokens", _I),
            ("latency_s", _F),
            ("cost_usd", _F),
            ("meta", _S),
        ),
        True,
    ),
    Table(
        "human_solutions",
        (
            ("solution_id", _S),
            ("corpus", _S),
            ("task_id", _S),
            ("participant_id", _S),
            ("condition", _S),
            ("text", _S),
            ("meta", _S),
        ),
        True,
    ),
    Table(
        "judgements",
        (
            ("judgement_id", _S),
            ("corpus", _S),
            ("target_kind", _S),
            ("target_id", _S),
            ("judge", _S),
            ("judge_config_hash", _S),
            ("rubric_id", _S),
            ("repeat_index", _I),
            ("status", _S),
            ("reason", _S),
            ("total", _F),
            ("grade_points", _I),
            ("passed", _B),
            ("model_total", _F),
            ("answer", _S),
            ("dimensions", _SCORES),
            ("justifications", _NOTES),
            ("meta", _S),
        ),
        True,
    ),
    Table(
        "human_reviews",
        (
            ("review_id", _S),
            ("corpus", _S),
            ("target_kind", _S),
            ("target_id", _S),
            ("task_id", _S),
            ("grader_id", _S),
            ("role", _S),
            ("raw_score", _F),
            ("grade_points", _I),
            ("passed", _B),
            ("position", _I),
            ("dimensions", _SCORES),
            ("meta", _S),
        ),
        True,
    ),
    Table(
        "metric_values",
        (
            ("corpus", _S),
            ("target_kind", _S),
            ("target_id", _S),
            ("metric", _S),
            ("signature", _S),
            ("value", _F),
            ("details", _S),
        ),
        True,
    ),
    # the content of every rubric the store keeps (``benger.judge.rubric_data``, JSON text): an own rubric's
    # scale, grade table and pass mark travel with its judgements, so the copy scores them as the original does
    Table("rubrics", (("rubric_id", _S), ("content_hash", _S), ("payload", _S)), False),
)
TABLE = {t.name: t for t in TABLES}

#: Tables of a store that an export leaves out on purpose: name prefix -> reason (tests/interop/
#: test_hf_tables_covered.py holds every table of a new store to TABLES or to one of these).
NOT_EXPORTED: dict[str, str] = {
    "alembic_version": "the schema version: the importing store has its own",
    "claims": "leases of running workers: meaningless outside the store that runs them",
    "budget_ledger": "a run's spending caps: state of a run in progress, not a result",
    "judge_validations": "recomputed by `benger validate-judge` from the exported judgements and reviews",
    "generations_fts": "full-text index of the generations: the importing store builds its own",
    "human_solutions_fts": "full-text index of the human solutions: the importing store builds its own",
    "stud": "studies of the web app (accounts, invitations, submissions): personal data, never exported",
    "org": "organisations of the web app (members, API keys, uploads): access rights, never exported",
    "workbench_": "the web workbench's runs and validations: state of the web app",
}


def not_exported(table: str) -> str | None:
    """Why the store table ``table`` is left out of an export (None for a table the export holds or does not know)."""
    return next((why for prefix, why in NOT_EXPORTED.items() if table.startswith(prefix)), None)


def split_names(corpora: Iterable[str]) -> dict[str, str]:
    """Corpus name -> split name: ``datasets`` allows only ``\\w+(\\.\\w+)*``, so other characters become ``_``
    (``demo-falloesung`` -> ``demo_falloesung``); a clash gets ``_2``, ``_3`` ... The rows keep the corpus name."""
    out: dict[str, str] = {}
    used = {ALL_SPLIT, UNLINKED_SPLIT}
    for name in corpora:
        base = re.sub(r"\W+", "_", name, flags=re.ASCII).strip("_") or "corpus"
        split, n = base, 1
        while split in used:
            n += 1
            split = f"{base}_{n}"
        used.add(split)
        out[name] = split
    return out


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _pairs(mapping: Mapping[str, Any] | None) -> list[dict[str, Any]] | None:
    return None if mapping is None else [{"dimension": k, "value": v} for k, v in mapping.items()]


def task_rows(corpus: Corpus) -> list[dict[str, Any]]:
    rows = []
    for position, task in enumerate(corpus.tasks):
        data = task.model_dump(mode="json")
        row = {name: data.get(name) for name in TABLE["tasks"].names()}
        row |= {"corpus": corpus.name, "position": position, "meta": _json(task.meta)}
        rows.append(row)
    return rows


def system_row(system: SystemConfig) -> dict[str, Any]:
    data = system.model_dump(mode="json")
    row = {name: data.get(name) for name in TABLE["systems"].names()}
    return row | {"config_hash": system.config_hash(), "config": _json(data)}


def generation_row(gen: Generation) -> dict[str, Any]:
    return gen.model_dump(mode="json") | {"meta": _json(gen.meta)}


def solution_row(sol: HumanSolution) -> dict[str, Any]:
    return sol.model_dump(mode="json") | {"meta": _json(sol.meta)}


def judgement_row(j: Judgement, corpus: str | None) -> dict[str, Any]:
    scores = _pairs(j.dimensions)
    notes = _pairs(j.justifications) or []
    return j.model_dump(mode="json") | {
        "corpus": corpus,
        "dimensions": None if scores is None else [{"dimension": p["dimension"], "score": p["value"]} for p in scores],
        "justifications": [{"dimension": p["dimension"], "justification": p["value"]} for p in notes],
        "meta": _json(j.meta),
    }


def review_row(r: HumanReview, corpus: str | None) -> dict[str, Any]:
    scores = [{"dimension": k, "score": v} for k, v in r.dimensions.items()]
    return r.model_dump(mode="json") | {"corpus": corpus, "dimensions": scores, "meta": _json(r.meta)}


def rubric_row(rubric: Any) -> dict[str, Any]:
    """A :class:`benger.store.StoredRubric` as a row (its canonical mapping as JSON text)."""
    return {"rubric_id": rubric.rubric_id, "content_hash": rubric.content_hash, "payload": _json(rubric.payload)}


def metric_row(value: Any, corpus: str | None) -> dict[str, Any]:
    return {
        "corpus": corpus,
        "target_kind": value.target_kind,
        "target_id": value.target_id,
        "metric": value.metric,
        "signature": value.signature,
        "value": value.value,
        "details": _json(value.details),
    }

"""Bulk import of the released BenGER data into a store (``Store.import_release``).

The import is ONE transaction: every record is validated first, then everything is written; on any
error nothing is (the store is unchanged). The two corpora follow the corpus rules of
``benger.store._corpora`` (a differing stored corpus of the same name is refused unless ``replace``).

What goes in (all idempotent; a second import changes nothing):

* the Benchathon (15) and Grundprinzipien (531) corpora, the 12 systems;
* the 180 final + 28 superseded generations. Their texts are not released: the text is empty and
  ``meta["text"] == "released, text withheld"``; the 15 LLM validation picks carry the pick text
  (``meta["text"] == "grading sample"``). The superseded April-2026 generations share task, system and
  config with the final ones, so they get their own config hash (:func:`superseded_config_hash`),
  status ``excluded`` (reason ``superseded``) and ``meta["superseded"] = True``: kept for RQ5, left out
  of every leaderboard mean, as in the paper;
* their primary-judge judgements (judge ``gpt-5.4-mini``, rubric ``falloesung@1``, the judge config hash
  the release loader derives, ``stable_hash({"judge": "gpt-5.4-mini"})``);
* the 30 human validation picks as HumanSolutions, the 180 human reviews (``position`` = file order);
* the paper's six judges' raw scores of the validation picks (``Release.pick_judgements``, from
  ``creator_calibration_anchors.csv``: of the human picks 6 x 30 less Opus-4.7's two = 178, of the LLM picks
  the five non-primary judges' 5 x 15 = 75; judgements without dimensions, judge names and config hashes as
  ``benger.judge._released`` names them), so that a store holding the release validates its judges as
  ``benger validate-judge --release`` does (the five judge only reviewed picks: the leaderboard leaves them out);
* the automatic metric values of the generations (signature ``"release"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError
from sqlalchemy import select, text
from sqlalchemy.exc import SQLAlchemyError

from benger.errors import InputError
from benger.schema import Corpus, Generation, HumanReview, HumanSolution, Judgement, SystemConfig, stable_hash
from benger.store import _fulltext
from benger.store._convert import system_row
from benger.store._corpora import apply_corpus
from benger.store._models import (
    GenerationRow,
    HumanReviewRow,
    HumanSolutionRow,
    JudgementRow,
    MetricValueRow,
    SystemRow,
)
from benger.store._rubrics import StoredRubric
from benger.store._session import StoreBase, row_values

if TYPE_CHECKING:
    from benger.corpora import Release

RELEASE_SIGNATURE = "release"
TEXT_WITHHELD = "released, text withheld"
SUPERSEDED_CAMPAIGN = "2026-04"
_CONDITIONS = {"classic": "traditional", "co_creation": "co_creation"}
_R = TypeVar("_R", bound=BaseModel)
#: PostgreSQL (14+, built with lz4): the import's long values (task payloads, solution texts and their folded copy
#: ``text_folded``) are TOASTed with lz4 instead of pglz, ~25% less server CPU for the release (read back the
#: same; a value keeps the method it was written with). A no-op on a server without lz4 or before 14.
_LZ4_FOR_THIS_TRANSACTION = text(
    "SELECT set_config('default_toast_compression', 'lz4', true) FROM pg_settings "
    "WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
)


def superseded_config_hash(config_hash: str) -> str:
    """The config hash of a superseded (April-2026) generation: distinct from the final run's hash."""
    return stable_hash({"config_hash": config_hash, "campaign": SUPERSEDED_CAMPAIGN})


def _generation(gen: Generation, superseded: bool, pick_ids: dict[str, str]) -> Generation:
    meta: dict[str, Any] = {**gen.meta, "source": "release", "superseded": superseded}
    meta["text"] = "grading sample" if gen.text else TEXT_WITHHELD
    if gen.generation_id in pick_ids:
        meta["pick_id"] = pick_ids[gen.generation_id]
    update: dict[str, Any] = {"meta": meta}
    if superseded:
        update |= {
            "config_hash": superseded_config_hash(gen.config_hash),
            "status": "excluded",
            "reason": f"superseded ({SUPERSEDED_CAMPAIGN} campaign; left out of the leaderboards)",
        }
    return gen.model_copy(update=update)


def _human_solutions(release: Release) -> list[HumanSolution]:
    authors = {r.target_id: r.meta.get("author") for r in release.reviews if r.target_kind == "human_solution"}
    out = []
    for pick in release.picks:
        if pick.subject_type != "human":
            continue
        out.append(
            HumanSolution(
                solution_id=pick.subject_id,
                task_id=pick.task_id,
                participant_id=str(authors.get(pick.subject_id) or pick.participant or "unknown"),
                condition=_CONDITIONS.get(pick.provenance, "traditional"),
                text=pick.text,
                meta={
                    "source": "release",
                    "pick_id": pick.pick_id,
                    "pseudonym": pick.participant,
                    "difficulty": pick.difficulty,
                    "provenance": pick.provenance,
                },
            )
        )
    return out


def _validated(records: Sequence[_R], what: str) -> list[_R]:
    """Every record re-validated (a value changed after loading is caught before the first write)."""
    out = []
    for index, record in enumerate(records):
        try:
            out.append(type(record).model_validate(record.model_dump(warnings=False)))
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(p) for p in error["loc"])
            raise InputError(
                f"{what} {index + 1}: {error['msg']} (nothing was imported)", file="release", field=field
            ) from exc
    return out


def _check_tasks(records: Sequence[Generation | HumanSolution], known: dict[str, str], what: str) -> None:
    for record in records:
        if record.task_id not in known or record.corpus not in (None, known[record.task_id]):
            rid = record.generation_id if isinstance(record, Generation) else record.solution_id
            raise InputError(
                f"{what} {rid!r} names task {record.task_id!r}, which is in neither released corpus "
                "(nothing was imported)",
                file="release",
                field="task_id",
            )


def import_release(store: StoreBase, release: Release | str | Path, *, replace: bool = False) -> dict[str, int]:
    """Load the release (a loaded ``Release`` or its folder) into ``store`` in ONE transaction.

    Every record is validated first; on any error (InputError naming the record) nothing is written.
    Returns counts per kind.
    """
    if isinstance(release, str | Path):
        from benger.corpora import load_release

        release = load_release(release)
    corpora = [release.benchathon, release.grundprinzipien]
    known = {t.task_id: c.name for c in corpora for t in c.tasks}
    if len(known) != sum(len(c.tasks) for c in corpora):  # a released record names its task by id alone
        raise InputError("the two released corpora share a task id (nothing was imported)", file="release")
    pick_ids = {p.subject_id: p.pick_id for p in release.picks}
    gens = _validated(
        [_generation(g, g.generation_id in release.superseded_ids, pick_ids) for g in release.generations],
        "generation",
    )
    solutions = _validated(_human_solutions(release), "human solution")
    _check_tasks(gens, known, "generation")
    _check_tasks(solutions, known, "human solution")
    gens = [g.model_copy(update={"corpus": known[g.task_id]}) for g in gens]  # a task is (corpus, task id)
    solutions = [s.model_copy(update={"corpus": known[s.task_id]}) for s in solutions]
    judgements = _validated([*release.judgements, *release.pick_judgements], "judgement")
    reviews = _validated(list(release.reviews), "human review")
    systems = _validated([info.config for info in release.systems], "system")
    metric_rows = [
        {
            "target_kind": "generation",
            "target_id": m.generation_id,
            "metric": m.metric,
            "signature": RELEASE_SIGNATURE,
            "value": m.value,
            "details": {"system": m.system, "superseded": m.superseded},
        }
        for m in release.metrics
    ]
    for index, row in enumerate(metric_rows):
        if not isinstance(row["value"], int | float) or isinstance(row["value"], bool):
            raise InputError(
                f"metric value {index + 1} is {row['value']!r}, not a number (nothing was imported)",
                file="release",
                field="value",
            )
    bundle = RecordBundle(corpora, systems, gens, judgements, solutions, reviews, metric_rows)
    return write_records(store, bundle, replace=replace, what="the release")


@dataclass
class RecordBundle:
    """Everything one bulk import writes: corpora first, then the records made from their tasks.

    ``metric_values``: rows with the columns of ``metric_values`` (target_kind, target_id, metric, signature,
    value, details). Generations and human solutions name their corpus (a task is (corpus, task id)).
    ``rubrics``: the content of the rubrics the judgements were made with (``benger import hf`` of an export that
    carries them), kept as ``Store.save_rubrics`` keeps them (a content hash already stored is left as it is).
    """

    corpora: list[Corpus]
    systems: list[SystemConfig] = field(default_factory=list)
    generations: list[Generation] = field(default_factory=list)
    judgements: list[Judgement] = field(default_factory=list)
    human_solutions: list[HumanSolution] = field(default_factory=list)
    human_reviews: list[HumanReview] = field(default_factory=list)
    metric_values: list[dict[str, Any]] = field(default_factory=list)
    rubrics: list[StoredRubric] = field(default_factory=list)


def write_records(
    store: StoreBase, bundle: RecordBundle, *, replace: bool = False, what: str = "the records"
) -> dict[str, int]:
    """Write ``bundle`` into ``store`` in ONE transaction (corpora by the rules of ``benger.store._corpora``;
    finished generations and scored judgements are kept, as ``save_generation``/``save_judgement`` do).

    Returns counts per kind, ``written_<kind>`` beside each: the rows of that kind this import wrote, new or
    changed (the database's own count; the rest were in the store as they are), and ``removed_*`` counts when
    ``replace`` replaced a corpus. A database error
    rolls everything back and is an ``InputError`` naming the store: "``what`` could not be stored".
    """
    try:
        return _write(store, bundle, replace)
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise InputError(f"{what} could not be stored, nothing was imported: {reason}", file=store.url) from exc


def _write(store: StoreBase, bundle: RecordBundle, replace: bool) -> dict[str, int]:
    corpora, systems, gens = bundle.corpora, bundle.systems, bundle.generations
    judgements, solutions, reviews = bundle.judgements, bundle.human_solutions, bundle.human_reviews
    metric_rows = bundle.metric_values
    written: dict[str, int] = {}  # rows each upsert wrote (new or changed): the database's own counts
    with store._write() as session, session.begin():
        if session.get_bind().dialect.name == "postgresql":
            session.execute(_LZ4_FOR_THIS_TRANSACTION)
        changes = [apply_corpus(store, session, corpus, replace=replace) for corpus in corpora]
        upsert = partial(store._upsert, session, changed_only=True)
        written["systems"] = upsert(SystemRow, [system_row(c) for c in systems], ["name", "config_hash"])
        stamp = store._stamped
        written["generations"] = upsert(
            GenerationRow,
            [stamp(row_values(GenerationRow, g)) for g in gens],
            ["corpus", "task_id", "config_hash", "run_index"],
            keep=["created_at"],
            where=GenerationRow.__table__.c.status == "failed",
        )
        written["judgements"] = upsert(
            JudgementRow,
            [stamp(row_values(JudgementRow, j)) for j in judgements],
            ["target_kind", "target_id", "judge_config_hash", "rubric_id", "repeat_index"],
            keep=["created_at"],
            where=JudgementRow.__table__.c.status == "unscored",
        )
        written["human_solutions"] = upsert(
            HumanSolutionRow,
            [stamp(row_values(HumanSolutionRow, s)) for s in solutions],
            ["solution_id"],
            keep=["created_at"],
        )
        written["human_reviews"] = upsert(
            HumanReviewRow, [stamp(row_values(HumanReviewRow, r)) for r in reviews], ["review_id"], keep=["created_at"]
        )
        written["metric_values"] = upsert(
            MetricValueRow,
            [stamp(m) for m in metric_rows],
            ["target_kind", "target_id", "metric", "signature"],
            keep=["created_at"],
        )
        if bundle.rubrics:
            written["rubrics"] = _write_rubrics(store, session, bundle.rubrics)
        _fulltext.sync(session.connection())  # the imported texts searchable at once, in the same transaction
        stored_gens = len(
            list(
                session.scalars(
                    select(GenerationRow.generation_id).where(
                        GenerationRow.generation_id.in_([g.generation_id for g in gens])
                    )
                )
            )
        )
    written["corpora"] = sum(c.action != "unchanged" for c in changes)
    written["tasks"] = sum(c.tasks for c in changes if c.action != "unchanged")
    counts = {
        "corpora": len(corpora),
        "tasks": sum(len(c.tasks) for c in corpora),
        "systems": len(systems),
        "generations": stored_gens,
        "judgements": len(judgements),
        "human_solutions": len(solutions),
        "human_reviews": len(reviews),
        "metric_values": len(metric_rows),
    }
    if bundle.rubrics:
        counts["rubrics"] = len({r.content_hash for r in bundle.rubrics})
    counts.update({f"written_{what}": written[what] for what in list(counts)})
    replaced = [c for c in changes if c.action == "replaced"]
    if replaced:  # what --replace removed, summed over the two corpora
        for what in ("tasks", "generations", "judgements", "human_solutions", "human_reviews", "metric_values"):
            counts[f"removed_{what}"] = sum(getattr(c, f"{what}_removed") for c in replaced)
    return counts


def _write_rubrics(store: StoreBase, session: Any, rubrics: Sequence[StoredRubric]) -> int:
    """Insert the rubrics whose content hash the store does not keep yet; how many that were."""
    from benger.store._models import RubricRow
    from benger.store._tables import utcnow
    from benger.store._text import storable

    rows = {r.content_hash: {**r.model_dump(), "created_at": utcnow()} for r in rubrics}
    kept = set(session.scalars(select(RubricRow.content_hash).where(RubricRow.content_hash.in_(list(rows)))))
    new = [storable(RubricRow, row) for h, row in rows.items() if h not in kept]
    if new:
        session.execute(store._insert(RubricRow).on_conflict_do_nothing(index_elements=["content_hash"]), new)
    return len(new)
